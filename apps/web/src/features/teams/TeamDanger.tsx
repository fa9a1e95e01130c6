import { Button, Card, Group, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { MSG, MSG_TEAMS, mayLeaveByRole, type TTeamDetail } from '@tlprt/contract';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { isApiError } from '../../api/errors';
import { showPopup } from '../../api/popups';
import { AppModal } from '../../components/AppModal';
import { InfoModal } from '../../components/ConfirmModal';
import { IconDoorExit, IconMail, IconPause, IconTrash } from '../../components/icons';
import { PasswordConfirmModal } from '../../components/PasswordConfirmModal';
import { SupportContact } from '../../components/SupportContact';
import { clearStoredTeam } from '../session/storage';
import {
  useDeleteCancel,
  useDeleteLock,
  useDeleteResend,
  useLeaveTeam,
  useSuspend,
  useSuspendResend,
  useSuspendRevoke,
} from './mutations';
import { usePolicy } from './policy';
import { cardPadding } from './TeamSettings';

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

/** Leave team (Admin and Billing master only; spec §6): password, 409 → "Unable to leave the team". */
export function LeaveTeamCard({ team }: { team: TTeamDetail }) {
  const policy = usePolicy(team);
  const leave = useLeaveTeam(team.id);
  const [open, setOpen] = useState(false);
  const [unable, setUnable] = useState(false);
  if (!policy.ctx || !mayLeaveByRole(policy.ctx)) return null;
  return (
    <ActionCard
      icon={<IconDoorExit size={20} />}
      color="orange"
      title="Leave team"
      text="You will lose access to this team. An admin can invite you again."
    >
      <Button color="red" variant="light" disabled={!policy.can('team.leave')} onClick={() => setOpen(true)}>
        Leave team
      </Button>
      <PasswordConfirmModal
        opened={open}
        onClose={() => setOpen(false)}
        title="Leave team"
        onConfirm={async (password) => {
          await leave.mutateAsync(password);
          clearStoredTeam();
        }}
        onFailure={(e) => {
          if (isApiError(e) && e.status === 409) setUnable(true);
        }}
      >
        <Text size="sm">Enter your password to leave “{team.name || MSG.teamIdLabel(team.id)}”.</Text>
      </PasswordConfirmModal>
      <InfoModal opened={unable} onClose={() => setUnable(false)} title={MSG_TEAMS.unableLeaveTitle}>
        {MSG_TEAMS.unableLeaveText}
      </InfoModal>
    </ActionCard>
  );
}

/** Delete team (Admins, and anyone during deletion): password → mail; while statusId 30 resend or cancel. */
export function DeleteTeamCard({ team }: { team: TTeamDetail }) {
  const policy = usePolicy(team);
  const lock = useDeleteLock(team.id);
  const resend = useDeleteResend(team.id);
  const cancel = useDeleteCancel(team.id);
  const [open, setOpen] = useState(false);
  const [unable, setUnable] = useState(false);
  const deleting = team.statusId === 30;
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
        <Button color="red" disabled={!policy.can('team.deleteLock')} onClick={() => setOpen(true)}>
          Delete team
        </Button>
      )}
      <PasswordConfirmModal
        opened={open}
        onClose={() => setOpen(false)}
        title="Delete team"
        onConfirm={async (password) => {
          await lock.mutateAsync(password);
          linkSent();
        }}
        onFailure={(e) => {
          if (isApiError(e) && (e.status === 402 || e.status === 409)) setUnable(true);
        }}
      >
        <Text size="sm">
          We will e-mail you a link to confirm the deletion of “{team.name || MSG.teamIdLabel(team.id)}”.
        </Text>
      </PasswordConfirmModal>
      <InfoModal opened={unable} onClose={() => setUnable(false)} title={MSG_TEAMS.unableDeleteTeamTitle}>
        <Stack gap="xs">
          <Text>{MSG_TEAMS.unableDeleteTeamText}</Text>
          <SupportContact />
        </Stack>
      </InfoModal>
    </ActionCard>
  );
}

/** Suspend or unsuspend (supervisor): the typed text must equal the team name (spec §5). */
export function SuspendTeamCard({ team }: { team: TTeamDetail }) {
  const policy = usePolicy(team);
  const suspend = useSuspend(team.id);
  const resend = useSuspendResend(team.id);
  const revoke = useSuspendRevoke(team.id);
  const [open, setOpen] = useState(false);
  const [inProgress, setInProgress] = useState(false);
  const suspended = team.suspended === 1;
  const pending = !suspended && team.suspendedProcess === 1;
  const allowed = policy.can('team.suspend');
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
        <Button color={suspended ? 'teal' : 'red'} disabled={!allowed} onClick={() => setOpen(true)}>
          {suspended ? 'Unsuspend team' : 'Suspend team'}
        </Button>
      )}
      <SuspendModal
        opened={open}
        onClose={() => setOpen(false)}
        teamName={team.name}
        unsuspend={suspended}
        onConfirm={async (name) => {
          await suspend.mutateAsync(name);
          if (!suspended) setInProgress(true);
        }}
      />
      <InfoModal opened={inProgress} onClose={() => setInProgress(false)} title="Team suspension in progress">
        <Stack gap="xs">
          <Text>{MSG_TEAMS.suspensionPending}</Text>
          <Text c="dimmed" size="sm">
            {MSG_TEAMS.linkSent}
          </Text>
        </Stack>
      </InfoModal>
    </ActionCard>
  );
}

function SuspendModal({
  opened,
  onClose,
  teamName,
  unsuspend,
  onConfirm,
}: {
  opened: boolean;
  onClose: () => void;
  teamName: string;
  unsuspend: boolean;
  onConfirm: (name: string) => Promise<void>;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!opened) {
      setValue('');
      setError(null);
      setBusy(false);
    }
  }, [opened]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const typed = value.trim();
    if (teamName.trim() !== '' && typed !== teamName.trim()) {
      setError(MSG.incorrectTeamName);
      return;
    }
    setBusy(true);
    try {
      await onConfirm(typed);
      onClose();
    } catch (err) {
      setBusy(false);
      if (isApiError(err) && err.status === 400) setError(err.fieldErrors.name ?? err.body.message);
      else onClose();
    }
  };
  return (
    <AppModal opened={opened} onClose={onClose} title={unsuspend ? 'Unsuspend team' : 'Suspend team'}>
      <form onSubmit={submit} noValidate>
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
          <TextInput
            label="Team name"
            value={value}
            onChange={(e) => {
              setValue(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            autoComplete="off"
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color={unsuspend ? 'teal' : 'red'} loading={busy}>
              Confirm
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
