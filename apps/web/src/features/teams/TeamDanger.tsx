import { Button, Card, Group, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import {
  MSG,
  MSG_TEAMS,
  mayLeaveByRole,
  mayLeaveTeam,
  roleRow,
  type TTeamDetail,
  ZSuspendRequest,
} from '@tlprt/contract';
import type { ReactNode } from 'react';
import { isApiError } from '../../platform/api/errors';
import { showPopup } from '../../platform/api/popups';
import { useContractForm } from '../../platform/form';
import { usePolicy } from '../../platform/session/policy';
import { useSession } from '../../platform/session/SessionProvider';
import { clearStoredTeam } from '../../platform/session/storage';
import { openAppModal, openInfo, openPasswordConfirm } from '../../platform/ui/AppModals';
import { IconDoorExit, IconMail, IconPause, IconTrash } from '../../platform/ui/icons';
import { cardPadding } from '../../platform/ui/Page';
import { SupportContact } from '../../platform/ui/SupportContact';
import {
  useDeleteCancel,
  useDeleteLock,
  useDeleteResend,
  useLeaveTeam,
  useSuspend,
  useSuspendResend,
  useSuspendRevoke,
} from './mutations';

const linkSent = () => showPopup({ kind: 'notice', title: MSG_TEAMS.linkSent });

function ActionCard({
  icon,
  color = 'red',
  title,
  text,
  children,
}: {
  icon: ReactNode;
  color?: string;
  title: string;
  text: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card withBorder p={cardPadding} component="section">
      <Group justify="space-between" wrap="wrap" gap="md">
        <Group gap="md" wrap="nowrap" align="flex-start" style={{ flex: '1 1 320px' }}>
          <ThemeIcon variant="light" color={color} size={40} radius="xl">
            {icon}
          </ThemeIcon>
          <div>
            <Title order={2} fz="lg">
              {title}
            </Title>
            <Text size="sm" c="dimmed" component="div">
              {text}
            </Text>
          </div>
        </Group>
        <Group gap="sm">{children}</Group>
      </Group>
    </Card>
  );
}

/** Leave team (Admin and Billing master only; spec §6): password, 409 → "Unable to leave the team".
 *  The only member and the sole admin learn it from the team's own figures before any password is
 *  asked (issue 39); the server keeps refusing them whatever the screen shows. */
export function LeaveTeamCard({ team }: { team: TTeamDetail }) {
  const policy = usePolicy(team);
  const { user } = useSession();
  const leave = useLeaveTeam(team.id);
  if (!policy.ctx || !mayLeaveByRole(policy.ctx)) return null;
  const me = team.users.find((u) => u.id === user.id && u.invite_status === 0);
  const blocked = !mayLeaveTeam(roleRow(me?.roles)?.id ?? null, team.members, team.countAdmin);
  const unable = () => openInfo({ title: MSG_TEAMS.unableLeaveTitle, children: MSG_TEAMS.unableLeaveText });
  const open = () =>
    openPasswordConfirm({
      title: 'Leave team',
      onConfirm: async (password) => {
        await leave.mutateAsync(password);
        clearStoredTeam();
      },
      onFailure: (e) => {
        if (isApiError(e) && e.status === 409) unable();
      },
      children: (
        <Text size="sm">Enter your password to leave “{team.name || MSG.teamIdLabel(team.id)}”.</Text>
      ),
    });
  return (
    <ActionCard
      icon={<IconDoorExit size={20} />}
      color="orange"
      title="Leave team"
      text={
        blocked
          ? MSG_TEAMS.unableLeaveText
          : 'You will lose access to this team. An admin can invite you again.'
      }
    >
      <Button
        color="red"
        variant="light"
        disabled={!policy.can('team.leave')}
        onClick={blocked ? unable : open}
      >
        Leave team
      </Button>
    </ActionCard>
  );
}

/** Delete team (Admins, and anyone during deletion): password → mail; while statusId 30 resend or cancel. */
export function DeleteTeamCard({ team }: { team: TTeamDetail }) {
  const policy = usePolicy(team);
  const lock = useDeleteLock(team.id);
  const resend = useDeleteResend(team.id);
  const cancel = useDeleteCancel(team.id);
  const deleting = team.statusId === 30;
  const open = () =>
    openPasswordConfirm({
      title: 'Delete team',
      onConfirm: async (password) => {
        await lock.mutateAsync(password);
        linkSent();
      },
      onFailure: (e) => {
        if (isApiError(e) && (e.status === 402 || e.status === 409))
          openInfo({
            title: MSG_TEAMS.unableDeleteTeamTitle,
            children: (
              <Stack gap="xs">
                <Text>{MSG_TEAMS.unableDeleteTeamText}</Text>
                <SupportContact />
              </Stack>
            ),
          });
      },
      children: (
        <Text size="sm">
          We will e-mail you a link to confirm the deletion of “{team.name || MSG.teamIdLabel(team.id)}”.
        </Text>
      ),
    });
  return (
    <ActionCard
      icon={<IconTrash size={20} />}
      title={deleting ? 'Team deletion requested' : 'Delete team'}
      text={
        deleting
          ? 'Confirm the deletion with the link we sent by e-mail, or cancel it. Until then the services stay active.'
          : 'The team, its domains and keys are deleted for every member. This cannot be undone.'
      }
    >
      {deleting ? (
        policy.can('team.deleteManage') && (
          <>
            <Button
              variant="default"
              loading={resend.isPending}
              onClick={() => resend.mutate(undefined, { onSuccess: linkSent })}
            >
              Resend
            </Button>
            <Button variant="light" color="red" loading={cancel.isPending} onClick={() => cancel.mutate()}>
              Cancel deletion
            </Button>
          </>
        )
      ) : (
        <Button color="red" disabled={!policy.can('team.deleteLock')} onClick={open}>
          Delete team
        </Button>
      )}
    </ActionCard>
  );
}

/** Suspend or unsuspend (supervisor): the typed text must equal the team name (spec §5). */
export function SuspendTeamCard({ team }: { team: TTeamDetail }) {
  const policy = usePolicy(team);
  const suspend = useSuspend(team.id);
  const resend = useSuspendResend(team.id);
  const revoke = useSuspendRevoke(team.id);
  const suspended = team.suspended === 1;
  const pending = !suspended && team.suspendedProcess === 1;
  const allowed = policy.can('team.suspend');
  const open = () =>
    openAppModal({
      title: suspended ? 'Unsuspend team' : 'Suspend team',
      render: (close) => (
        <SuspendForm
          onClose={close}
          teamName={team.name}
          unsuspend={suspended}
          onConfirm={async (name) => {
            await suspend.mutateAsync(name);
            if (!suspended)
              openInfo({
                title: 'Team suspension in progress',
                children: (
                  <Stack gap="xs">
                    <Text>{MSG_TEAMS.suspensionPending}</Text>
                    <Text c="dimmed" size="sm">
                      {MSG_TEAMS.linkSent}
                    </Text>
                  </Stack>
                ),
              });
          }}
        />
      ),
    });
  return (
    <ActionCard
      icon={<IconPause size={20} />}
      color={suspended ? 'teal' : 'orange'}
      title={suspended ? 'Unsuspend team' : pending ? 'Team suspension in progress' : 'Suspend team'}
      text={
        suspended
          ? 'The team is suspended: its domains and keys are off and it is view-only.'
          : pending
            ? MSG_TEAMS.suspensionPending
            : 'Turns the service off for every domain and key of this team. Confirmed by e-mail.'
      }
    >
      {pending ? (
        <>
          <Button
            variant="default"
            disabled={!allowed}
            loading={resend.isPending}
            onClick={() => resend.mutate(undefined, { onSuccess: linkSent })}
          >
            Resend
          </Button>
          <Button
            variant="light"
            color="red"
            disabled={!allowed}
            loading={revoke.isPending}
            onClick={() => revoke.mutate()}
          >
            Revoke
          </Button>
        </>
      ) : (
        <Button color={suspended ? 'teal' : 'red'} disabled={!allowed} onClick={open}>
          {suspended ? 'Unsuspend team' : 'Suspend team'}
        </Button>
      )}
    </ActionCard>
  );
}

function SuspendForm({
  onClose,
  teamName,
  unsuspend,
  onConfirm,
}: {
  onClose: () => void;
  teamName: string;
  unsuspend: boolean;
  onConfirm: (name: string) => Promise<void>;
}) {
  // Spec §5: the typed text must equal the team name (an unnamed team takes anything).
  const schema = ZSuspendRequest.pick({ name: true }).refine(
    (v) => teamName.trim() === '' || v.name === teamName.trim(),
    { path: ['name'], message: MSG.incorrectTeamName },
  );
  const form = useContractForm(schema, { initialValues: { name: '' } });
  const confirm = useMutation({
    mutationFn: onConfirm,
    onSuccess: onClose,
    onError: (err) => {
      if (isApiError(err) && err.status === 400)
        form.setFieldError('name', err.fieldErrors.name ?? err.body.message);
      else onClose();
    },
  });
  return (
    <form onSubmit={form.onSubmit(({ name }) => confirm.mutate(name))} noValidate>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" color="orange" radius="xl">
            <IconMail size={16} />
          </ThemeIcon>
          <Text size="sm">
            {unsuspend
              ? 'The team becomes active again at once.'
              : 'We will e-mail you a link to confirm the suspension.'}{' '}
            Type the team name <b>{teamName || '(no name)'}</b> to confirm.
          </Text>
        </Group>
        <TextInput label="Team name" {...form.getInputProps('name')} autoComplete="off" data-autofocus />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" color={unsuspend ? 'teal' : 'red'} loading={confirm.isPending}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
