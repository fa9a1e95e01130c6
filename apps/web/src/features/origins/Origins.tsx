import {
  Accordion,
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  LIMITS,
  MSG_DOMAIN_RULES,
  MSG_DOMAINS,
  type TOrigin,
  type TOriginVerification,
  ZCreateOriginRequest,
} from '@tlprt/contract';
import { useState } from 'react';
import { refusalToShow } from '../../platform/api/popups';
import { formatDate } from '../../platform/dates';
import { useContractForm } from '../../platform/form';
import { usePolicy } from '../../platform/session/policy';
import { useSession } from '../../platform/session/SessionProvider';
import { openConfirm } from '../../platform/ui/AppModals';
import { CopyBlock } from '../../platform/ui/CopyBlock';
import { IconAlert, IconCircleCheck, IconPlus, IconServer, IconTrash } from '../../platform/ui/icons';
import { ListState } from '../../platform/ui/ListState';
import { EmptyState, SuspendedBanner } from '../../platform/ui/Page';
import { VerifyButton } from '../../platform/ui/VerifyButton';
import { useCreateOrigin, useDeleteOrigin, useToggleOrigin, useVerifyOrigin } from './mutations';
import { useOrigins } from './queries';

/** The last Verify of an origin on this screen: kept per origin, so the answer outlives the list's
 *  refetch (a verified origin's panel shows the success, a refused one the server's message). */
type VerifyState = { status: 'verifying' } | { status: 'success' } | { status: 'error'; message: string };

/** The header badge of each state; an origin whose name is not a host gets none. */
const VERIFICATION_BADGE: Record<TOriginVerification, { label: string; color: string } | null> = {
  verified: { label: 'Verified', color: 'teal' },
  domain: { label: 'Verified domain', color: 'teal' },
  unverified: { label: 'Not verified', color: 'orange' },
  notHost: null,
};

/** Origins (spec §2 "Origins (/origins)"): managed with `domains.manage`, listed for every member. */
export function Origins() {
  const { currentTeam } = useSession();
  const team = currentTeam as NonNullable<typeof currentTeam>;
  const policy = usePolicy(team);
  const origins = useOrigins(team.id);
  const toggle = useToggleOrigin(team.id);
  const remove = useDeleteOrigin(team.id);
  const [adding, setAdding] = useState(false);
  const [verifyStates, setVerifyStates] = useState<Record<number, VerifyState>>({});
  const setVerify = (id: number, state: VerifyState | null) =>
    setVerifyStates(({ [id]: _, ...rest }) => (state ? { ...rest, [id]: state } : rest));
  const editable = policy.can('domains.manage');
  const askDelete = (o: TOrigin) =>
    openConfirm({
      title: 'Delete origin',
      danger: true,
      onConfirm: () => remove.mutateAsync(o.id),
      children: (
        <Text>
          Delete the origin <b>{o.name}</b>? The P2P integrity check stops reading segments from it.
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
                An origin is the CDN host your players load video segments from.
              </Text>
              <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
                {MSG_DOMAINS.addOrigin}
              </Button>
            </Group>
          )}
        </Card>
      )}
      <ListState
        query={origins}
        loading={{ label: 'Loading origins', height: 64, radius: 'lg', gap: 'sm' }}
        empty={
          <EmptyState icon={<IconServer size={28} />} title="No origins yet">
            <Text c="dimmed" size="sm">
              {editable
                ? `Press "${MSG_DOMAINS.addOrigin}" to create the first one.`
                : 'Origins of this team are listed here.'}
            </Text>
          </EmptyState>
        }
      >
        {(list) => (
          <Stack gap={6}>
            {/* Column headings of the rows below; each control carries its own accessible name. */}
            <Group justify="space-between" px="md" visibleFrom="xs" aria-hidden wrap="nowrap">
              <Text size="xs" c="dimmed" fw={600} tt="uppercase" pl={28} style={{ letterSpacing: '0.04em' }}>
                Origin host · integrity check
              </Text>
              <Text size="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: '0.04em' }}>
                {editable ? 'Active · Delete' : 'Active'}
              </Text>
            </Group>
            <Accordion
              multiple
              // What still needs doing is open from the start for whoever may do it.
              defaultValue={
                editable ? list.filter((o) => o.verification === 'unverified').map((o) => String(o.id)) : []
              }
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
              {list.map((o) => {
                const active = o.status.id === 10;
                const badge = VERIFICATION_BADGE[o.verification];
                return (
                  <Accordion.Item key={o.id} value={String(o.id)}>
                    <Group gap={4} wrap="nowrap" pr="sm">
                      <Accordion.Control aria-label={`Origin ${o.name}`} style={{ flex: 1, minWidth: 0 }}>
                        <Group gap="sm" wrap="wrap">
                          {/* What the customer typed: their own host, not the generated reference. */}
                          <Text fw={600} ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                            {o.name}
                          </Text>
                          {badge && (
                            <Badge color={badge.color} variant="light" radius="sm">
                              {badge.label}
                            </Badge>
                          )}
                          {o.suspended === 1 && (
                            <Badge color="red" variant="filled" radius="sm">
                              {MSG_DOMAINS.suspendedLabel}
                            </Badge>
                          )}
                        </Group>
                      </Accordion.Control>
                      <Tooltip label={active ? 'Deactivate origin' : 'Activate origin'}>
                        <Switch
                          aria-label={`Active ${o.name}`}
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
                            aria-label={`Delete origin ${o.name}`}
                            onClick={() => askDelete(o)}
                          >
                            <IconTrash />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Group>
                    <Accordion.Panel>
                      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
                        <Field label="Status" value={o.status.name} />
                        <Field label="Added on" value={formatDate(o.createdAt)} />
                        <Field
                          label="Service reference"
                          value={o.url}
                          mono
                          help="Generated by this service to identify the origin (quote it to support). Your players keep loading from your own host."
                        />
                      </SimpleGrid>
                      <OriginVerification
                        origin={o}
                        teamId={team.id}
                        editable={editable}
                        state={verifyStates[o.id] ?? null}
                        setState={(state) => setVerify(o.id, state)}
                      />
                    </Accordion.Panel>
                  </Accordion.Item>
                );
              })}
            </Accordion>
          </Stack>
        )}
      </ListState>
    </Stack>
  );
}

