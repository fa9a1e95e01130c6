import {
  Accordion,
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Switch,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { DomainStatus, MSG_DOMAINS, type TDomain, type TKey, WEB_PATHS } from '@tlprt/contract';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { GUIDE_URL } from '../../platform/config';
import { useDomains } from '../../platform/queries/domains';
import { usePolicy, useRoleRights } from '../../platform/session/policy';
import { useSession } from '../../platform/session/SessionProvider';
import {
  IconAlert,
  IconBan,
  IconGlobe,
  IconPlug,
  IconPlus,
  IconPower,
  IconShield,
  IconTrash,
} from '../../platform/ui/icons';
import { EmptyState, LoadFailedAlert, SuspendedBanner } from '../../platform/ui/Page';
import { SupportContact } from '../../platform/ui/SupportContact';
import { AllDomainsKeys } from './AllDomainsKeys';
import { type Pending, useDomainModals } from './DomainModals';
import { KeyTable } from './KeyTable';
import { useCreateKey } from './keys/mutations';
import { useSetPlainHttp } from './mutations';
import type { DomainPermissions } from './permissions';

/** What the panels may do, decided once from the contract's policy (spec §6). */
/** My domains (spec §2 "Integration: My domains"). */
export function MyDomains() {
  const { currentTeam } = useSession();
  const rights = useRoleRights();
  const team = currentTeam as NonNullable<typeof currentTeam>;
  const policy = usePolicy(team);
  const domains = useDomains(team.id);
  const ask = useDomainModals(team.id);
  const [open, setOpen] = useState<string[]>([]);
  const frozen = team.suspended === 1;
  const perms: DomainPermissions = {
    manageDomains: policy.can('domains.manage'),
    manageKeys: policy.can('keys.manage'),
    supervisor: policy.can('domains.supervise'),
    frozen,
  };

  if (domains.isPending) {
    return (
      <Stack gap="md" aria-busy="true" aria-label="Loading domains">
        <Skeleton h={28} w={200} radius="md" />
        <Skeleton h={72} radius="lg" />
        <Skeleton h={72} radius="lg" />
      </Stack>
    );
  }
  if (!domains.data) {
    return <LoadFailedAlert />;
  }

  const verified = domains.data.verified;
  const active = verified.filter((d) => d.status.id === DomainStatus.Active);
  const inactive = verified.filter((d) => d.status.id !== DomainStatus.Active);
  const allIds = verified.map((d) => String(d.id));
  const allOpen = allIds.length > 0 && allIds.every((id) => open.includes(id));

  const body =
    verified.length === 0 ? (
      <NoDomains viewer={!rights.managesDomains} />
    ) : (
      <Stack gap="xl">
        {verified.length > 1 && (
          <Group justify="flex-end">
            <Switch
              label={MSG_DOMAINS.openAllTabs}
              checked={allOpen}
              onChange={(e) => setOpen(e.currentTarget.checked ? allIds : [])}
            />
          </Group>
        )}
        <DomainList
          title={MSG_DOMAINS.activeDomains}
          domains={active}
          open={open}
          setOpen={setOpen}
          perms={perms}
          onAsk={ask}
        />
        <DomainList
          title={MSG_DOMAINS.inactiveDomains}
          domains={inactive}
          open={open}
          setOpen={setOpen}
          perms={perms}
          onAsk={ask}
        />
        <AllDomainsKeys keys={domains.data.allDomains} perms={perms} onAsk={ask} />
      </Stack>
    );

  return (
    <Stack gap="lg">
      {frozen && <SuspendedBanner />}
      <Box
        className={frozen ? 'team-suspended' : undefined}
        data-testid="domains-body"
        aria-disabled={frozen || undefined}
      >
        {body}
      </Box>
    </Stack>
  );
}

/** Spec §2: role 40 "Your team haven't added any domain yet"; others also get the way to add one. */
function NoDomains({ viewer }: { viewer: boolean }) {
  if (viewer) return <EmptyState icon={<IconPlug size={28} />} title={MSG_DOMAINS.emptyViewer} />;
  return (
    <EmptyState icon={<IconPlug size={28} />} title={MSG_DOMAINS.emptyOther}>
      <Text c="dimmed" size="sm">
        Add your website, verify that it is yours and get a service key for your player.
      </Text>
      <Button component={Link} to={WEB_PATHS.addDomains} mt="xs" leftSection={<IconPlus size={16} />}>
        {MSG_DOMAINS.goToAddDomains}
      </Button>
      <Text size="sm" c="dimmed" mt="sm">
        See the{' '}
        <Anchor href={GUIDE_URL} target="_blank" rel="noreferrer" inherit>
          documentation
        </Anchor>{' '}
        for how to integrate the player.
      </Text>
      <SupportContact prefix="Questions? Contact" />
    </EmptyState>
  );
}

function DomainList({
  title,
  domains,
  open,
  setOpen,
  perms,
  onAsk,
}: {
  title: string;
  domains: TDomain[];
  open: string[];
  setOpen: (v: string[]) => void;
  perms: DomainPermissions;
  onAsk: (p: Pending) => void;
}) {
  const id = `list-${title.replace(/\s+/g, '-').toLowerCase()}`;
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Group gap="xs">
        <Title order={2} fz="lg" id={id}>
          {title}
        </Title>
        <Badge variant="light" color="gray" radius="sm">
          {domains.length}
        </Badge>
      </Group>
      {domains.length === 0 ? (
        <Card withBorder p="md">
          <Text c="dimmed" size="sm">
            No {title.toLowerCase()}.
          </Text>
        </Card>
      ) : (
        <Accordion
          multiple
          value={open.filter((v) => domains.some((d) => String(d.id) === v))}
          onChange={(values) => {
            const mine = new Set(domains.map((d) => String(d.id)));
            setOpen([...open.filter((v) => !mine.has(v)), ...values]);
          }}
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
          {domains.map((d) => (
            <DomainPanel key={d.id} domain={d} perms={perms} onAsk={onAsk} />
          ))}
        </Accordion>
      )}
    </Stack>
  );
}

