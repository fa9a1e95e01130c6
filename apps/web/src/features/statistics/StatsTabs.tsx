import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { LIMITS, MSG_STATS } from '@tlprt/contract';
import { IconPlus } from '../../platform/ui/icons';
import { ListTabButtons } from './ListTabButtons';
import { tabLabel } from './lists';
import { useStatsLists } from './queries';

/** The tab bar of saved lists (header on /statistics; on the page on narrow screens). */
export function StatsTabs({ variant }: { variant: 'header' | 'page' }) {
  const lists = useStatsLists();
  const names = [MSG_STATS.activeTraffic as string, ...lists.tabs.map((t) => tabLabel(t.nameTab))];
  return (
    <Group gap={6} wrap="nowrap" h="100%" miw={0}>
      <ListTabButtons names={names} index={lists.index} onSelect={lists.select} variant={variant} />
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