/** The verification part of an origin's panel (issue 36): what the integrity service makes of its host
 *  and, while it is not verified, the file to serve and the Verify button. */
function OriginVerification({
  origin: o,
  teamId,
  editable,
  state,
  setState,
}: {
  origin: TOrigin;
  teamId: number;
  editable: boolean;
  state: VerifyState | null;
  setState: (state: VerifyState | null) => void;
}) {
  const verify = useVerifyOrigin(teamId);
  const run = () => {
    setState({ status: 'verifying' });
    // mutateAsync: the answer lands even when the panel was closed meanwhile.
    verify
      .mutateAsync(o.id)
      .then(() => setState({ status: 'success' }))
      .catch((err: unknown) =>
        setState(refusalToShow(err) ? { status: 'error', message: err.body.message } : null),
      );
  };
  const verifying = state?.status === 'verifying';
  const success = state?.status === 'success' && (
    <Alert color="teal" variant="light" icon={<IconCircleCheck />}>
      {MSG_DOMAIN_RULES.originVerified}
    </Alert>
  );

  if (o.verification === 'notHost')
    return (
      <Text size="sm" c="dimmed" mt="md">
        Its name is not a host name: the P2P integrity check fetches nothing from this origin.
      </Text>
    );
  if (o.verification === 'domain')
    return (
      <Group gap="xs" mt="md" wrap="nowrap" align="flex-start">
        <IconCircleCheck
          size={18}
          color="var(--mantine-color-teal-6)"
          style={{ flexShrink: 0 }}
          aria-hidden
        />
        <Text size="sm">{MSG_DOMAINS.originDomainNote}</Text>
      </Group>
    );
  if (o.verification === 'verified')
    return (
      <Stack gap="sm" mt="md">
        {success}
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconCircleCheck
            size={18}
            color="var(--mantine-color-teal-6)"
            style={{ flexShrink: 0 }}
            aria-hidden
          />
          <Text size="sm">
            Verified{o.verifiedAt ? ` on ${formatDate(o.verifiedAt)}` : ''}: the P2P integrity check reads
            segments from {o.host}.
          </Text>
        </Group>
      </Stack>
    );

  const file = o.verificationFile;
  return (
    <Stack gap="sm" mt="md" component="section" aria-label={`Verification of ${o.name}`}>
      <Alert color="orange" variant="light" icon={<IconAlert />}>
        {MSG_DOMAINS.originUnverifiedNote}
      </Alert>
      {!editable ? (
        <Text size="sm" c="dimmed">
          A member who manages domains can verify it.
        </Text>
      ) : file ? (
        <>
          <Text size="sm">
            {MSG_DOMAINS.originVerifyHelp}{' '}
            <Text span ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
              {file.url}
            </Text>
            , then press Verify:
          </Text>
          <CopyBlock label="File path" value={file.path} />
          <CopyBlock label="File content" value={file.content} />
          {state?.status === 'error' ? (
            <Alert color="red" variant="light" icon={<IconAlert />}>
              <Stack gap="xs" align="flex-start">
                <Text size="sm" style={{ wordBreak: 'break-word' }}>
                  {state.message}
                </Text>
                <Button size="xs" variant="light" color="red" onClick={() => setState(null)}>
                  {MSG_DOMAINS.tryAgain}
                </Button>
              </Stack>
            </Alert>
          ) : (
            <VerifyButton
              onClick={run}
              verifying={verifying}
              disabled={o.suspended === 1}
              host={o.host ?? o.name}
              aria-label={`Verify ${o.name}`}
            />
          )}
        </>
      ) : null}
    </Stack>
  );
}

function Field({
  label,
  value,
  mono,
  help,
}: {
  label: string;
  value: string;
  mono?: boolean;
  help?: string;
}) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text size="sm" ff={mono ? 'monospace' : undefined} style={{ wordBreak: 'break-all' }}>
        {value || '—'}
      </Text>
      {help && (
        <Text size="xs" c="dimmed">
          {help}
        </Text>
      )}
    </div>
  );
}

/** Name input (required, max 30, spec §5) with Add and Cancel: the contract's host rule refuses a URL,
 *  a path or a single word before sending, the server a host the team has already (409). */
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
          label="Origin host"
          description={MSG_DOMAINS.originNameHelp}
          placeholder="e.g. cdn.example.com"
          {...form.getInputProps('name')}
          maxLength={LIMITS.originNameMax}
          style={{ flex: 1, minWidth: 200 }}
          data-autofocus
          autoFocus
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          inputMode="url"
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
