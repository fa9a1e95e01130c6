import { Button, Card, Group, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { linkBases, MSG_TEAMS, ZChangeEmailRequest } from '@tlprt/contract';
import { showPopup } from '../../platform/api/popups';
import { formError, showApiError, useContractForm } from '../../platform/form';
import { useSession } from '../../platform/session/SessionProvider';
import { FormError } from '../../platform/ui/FormError';
import { IconMail } from '../../platform/ui/icons';
import { useChangeEmail, useChangeEmailResend, useChangeEmailRevoke } from './mutations';
import { PendingLinkAlert } from './PendingLinkAlert';

const FIELDS = ['email', 'password'] as const;

/** Change e-mail (spec §2, §4, §5): new e-mail + current password; statusChangeEmail 10 = pending. */
export function ChangeEmail({ locked, lockedReason }: { locked: boolean; lockedReason?: string }) {
  const { user, currentTeam } = useSession();
  const change = useChangeEmail(user.id);
  const resend = useChangeEmailResend(user.id);
  const revoke = useChangeEmailRevoke(user.id);
  const form = useContractForm(ZChangeEmailRequest, {
    initialValues: { email: '', password: '' },
    toInput: (v) => ({
      email: v.email.trim(),
      password: v.password,
      url: linkBases(window.location.origin).changeEmail,
    }),
  });
  const pending = user.statusChangeEmail === 10;

  const submit = form.onSubmit(({ email, password }) =>
    change.mutate(
      { team_id: currentTeam?.id, email, password },
      {
        onSuccess: () => {
          form.reset();
          showPopup({ kind: 'notice', title: MSG_TEAMS.linkSent });
        },
        onError: (error) => showApiError(form, error, FIELDS),
      },
    ),
  );

  return (
    <Card withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="email-title">
      <Stack gap="md">
        <div>
          <Title order={2} fz="lg" id="email-title">
            Change e-mail
          </Title>
          <Text size="sm" c="dimmed">
            {lockedReason ??
              `Current e-mail: ${user.email}. We will send a confirmation link to the new address.`}
          </Text>
        </div>
        {pending ? (
          <PendingLinkAlert
            title="Change requested"
            color="blue"
            icon={<IconMail />}
            resend={resend}
            revoke={revoke}
          >
            <Text size="sm">
              Confirm the change with the link sent to <b>{user.newChangeEmail}</b>.
            </Text>
          </PendingLinkAlert>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                <TextInput
                  label="New e-mail"
                  type="email"
                  autoComplete="email"
                  {...form.getInputProps('email')}
                  disabled={locked}
                />
                <PasswordInput
                  label="Current password"
                  autoComplete="current-password"
                  {...form.getInputProps('password')}
                  disabled={locked}
                  visibilityToggleButtonProps={{ 'aria-label': 'Toggle visibility' }}
                />
              </SimpleGrid>
              <FormError message={formError(form)} />
              <Group justify="flex-end">
                <Button type="submit" loading={change.isPending} disabled={locked}>
                  Change e-mail
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Card>
  );
}
