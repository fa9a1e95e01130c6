import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { allDomainsGroup, MSG_DOMAINS, type TKey } from '@tlprt/contract';
import type { Pending } from './DomainModals';
import { KeyTable } from './KeyTable';
import type { DomainPermissions } from './permissions';

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
          {MSG_DOMAINS.allDomains}
        </Title>
        <Badge variant="light" color="gray" radius="sm">
          {keys.length}
        </Badge>
      </Group>
      <Card withBorder radius="lg" p="md" style={{ background: 'var(--app-surface)' }}>
        <Text size="sm" c="dimmed" mb="xs">
          Keys that apply to every verified domain of the team.
        </Text>
        <KeyTable domain={allDomainsGroup(keys)} keys={keys} perms={perms} onAsk={onAsk} />
      </Card>
    </Stack>
  );
}
