import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Code,
  Group,
  Radio,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  BREAKDOWN_DIMENSIONS,
  LIMITS,
  MSG_HASHES,
  MSG_TOKENS,
  PLAYER_PATHS,
  type TCreatedTeamToken,
  TEAM_TOKEN_SCOPES,
  type TTeamDetail,
  type TTeamToken,
  type TTeamTokenScope,
  ZCreateTeamTokenRequest,
} from '@tlprt/contract';
import { formatDate, formatDateTime } from '../../platform/dates';
import { formError, showApiError, useContractForm } from '../../platform/form';
import { STATS_EXPORT, statsExportCurl } from '../../platform/integration/export-example';
import { hashPushCurl } from '../../platform/integration/hashes-example';
import {
  exportUsage,
  INGEST_PATH,
  SCOPE_BADGE,
  SCOPE_CHOICE,
  SCOPE_LABEL,
} from '../../platform/integration/scopes';
import { usePolicy } from '../../platform/session/policy';
import { openAppModal, openConfirm } from '../../platform/ui/AppModals';
import { CopyBlock } from '../../platform/ui/CopyBlock';
import { FormError } from '../../platform/ui/FormError';
import { IconAlert, IconKey, IconPlus } from '../../platform/ui/icons';
import { ListState } from '../../platform/ui/ListState';
import { cardPadding } from '../../platform/ui/Page';
import { useCreateTeamToken, useRevokeTeamToken } from './mutations';
import { useTeamTokens } from './queries';

/**
 * API tokens of the team (Team settings; not in the spec): server-side reporters send statistics with
 * them. Shown to those the contract's `tokens.read` lets in (Admins, Billing masters, supervisors); creating and revoking
 * follow `tokens.create` / `tokens.revoke` (a suspended team is view-only).
 */
export function TeamTokensCard({ team }: { team: TTeamDetail }) {
  const policy = usePolicy(team);
  const tokens = useTeamTokens(team.id);
  const revoke = useRevokeTeamToken(team.id);
  const mayRevoke = policy.can('tokens.revoke');
  const full = (tokens.data?.length ?? 0) >= LIMITS.teamTokensPerTeam;
  const askRevoke = (t: TTeamToken) =>
    openConfirm({
      title: MSG_TOKENS.revokeTitle,
      danger: true,
      confirmLabel: MSG_TOKENS.revoke,
      onConfirm: () => revoke.mutateAsync(t.id),
      children: <Text>{MSG_TOKENS.revokeText(t.name)}</Text>,
    });

  return (
    <Card withBorder p={cardPadding} component="section" aria-labelledby="tokens-title">
      <Stack gap="md">
        <div>
          <Group gap="xs" wrap="nowrap">
            <Title order={2} fz="lg" id="tokens-title">
              {MSG_TOKENS.title}
            </Title>
            {tokens.data && (
              <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                {tokens.data.length} of {LIMITS.teamTokensPerTeam}
              </Badge>
            )}
          </Group>
          <Text size="sm" fw={500} mt={4}>
            {MSG_TOKENS.purpose}
          </Text>
          <Text size="sm" c="dimmed">
            {MSG_TOKENS.intro} A token of scope “{SCOPE_CHOICE.statistics.label}” lets a program read the
            team's statistics instead; one of scope “{SCOPE_CHOICE.hashes.label}” lets your packager publish
            its segments' hashes.
          </Text>
        </div>
        <ListState
          query={tokens}
          loading={{ label: `Loading ${MSG_TOKENS.title}`, height: 44, radius: 'md', gap: 'xs' }}
          empty={
            <Text
              size="sm"
              c="dimmed"
              ta="center"
              py="md"
              style={{ border: '1px dashed var(--app-border)', borderRadius: 8 }}
            >
              {MSG_TOKENS.empty}
            </Text>
          }
        >
          {(list) => (
            <Stack
              gap={0}
              component="ul"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
              aria-label={MSG_TOKENS.title}
            >
              {list.map((t, i) => (
                <TokenRow
                  key={t.id}
                  token={t}
                  first={i === 0}
                  onRevoke={mayRevoke ? () => askRevoke(t) : undefined}
                />
              ))}
            </Stack>
          )}
        </ListState>
        <CreateTokenForm teamId={team.id} disabled={!policy.can('tokens.create')} full={full} />
      </Stack>
    </Card>
  );
}

