import { Badge, Button, Card, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { MSG_TEAMS, roleColor, roleName, type TDeleteInfo } from '@tlprt/contract';
import { showPopup } from '../../platform/api/popups';
import { useSession } from '../../platform/session/SessionProvider';
import { openInfo, openPasswordConfirm } from '../../platform/ui/AppModals';
import { IconAlert, IconTrash } from '../../platform/ui/icons';
import { useDeleteInfo, useDeleteResend, useDeleteRevoke, useRequestDelete } from './mutations';
import { PendingLinkAlert } from './PendingLinkAlert';

const canGoOn = (status: number) => status >= 200 && status < 300;

/** What the check means for the user, shown above the password (spec §4 deletion-check results). */
function consequence(info: TDeleteInfo): string {
  if (info.status === 201) return 'Your own team has no other members: it will be deleted with your account.';
  if (info.status === 202) return 'You will be signed off the teams you belong to.';
  if (info.status === 203) return 'You will be signed off all your teams.';
  return 'Your account and your personal data will be deleted.';
}

/**
 * Delete account (spec §2, §4): check first; blocked → modal listing the blocking teams; allowed →
 * password → e-mail link; deleteProgress shows "Deleting in progress!" with Resend and Revoke.
 */
export function DeleteAccount() {
  const { user } = useSession();
  const check = useDeleteInfo(user.id);
  const request = useRequestDelete(user.id);
  const resend = useDeleteResend(user.id);
  const revoke = useDeleteRevoke(user.id);
  const inProgress = user.deleteProgress === 1;

  const start = () =>
    check.mutate(undefined, {
      onSuccess: (r) => (canGoOn(r.data.status) ? askPassword(r.data) : showBlocked(r.data)),
    });

  const askPassword = (info: TDeleteInfo) =>
    openPasswordConfirm({
      title: 'Delete account',
      onConfirm: async (password) => {
        await request.mutateAsync(password);
        showPopup({ kind: 'notice', title: MSG_TEAMS.linkSent, text: 'Open it to delete your account.' });
      },
      children: <Text size="sm">{consequence(info)}</Text>,
    });

  const showBlocked = (info: TDeleteInfo) => {
    const blocking = info.arrayCannotDelete ?? [];
    openInfo({
      title: MSG_TEAMS.unableDeleteAccountTitle,
      children: (
        <Stack gap="sm">
          <Text>{blocking.length === 1 ? MSG_TEAMS.soleAdminText : MSG_TEAMS.unableDeleteAccountText}</Text>
          {info.status === 400 && info.statusMessage && <Text c="dimmed">{info.statusMessage}</Text>}
          {blocking.length > 0 && (
            <List spacing={6} listStyleType="none" aria-label="Teams blocking the deletion">
              {blocking.map((t) => (
                <List.Item key={t.id}>
                  <Group gap="xs" wrap="nowrap">
                    <Text fw={600}>{t.name || `Team ID ${t.id}`}</Text>
                    <Badge variant="light" color={roleColor(t.role)}>
                      {roleName(t.role)}
                    </Badge>
                  </Group>
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
      ),
    });
  };

  return (
    <Card
      withBorder
      p={{ base: 'md', sm: 'xl' }}
      component="section"
      style={{ borderColor: 'var(--app-danger-border)' }}
    >
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="md">
          <Group gap="md" wrap="nowrap" align="flex-start" style={{ flex: '1 1 320px' }}>
            <ThemeIcon variant="light" color="red" size={40} radius="xl">
              <IconTrash size={20} />
            </ThemeIcon>
            <div>
              <Title order={2} fz="lg">
                Delete account
              </Title>
              <Text size="sm" c="dimmed">
                Deletes your account after you confirm by e-mail. This cannot be undone.
              </Text>
            </div>
          </Group>
          {!inProgress && (
            <Button color="red" variant="light" loading={check.isPending} onClick={start}>
              Delete account
            </Button>
          )}
        </Group>
        {inProgress && (
          <PendingLinkAlert
            title={MSG_TEAMS.deletingInProgress}
            color="red"
            icon={<IconAlert />}
            resend={resend}
            revoke={revoke}
          >
            <Text size="sm">Confirm the deletion with the link we sent to {user.email}.</Text>
          </PendingLinkAlert>
        )}
      </Stack>
    </Card>
  );
}
