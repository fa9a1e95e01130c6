import {
  Accordion,
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { LIMITS, MSG_DOMAINS, type TOrigin, ZCreateOriginRequest } from '@tlprt/contract';
import { useState } from 'react';
import { refusalToShow } from '../../platform/api/popups';
import { formatDate } from '../../platform/dates';
import { useContractForm } from '../../platform/form';
import { usePolicy } from '../../platform/session/policy';
import { useSession } from '../../platform/session/SessionProvider';
import { openConfirm } from '../../platform/ui/AppModals';
import { IconPlus, IconServer, IconTrash } from '../../platform/ui/icons';
import { EmptyState, LoadFailedAlert, SuspendedBanner } from '../../platform/ui/Page';
import { useCreateOrigin, useDeleteOrigin, useToggleOrigin } from './mutations';
import { useOrigins } from './queries';

/** Origins (spec §2 "Origins (/origins)"): managed with `domains.manage`, listed for every member. */
export function Origins() {
  const { currentTeam } = useSession();
  const team = currentTeam as NonNullable<typeof currentTeam>;
  const policy = usePolicy(team);
  const origins = useOrigins(team.id);
  const toggle = useToggleOrigin(team.id);
  const remove = useDeleteOrigin(team.id);
  const [adding, setAdding] = useState(false);
  const editable = policy.can('domains.manage');
  const askDelete = (o: TOrigin) =>
    openConfirm({
      title: 'Delete origin',
      danger: true,
      onConfirm: () => remove.mutateAsync(o.id),
      children: (
        <Text>
          Delete the origin <b>{o.name}</b> ({o.url})? Players pulling through it stop getting video.
        </Text>
      ),
    });

  return (
    <Stack gap="lg">
      {team.suspended === 1 && <SuspendedBanner />}
      {editable && (
        <Card withBorder p="md">
          {adding ? (
            <AddOriginForm teamId={team.id} onDone={() => setAdding(false)} />
          ) : (
            <Group justify="space-between" gap="sm">
              <Text size="sm" c="dimmed">
                An origin is the CDN host your players pull video through.
              </Text>
              <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
                {MSG_DOMAINS.addOrigin}
              </Button>
            </Group>
          )}
        </Card>
      )}
      {origins.isPending ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading origins">
          <Skeleton h={64} radius="lg" />
          <Skeleton h={64} radius="lg" />
        </Stack>
      ) : !origins.data ? (
        <LoadFailedAlert />
      ) : origins.data.length === 0 ? (
        <EmptyState icon={<IconServer size={28} />} title="No origins yet">
          <Text c="dimmed" size="sm">
            {editable
              ? `Press "${MSG_DOMAINS.addOrigin}" to create the first one.`
              : 'Origins of this team are listed here.'}
          </Text>
        </EmptyState>
      ) : (
        <Accordion
          multiple
          variant="separated"
          radius="lg"
          chevronPosition="left"
          styles={{
            item: {
              background: 'var(--app-surface)',
              border: '1px solid var(--app-border)',
            },
          }}
        >
          {origins.data.map((o) => {
            const active = o.status.id === 10;
            return (
              <Accordion.Item key={o.id} value={String(o.id)}>
                <Group gap={4} wrap="nowrap" pr="sm">
                  <Accordion.Control aria-label={`Origin ${o.url}`} style={{ flex: 1, minWidth: 0 }}>
                    <Group gap="sm" wrap="wrap">
                      <Text fw={600} ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                        {o.url}
                      </Text>
                      {o.suspended === 1 && (
                        <Badge color="red" variant="filled" radius="sm">
                          {MSG_DOMAINS.suspendedLabel}
                        </Badge>
                      )}
                    </Group>
                  </Accordion.Control>
                  <Tooltip label={active ? 'Deactivate origin' : 'Activate origin'}>
                    <Switch
                      aria-label={`Active ${o.url}`}
                      checked={active}
                      color="green"
                      disabled={!editable || (toggle.isPending && toggle.variables === o.id)}
                      onChange={() => toggle.mutate(o.id)}
                    />
                  </Tooltip>
                  {editable && (
                    <Tooltip label="Delete origin">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Delete origin ${o.url}`}
                        onClick={() => askDelete(o)}
                      >
                        <IconTrash />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Group>
                <Accordion.Panel>
                  <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
                    <Field label="Status name" value={o.status.name} />
                    <Field label="Name" value={o.name} />
                    <Field label="Created date" value={formatDate(o.createdAt)} />
                  </SimpleGrid>
                </Accordion.Panel>
              </Accordion.Item>
            );
          })}
        </Accordion>
      )}
    </Stack>
  );
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text size="sm">{value || '—'}</Text>
    </div>
  );
}

/** Name input (required, max 30, spec §5) with Add and Cancel. */
function AddOriginForm({ teamId, onDone }: { teamId: number; onDone: () => void }) {
  const create = useCreateOrigin(teamId);
  const form = useContractForm(ZCreateOriginRequest, { initialValues: { name: '' } });
  const submit = form.onSubmit(({ name }) =>
    create.mutate(name, {
      onSuccess: onDone,
      onError: (err) => {
        if (refusalToShow(err)) form.setFieldError('name', err.fieldErrors.name ?? err.body.message);
      },
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label="Origin name"
          description={MSG_DOMAINS.originNameHelp}
          placeholder="e.g. cdn.example.com"
          {...form.getInputProps('name')}
          maxLength={LIMITS.originNameMax}
          style={{ flex: 1, minWidth: 200 }}
          data-autofocus
          autoFocus
        />
        <Group gap="sm" mt={25}>
          <Button type="submit" loading={create.isPending}>
            {MSG_DOMAINS.addOriginButton}
          </Button>
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
        </Group>
      </Group>
    </form>
  );
}
