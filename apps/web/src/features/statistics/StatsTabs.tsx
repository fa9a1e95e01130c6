import { ActionIcon, Button, Group, ScrollArea, Tooltip } from '@mantine/core';
import { LIMITS, MSG_STATS } from '@tlprt/contract';
import { IconLock, IconPlus } from '../../platform/ui/icons';
import { tabLabel } from './lists';
import { useStatsLists } from './queries';

/** The tab bar of saved lists (header on /statistics; on the page on narrow screens). */
export function StatsTabs({ variant }: { variant: 'header' | 'page' }) {
  const lists = useStatsLists();
  const names = [MSG_STATS.activeTraffic as string, ...lists.tabs.map((t) => tabLabel(t.nameTab))];
  return (
    <Group gap={6} wrap="nowrap" h="100%" miw={0} aria-label="Statistics lists" role="group">
      <ScrollArea type="never" offsetScrollbars={false} style={{ minWidth: 0 }}>
        <Group gap={4} wrap="nowrap" py={variant === 'page' ? 4 : 0}>
          {names.map((name, i) => (
            <Button
              // biome-ignore lint/suspicious/noArrayIndexKey: lists have no id; the index is their identity
              key={i}
              size="compact-sm"
              h={32}
              px="sm"
              radius="md"
              variant={lists.index === i ? 'light' : 'subtle'}
              color={lists.index === i ? 'brand' : 'gray'}
              aria-pressed={lists.index === i}
              onClick={() => lists.select(i)}
              leftSection={i === 0 ? <IconLock size={13} /> : undefined}
              fw={lists.index === i ? 600 : 500}
              maw={180}
              style={{ flexShrink: 0 }}
              styles={{ label: { overflow: 'hidden', textOverflow: 'ellipsis' } }}
            >
              {name}
            </Button>
          ))}
        </Group>
      </ScrollArea>
      <Tooltip label={lists.canAdd ? 'New list' : `At most ${LIMITS.statisticsTabs} lists`}>
        <ActionIcon
          variant="light"
          color="brand"
          size={30}
          radius="md"
          aria-label="Add list"
          disabled={!lists.loaded || !lists.canAdd}
          onClick={lists.add}
        >
          <IconPlus size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