function DomainPanel({
  domain,
  perms,
  onAsk,
}: {
  domain: TDomain;
  perms: DomainPermissions;
  onAsk: (p: Pending) => void;
}) {
  const { currentTeam } = useSession();
  const createKey = useCreateKey(currentTeam?.id ?? 0);
  const host = domain.url;
  const isActive = domain.status.id === DomainStatus.Active;
  const suspended = domain.suspended === 1;
  const keys: TKey[] = domain.keys;
  return (
    <Accordion.Item value={String(domain.id)}>
      <Group gap={4} wrap="nowrap" pr="sm" align="center">
        <Accordion.Control aria-label={`Domain ${host}`} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="sm" wrap="wrap" miw={0}>
            {/* On a phone the name wraps after a dot (then anywhere), the icon staying beside it. */}
            <Group gap="sm" wrap="nowrap" miw={0} align="flex-start">
              <IconGlobe
                size={18}
                color="var(--mantine-color-brand-6)"
                style={{ flexShrink: 0, marginTop: 3 }}
              />
              <Text fw={600} miw={0} style={{ overflowWrap: 'anywhere' }}>
                {host.split('.').map((part, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one host name, in order
                  <Fragment key={i}>
                    {i > 0 && '.'}
                    {i > 0 && <wbr />}
                    {part}
                  </Fragment>
                ))}
              </Text>
            </Group>
            <Badge color={isActive ? 'green' : 'gray'} variant="light" radius="sm">
              {isActive ? 'Active' : 'Inactive'}
            </Badge>
            {suspended && (
              <Badge color="red" variant="filled" radius="sm">
                {MSG_DOMAINS.suspendedLabel}
              </Badge>
            )}
            <Text size="xs" c="dimmed" visibleFrom="sm">
              {keys.length} {keys.length === 1 ? 'key' : 'keys'}
            </Text>
          </Group>
        </Accordion.Control>
        <Group gap={2} wrap="nowrap">
          {perms.supervisor && domain.verification.id !== 1 && (
            <Tooltip label={MSG_DOMAINS.verifyManually}>
              <ActionIcon
                variant="subtle"
                aria-label={MSG_DOMAINS.verifyManually}
                onClick={() => onAsk({ kind: 'bypass', domain })}
              >
                <IconShield />
              </ActionIcon>
            </Tooltip>
          )}
          {perms.supervisor && (
            <Tooltip label={suspended ? 'Unsuspend domain' : 'Suspend domain'}>
              <ActionIcon
                variant="subtle"
                color={suspended ? 'teal' : 'orange'}
                aria-label={`${suspended ? 'Unsuspend' : 'Suspend'} domain ${host}`}
                onClick={() => onAsk({ kind: 'suspendDomain', domain })}
              >
                <IconBan />
              </ActionIcon>
            </Tooltip>
          )}

          <Tooltip label={isActive ? 'Deactivate domain' : 'Activate domain'}>
            <ActionIcon
              variant="subtle"
              color={isActive ? 'green' : 'gray'}
              aria-label={`${isActive ? 'Deactivate' : 'Activate'} domain ${host}`}
              disabled={!perms.manageDomains || suspended}
              onClick={() => onAsk({ kind: 'toggleDomain', domain })}
            >
              <IconPower />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete domain">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete domain ${host}`}
              disabled={!perms.manageDomains}
              onClick={() => onAsk({ kind: 'deleteDomain', domain })}
            >
              <IconTrash />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <Accordion.Panel>
        <Stack gap="md">
          {suspended && (
            <Alert color="red" variant="light" icon={<IconAlert />} py="xs">
              {MSG_DOMAINS.domainSuspended}
            </Alert>
          )}
          <PlainHttpOption domain={domain} perms={perms} onAsk={onAsk} />
          <KeyTable domain={domain} keys={keys} perms={perms} onAsk={onAsk} />
          {isActive && (
            <Group wrap="nowrap" align="center">
              <Button
                variant="light"
                leftSection={<IconPlus size={16} />}
                disabled={!perms.manageKeys || suspended}
                loading={createKey.isPending}
                onClick={() => createKey.mutate(domain.id)}
                aria-describedby={`generate-key-help-${domain.id}`}
                style={{ flexShrink: 0 }}
              >
                {MSG_DOMAINS.generateToken}
              </Button>
              {/* The spec fixes the button's words; this says it makes a player key, not an API token. */}
              <Text size="xs" c="dimmed" id={`generate-key-help-${domain.id}`}>
                {MSG_DOMAINS.generateTokenHelp}
              </Text>
            </Group>
          )}
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/**
 * The domain's "Plain HTTP pages" option of the Origin rule. Turning it on only widens where the keys
 * work, so it is immediate; turning it off cuts http:// pages off, so it asks first (like a key's power).
 */
function PlainHttpOption({
  domain,
  perms,
  onAsk,
}: {
  domain: TDomain;
  perms: DomainPermissions;
  onAsk: (p: Pending) => void;
}) {
  const set = useSetPlainHttp(domain.teamId);
  // The answer's refetch takes a moment: show the asked state meanwhile, not a switch that jumps back.
  const checked = set.isPending ? (set.variables?.plainHttp ?? domain.plainHttp) : domain.plainHttp;
  return (
    <Switch
      label={MSG_DOMAINS.plainHttpLabel}
      aria-label={`${MSG_DOMAINS.plainHttpLabel} of ${domain.url}`}
      description={MSG_DOMAINS.plainHttpHelp}
      checked={checked}
      disabled={!perms.manageDomains || set.isPending}
      onChange={(e) => {
        if (e.currentTarget.checked) set.mutate({ id: domain.id, plainHttp: true });
        else onAsk({ kind: 'plainHttpOff', domain });
      }}
    />
  );
}
