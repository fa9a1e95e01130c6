import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { DomainStatus, type TDomain, type TKey } from '@tlprt/contract';
import type { Pending } from './DomainModals';
import { KeyTable } from './KeyTable';
import type { DomainPermissions } from './MyDomains';

const TITLE = 'All domains';

/** The scope the key table and its modals see for keys of no one domain (their calls name the key). */
const allDomainsScope = (keys: TKey[]): TDomain => ({
  id: 0,
  teamId: keys[0]?.teamId ?? 0,
  url: TITLE,
  name: TITLE,
  status: { id: DomainStatus.Active, name: 'Active' },
  verification: { id: 1 },
  verificationMethod: null,
  verificationHash: '',
  draft: { id: 1 },
  suspended: 0,
  plainHttp: false,
  createdAt: keys[0]?.createdAt ?? new Date(0).toISOString(),
  keys,
});

/** The team's keys for all its domains (domainId null, spec §3): they carry traffic on every verified
 *  domain, so My domains lists them in a group of their own. */
export function AllDomainsKeys({
  keys,
  perms,
  onAsk,
}: {
  keys: TKey[];
  perms: DomainPermissions;
  onAsk: (p: Pending) => void;
}) {
  if (keys.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="list-all-domains">
      <Group gap="xs">
        <Title order={2} fz="lg" id="list-all-domains">
          {TITLE}
        </Title>
        <Badge variant="light" color="gray" radius="sm">
          {keys.length}
        </Badge>
      </Group>
      <Card withBorder radius="lg" p="md" style={{ background: 'var(--app-surface)' }}>
        <Text size="sm" c="dimmed" mb="xs">
          Keys that apply to every verified domain of the team.
        </Text>
        <KeyTable domain={allDomainsScope(keys)} keys={keys} perms={perms} onAsk={onAsk} />
      </Card>
    </Stack>
  );
}
