import { Anchor, Badge, Button, Card, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import {
  KeyStatus,
  MSG_DOMAINS,
  PLAYER_KIND_HELP,
  PLAYER_KIND_LABEL,
  PLAYER_TABLE,
  PLAYERS,
  type TDomain,
  WEB_PATHS,
} from '@tlprt/contract';
import { Link } from 'react-router';
import { GUIDE_URL, pluginUrl } from '../../platform/config';
import { playerSnippet } from '../../platform/integration/snippets';
import { usePolicy } from '../../platform/session/policy';
import { useSession } from '../../platform/session/SessionProvider';
import { CopyBlock } from '../../platform/ui/CopyBlock';
import { IconBook, IconChart, IconKey } from '../../platform/ui/icons';
import { cardPadding } from '../../platform/ui/Page';
import { useCreateKey } from './keys/mutations';
import { useKeys } from './keys/queries';

/** Add domains' step 2: the domain's (or the team's) service key and a snippet per player. */
export function PlayerStep({ draft }: { draft: TDomain }) {
  const { currentTeam } = useSession();
  const team = currentTeam as NonNullable<typeof currentTeam>;
  const policy = usePolicy(team);
  const keys = useKeys(team.id);
  const createKey = useCreateKey(team.id);
  const own = draft.keys.find((k) => k.status === KeyStatus.Active);
  const teamWide = keys.data?.find((k) => k.domainId === null && k.status === KeyStatus.Active);
  const key = own ?? teamWide ?? null;
  const domainId = draft.draft.id === 1 ? draft.id : 0;
  const plugin = pluginUrl();

  return (
    <Card withBorder p={cardPadding} component="section" aria-labelledby="player-title">
      <Stack gap="md">
        <div>
          <Title order={2} fz="lg" id="player-title">
            Step 2. Add the P2P plugin to your player
          </Title>
          <Text size="sm" c="dimmed">
            Copy the snippet for your player into the page that plays video on {draft.url}, and put your
            stream's address in SRC. The{' '}
            <Anchor href={`${GUIDE_URL}#players`} target="_blank" rel="noreferrer" inherit underline="always">
              integration guide
            </Anchor>{' '}
            explains each player and the key settings.
          </Text>
        </div>
        <Group
          justify="space-between"
          gap="sm"
          p="sm"
          style={{ borderRadius: 12, background: 'var(--app-bg)' }}
        >
          <Group gap="xs" wrap="nowrap" miw={0}>
            <IconKey size={18} />
            {key ? (
              <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }} data-testid="snippet-key">
                {key.keyHash}
              </Text>
            ) : (
              <Text size="sm" c="dimmed">
                No active service key yet.
              </Text>
            )}
          </Group>
          {!key && (
            <Button
              size="xs"
              variant="light"
              loading={createKey.isPending}
              disabled={!policy.can('keys.manage')}
              onClick={() => createKey.mutate(domainId)}
              title={MSG_DOMAINS.generateTokenHelp}
            >
              {MSG_DOMAINS.generateToken}
            </Button>
          )}
        </Group>
        <Tabs defaultValue={PLAYERS[0]} keepMounted={false}>
          <Tabs.List style={{ flexWrap: 'wrap' }}>
            {PLAYERS.map((p) => (
              <Tabs.Tab key={p} value={p}>
                {p}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {PLAYERS.map((p) => {
            const { kind } = PLAYER_TABLE[p];
            return (
              <Tabs.Panel key={p} value={p} pt="md">
                <Stack gap="sm">
                  <Group gap="xs" wrap="nowrap" align="flex-start" data-testid="snippet-integration">
                    <Badge
                      color={kind === 'cdn-only' ? 'orange' : 'teal'}
                      variant="light"
                      radius="sm"
                      style={{ flexShrink: 0 }}
                      mt={1}
                    >
                      {PLAYER_KIND_LABEL[kind]}
                    </Badge>
                    <Text size="sm">{PLAYER_KIND_HELP[kind]}</Text>
                  </Group>
                  <CopyBlock
                    label={`${p} snippet`}
                    value={playerSnippet(p, key?.keyHash ?? null, plugin)}
                    multiline
                  />
                </Stack>
              </Tabs.Panel>
            );
          })}
        </Tabs>
      </Stack>
    </Card>
  );
}

/** Where to go once the plugin is in: the guide and the statistics. */
export function Links() {
  return (
    <Group gap="lg">
      <Anchor href={GUIDE_URL} target="_blank" rel="noreferrer" size="sm">
        <Group gap={6} component="span">
          <IconBook size={16} />
          Documentation
        </Group>
      </Anchor>
      <Anchor component={Link} to={WEB_PATHS.statistics} size="sm">
        <Group gap={6} component="span">
          <IconChart size={16} />
          {MSG_DOMAINS.goToStatistics}
        </Group>
      </Anchor>
    </Group>
  );
}