function TokenRow({ token, first, onRevoke }: { token: TTeamToken; first: boolean; onRevoke?: () => void }) {
  return (
    <Box component="li" py="sm" style={first ? undefined : { borderTop: '1px solid var(--app-border)' }}>
      {/* One line on every width: the button stays beside its token, the text wraps instead. */}
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <ThemeIcon variant="light" size={38} radius="xl" aria-hidden="true" visibleFrom="xs">
            <IconKey size={18} />
          </ThemeIcon>
          <Box miw={0}>
            <Group gap={6} wrap="wrap" style={{ rowGap: 2 }}>
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {token.name}
              </Text>
              <Badge size="xs" variant="light">
                {SCOPE_BADGE[token.scope]}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              <span style={{ whiteSpace: 'nowrap' }}>
                Created {formatDate(token.createdAt)}
                {token.createdBy ? ` by ${token.createdBy}` : ''}
              </span>
              {' · '}
              {token.lastUsedAt ? (
                `Last used ${formatDateTime(token.lastUsedAt)}`
              ) : (
                <span style={{ whiteSpace: 'nowrap' }}>{MSG_TOKENS.neverUsed}</span>
              )}
            </Text>
          </Box>
        </Group>
        {onRevoke && (
          <Button
            size="xs"
            variant="light"
            color="red"
            onClick={onRevoke}
            aria-label={`Revoke ${token.name}`}
            style={{ flexShrink: 0 }}
          >
            {MSG_TOKENS.revoke}
          </Button>
        )}
      </Group>
    </Box>
  );
}

/** Name (required, at most 30; the contract's schema), scope (ingest unless chosen) and Create; the
 *  secret then opens in a modal. */
function CreateTokenForm({ teamId, disabled, full }: { teamId: number; disabled: boolean; full: boolean }) {
  const create = useCreateTeamToken(teamId);
  const form = useContractForm(ZCreateTeamTokenRequest, {
    initialValues: { name: '', scope: 'ingest' as TTeamTokenScope },
  });
  const submit = form.onSubmit((body) =>
    create.mutate(body, {
      onSuccess: (r) => {
        form.reset();
        showCreatedToken(r.data);
      },
      onError: (err) => showApiError(form, err, ['name', 'scope']),
    }),
  );
  const off = disabled || full;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={MSG_TOKENS.nameLabel}
          placeholder={MSG_TOKENS.namePlaceholder}
          {...form.getInputProps('name')}
          maxLength={LIMITS.teamTokenNameMax}
          disabled={off}
          maw={{ xs: 420 }}
        />
        {/* Native radios of one name: Tab reaches the group, the arrow keys choose. */}
        <Radio.Group label={SCOPE_LABEL} name={`token-scope-${teamId}`} {...form.getInputProps('scope')}>
          <Group gap="lg" mt={6} align="flex-start">
            {TEAM_TOKEN_SCOPES.map((s) => (
              <Radio
                key={s}
                value={s}
                label={SCOPE_CHOICE[s].label}
                description={SCOPE_CHOICE[s].description}
                disabled={off}
              />
            ))}
          </Group>
        </Radio.Group>
        <Box w={{ base: '100%', xs: 'auto' }} style={{ alignSelf: 'flex-start' }}>
          <Button
            type="submit"
            leftSection={<IconPlus size={16} />}
            loading={create.isPending}
            disabled={off}
            fullWidth
          >
            {MSG_TOKENS.create}
          </Button>
        </Box>
        {full && !disabled && (
          <Text size="sm" c="dimmed">
            {MSG_TOKENS.limitReached}
          </Text>
        )}
        <FormError message={formError(form)} />
      </Stack>
    </form>
  );
}

/** The one time the secret is shown: not closed by a stray click outside. */
function showCreatedToken(t: TCreatedTeamToken) {
  openAppModal({
    title: MSG_TOKENS.createdTitle,
    size: 'lg',
    closeOnClickOutside: false,
    render: (close) => (
      <Stack gap="md">
        <Alert color="orange" variant="light" icon={<IconAlert />}>
          {MSG_TOKENS.shownOnce}
        </Alert>
        <CopyBlock label={`Token “${t.name}”`} value={t.token} />
        {t.scope === 'statistics' ? (
          <>
            <Text size="sm">{exportUsage(STATS_EXPORT.path)}</Text>
            <CopyBlock label="Example" value={statsExportCurl(window.location.origin, t.token)} />
            <Text size="xs" c="dimmed">
              Put one of your service keys (key hashes) in <Code>keys</Code>, several separated by commas; add{' '}
              <Code>by</Code> ({BREAKDOWN_DIMENSIONS.join(', ')}) for a breakdown, and <Code>range</Code>{' '}
              week, month or live for other windows.
            </Text>
          </>
        ) : t.scope === 'hashes' ? (
          <>
            <Text size="sm">{MSG_HASHES.usage(PLAYER_PATHS.hashes)}</Text>
            <CopyBlock label="Example" value={hashPushCurl(window.location.origin, t.token)} />
            <Text size="xs" c="dimmed">
              Put the URL viewers load the segment from in <Code>url</Code> (a host of a verified domain or an
              active Origin of this team), and send up to {LIMITS.hashesPerPush} segments a request, as your
              packager writes them.
            </Text>
          </>
        ) : (
          <Text size="sm">{MSG_TOKENS.usage(INGEST_PATH)}</Text>
        )}
        <Group justify="flex-end">
          <Button onClick={close} miw={100} data-autofocus>
            Done
          </Button>
        </Group>
      </Stack>
    ),
  });
}
