import { Alert, Button, Card, Group, Tabs, Text, Title } from '@mantine/core';
import { MSG_STATS, type TBreakdownBy, type TStatsRange } from '@tlprt/contract';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { IconAlert } from '../../platform/ui/icons';
import { Loading, Rows } from './BreakdownTable';
import { BREAKDOWN_TABS, BREAKDOWN_TEXT, type BreakdownSort, DEFAULT_SORT, nextSort } from './breakdown';
import type { BreakdownFilter } from './filter';
import { useBreakdown } from './queries';

export function BreakdownPanel({
  range,
  keys,
  teamId,
  userId,
  utcOffset,
  filter = null,
  onFilter,
}: {
  range: TStatsRange;
  keys: readonly string[];
  teamId: number;
  userId: number;
  utcOffset: number;
  filter?: BreakdownFilter | null;
  onFilter?: (filter: BreakdownFilter | null) => void;
}) {
  const titleId = useId();
  const [by, setBy] = useState<TBreakdownBy>(filter?.by ?? 'stream');
  // A filter from elsewhere (a link, the back button) opens its tab, where its row is marked.
  const filterBy = filter?.by;
  useEffect(() => {
    if (filterBy) setBy(filterBy);
  }, [filterBy]);
  const [sort, setSort] = useState<BreakdownSort>(DEFAULT_SORT);
  const query = useBreakdown(range, keys, by, teamId, userId);
  const tab = BREAKDOWN_TABS.find((t) => t.by === by) ?? BREAKDOWN_TABS[0];
  const label = `Traffic by ${tab?.noun ?? by}`;

  let body: ReactNode;
  // A failed refresh keeps the rows it had (the same range, keys and tab, a little older).
  if (query.data) {
    body = (
      <Rows
        result={query.data}
        label={label}
        utcOffset={utcOffset}
        sort={sort}
        onSort={(key) => setSort((s) => nextSort(s, key))}
        filter={filter}
        onFilter={onFilter}
      />
    );
  } else if (query.isError) {
    body = (
      <Alert color="red" variant="light" icon={<IconAlert size={18} />} p="sm">
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={600}>
            {MSG_STATS.loadError}
          </Text>
          <Button variant="default" size="xs" loading={query.isFetching} onClick={() => void query.refetch()}>
            {BREAKDOWN_TEXT.retry}
          </Button>
        </Group>
      </Alert>
    );
  } else {
    body = <Loading label={label} by={by} />;
  }

  return (
    <Card
      component="section"
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'lg' }}
      mt="md"
      aria-labelledby={titleId}
      data-testid="breakdown-panel"
    >
      <Title order={2} id={titleId} fz="md" mb="xs">
        {BREAKDOWN_TEXT.title}
      </Title>
      <Tabs value={by} onChange={(v) => v && setBy(v as TBreakdownBy)}>
        <Tabs.List aria-label={BREAKDOWN_TEXT.tabs}>
          {BREAKDOWN_TABS.map((t) => (
            <Tabs.Tab key={t.by} value={t.by}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {BREAKDOWN_TABS.map((t) => (
          <Tabs.Panel key={t.by} value={t.by} pt="sm">
            {/* One answer at a time: the other panels stay mounted, empty, for their tabs' aria-controls. */}
            {t.by === by && body}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Card>
  );
}
