import { Alert, Button, Group, Stack } from '@mantine/core';
import { MSG_TEAMS } from '@tlprt/contract';
import type { ReactNode } from 'react';
import { showPopup } from '../../platform/api/popups';

/** A mutation the alert runs: resending the link or revoking the request. */
interface LinkMutation {
  isPending: boolean;
  mutate: (variables: undefined, options?: { onSuccess?: () => void }) => void;
}

/**
 * A change of the profile waiting for its e-mail link (a new e-mail address, the account's deletion):
 * what was asked and where the link went, Resend (a notice once sent) and Revoke.
 */
export function PendingLinkAlert({
  title,
  color,
  icon,
  children,
  resend,
  revoke,
}: {
  title: string;
  color: string;
  icon: ReactNode;
  /** What to confirm, and with which link. */
  children: ReactNode;
  resend: LinkMutation;
  revoke: LinkMutation;
}) {
  return (
    <Alert variant="light" color={color} icon={icon} title={title}>
      <Stack gap="sm">
        {children}
        <Group gap="sm">
          <Button
            size="xs"
            variant="default"
            loading={resend.isPending}
            onClick={() =>
              resend.mutate(undefined, {
                onSuccess: () => showPopup({ kind: 'notice', title: MSG_TEAMS.linkSent }),
              })
            }
          >
            Resend
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={revoke.isPending}
            onClick={() => revoke.mutate(undefined)}
          >
            Revoke
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
