import { Alert, Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { LIMITS, MSG_ALERTS, type TAlertRule, type TAlertSaved, type TTeamSummary } from '@tlprt/contract';
import { useState } from 'react';
import { usePolicy } from '../../platform/session/policy';
import { openConfirm } from '../../platform/ui/AppModals';
import { CopyBlock } from '../../platform/ui/CopyBlock';
import { IconAlert, IconBell, IconPlus } from '../../platform/ui/icons';
import { ListState } from '../../platform/ui/ListState';
import { EmptyState, PageTitle, SuspendedBanner } from '../../platform/ui/Page';
import { AlertCard, type TestResult } from './AlertCard';
import { AlertFormModal } from './AlertForm';
import { useTeamKeys } from './keys';
import { useDeleteAlert, useRotateSecret, useTestAlert } from './mutations';
import { useAlerts } from './queries';

/** The form's state: closed, a new rule, or the rule being edited. */
type Editing = { rule: TAlertRule | null } | null;

/**
 * The Alerts screen (docs/DESIGN.md §13): the team's rules with their state, for every member; creating,
 * editing, testing, rotating and deleting where the contract's policy allows it.
 */
export function AlertsScreen({ team }: { team: TTeamSummary }) {
  const policy = usePolicy(team);
  const manage = policy.can('alerts.manage');
  const mayDelete = policy.can('alerts.delete');
  const alerts = useAlerts(team.id);
  const keys = useTeamKeys(team.id);
  const remove = useDeleteAlert(team.id);
  const rotate = useRotateSecret(team.id);
  const test = useTestAlert(team.id);
  const [editing, setEditing] = useState<Editing>(null);
  // The secret lives in the screen's state, not the modals manager's, which a live event empties: the
  // creation itself sends one (110) and the secret is never shown again.
  const [secret, setSecret] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<number, TestResult>>({});
  const full = (alerts.data?.length ?? 0) >= LIMITS.alertsPerTeam;

  const saved = (s: TAlertSaved) => {
    setEditing(null);
    if (s.webhookSecret) setSecret(s.webhookSecret);
  };
  const askDelete = (r: TAlertRule) =>
    openConfirm({
      title: MSG_ALERTS.deleteTitle,
      danger: true,
      confirmLabel: MSG_ALERTS.delete,
      onConfirm: () => remove.mutateAsync(r.id),
      children: <Text>{MSG_ALERTS.deleteText(r.name)}</Text>,
    });
  const askRotate = (r: TAlertRule) =>
    openConfirm({
      title: MSG_ALERTS.rotateTitle,
      confirmLabel: MSG_ALERTS.rotateSecret,
      onConfirm: () => rotate.mutateAsync(r.id).then((a) => setSecret(a.data.webhookSecret)),
      children: <Text>{MSG_ALERTS.rotateText}</Text>,
    });
  const sendTest = (r: TAlertRule) =>
    test.mutate(r.id, {
      onSuccess: ({ data }) =>
        setTests((t) => ({ ...t, [r.id]: { delivered: data.state === 'delivered', delivery: data } })),
    });
  const create = manage && !full && (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ rule: null })}>
      {MSG_ALERTS.create}
    </Button>
  );

  return (
    <>
      <PageTitle
        title={MSG_ALERTS.title}
        description={MSG_ALERTS.intro}
        actions={
          alerts.data &&
          alerts.data.length > 0 && (
            <Group gap="sm">
              <Badge variant="light" color="gray">
                {MSG_ALERTS.count(alerts.data.length, LIMITS.alertsPerTeam)}
              </Badge>
              {create}
            </Group>
          )
        }
      />
      <Stack gap="md">
        {team.suspended === 1 && <SuspendedBanner />}
        {manage && full && (
          <Text size="sm" c="dimmed">
            {MSG_ALERTS.limitReached}
          </Text>
        )}
        <ListState
          query={alerts}
          loading={{ label: MSG_ALERTS.loading, height: 150, radius: 'md', gap: 'md' }}
          failed={
            <Alert color="red" variant="light" icon={<IconAlert />} title={MSG_ALERTS.loadFailed}>
              <Button
                mt="xs"
                size="xs"
                variant="light"
                color="red"
                loading={alerts.isFetching}
                onClick={() => void alerts.refetch()}
              >
                {MSG_ALERTS.retry}
              </Button>
            </Alert>
          }
          empty={
            <EmptyState icon={<IconBell size={28} />} title={MSG_ALERTS.empty}>
              <Text c="dimmed" size="sm">
                {MSG_ALERTS.emptyHint}
              </Text>
              {create}
            </EmptyState>
          }
        >
          {(rules) =>
            rules.map((r) => (
              <AlertCard
                key={r.id}
                teamId={team.id}
                rule={r}
                keyName={keys.nameOf}
                test={tests[r.id] ?? null}
                actions={{
                  onEdit: manage ? () => setEditing({ rule: r }) : undefined,
                  onDelete: mayDelete ? () => askDelete(r) : undefined,
                  onTest: manage && r.webhookUrl ? () => sendTest(r) : undefined,
                  onRotate: manage && r.webhookUrl ? () => askRotate(r) : undefined,
                  testing: test.isPending && test.variables === r.id,
                }}
              />
            ))
          }
        </ListState>
      </Stack>
      <AlertFormModal
        teamId={team.id}
        rule={editing?.rule ?? null}
        opened={editing !== null}
        keyGroups={keys.groups}
        onClose={() => setEditing(null)}
        onSaved={saved}
      />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}

/** The one time a signing secret is shown: closed only by Done, Escape or its close button. */
function SecretModal({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  return (
    <Modal
      opened={secret !== null}
      onClose={onClose}
      title={MSG_ALERTS.secretTitle}
      size="lg"
      closeOnClickOutside={false}
    >
      {secret && (
        <Stack gap="md">
          <Alert color="orange" variant="light" icon={<IconAlert />}>
            {MSG_ALERTS.secretShownOnce}
          </Alert>
          <CopyBlock label={MSG_ALERTS.secretTitle} value={secret} />
          <Group justify="flex-end">
            <Button onClick={onClose} miw={100} data-autofocus>
              {MSG_ALERTS.done}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
