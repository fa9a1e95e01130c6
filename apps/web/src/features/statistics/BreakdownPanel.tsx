import {
  Alert,
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { MSG_STATS, type TBreakdownBy, type TBreakdownRow, type TStatsRange } from '@tlprt/contract';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { IconAlert, IconArrowDown, IconArrowUp, IconSelector } from '../../platform/ui/icons';
import { formatBytes, formatCount, formatPercent } from '../../platform/units';
import { breakdownCsvText } from './api';
import {
  BREAKDOWN_TABS,
  BREAKDOWN_TEXT,
  type BreakdownSort,
  type BreakdownSortKey,
  breakdownFileName,
  breakdownName,
  breakdownWindow,
  DEFAULT_SORT,
  nextSort,
  p2pShareOf,
  sortRows,
} from './breakdown';
import { formatRebuffering, formatStartup, NONE, rebufferingShare } from './experience';
import { downloadText } from './exportCsv';
import { type BreakdownResult, useBreakdown } from './queries';

type ColumnKey = Exclude<BreakdownSortKey, 'traffic'>;
interface Column {
  key: ColumnKey;
  label: string;
  numeric: boolean;
  value: (r: TBreakdownRow, by: TBreakdownBy) => string;
}

const COLUMNS: readonly Column[] = [
  { key: 'name', label: 'Name', numeric: false, value: (r, by) => breakdownName(by, r.name) },
  { key: 'cdn', label: 'CDN', numeric: true, value: (r) => formatBytes(r.cdnDwSize) },
  { key: 'p2p', label: 'P2P', numeric: true, value: (r) => formatBytes(r.p2pDwSize) },
  {
    key: 'share',
    label: 'Share',
    numeric: true,
    value: (r) => {
      const share = p2pShareOf(r);
      return share === null ? NONE : formatPercent(share);
    },
  },
  { key: 'viewers', label: 'Viewers', numeric: true, value: (r) => formatCount(r.usersCount) },
  { key: 'startup', label: 'Startup p50', numeric: true, value: (r) => formatStartup(r.startupP50Ms) },
  {
    key: 'rebuffering',
    label: 'Rebuffering',
    numeric: true,
    value: (r) => formatRebuffering(rebufferingShare(r)),
  },
];

// Below this the table scrolls sideways in its ScrollArea (a 390 px phone) rather than squeezing figures.
const TABLE_MIN_WIDTH = 700;
const SKELETON_ROWS = 4;
const head = { background: 'var(--app-subtle)' } as const;

function SortIcon({ dir }: { dir: 'asc' | 'desc' | null }) {
  if (dir === null) return <IconSelector size={14} style={{ opacity: 0.5 }} />;
  return dir === 'asc' ? (
    <IconArrowUp size={14} strokeWidth={2} />
  ) : (
    <IconArrowDown size={14} strokeWidth={2} />
  );
}

function Header({ sort, onSort }: { sort: BreakdownSort; onSort?: (key: ColumnKey) => void }) {
  return (
    <Table.Thead style={head}>
      <Table.Tr>
        {COLUMNS.map((c) => {
          const dir = sort.key === c.key ? sort.dir : null;
          return (
            <Table.Th
              key={c.key}
              ta={c.numeric ? 'right' : 'left'}
              aria-sort={dir === null ? undefined : dir === 'asc' ? 'ascending' : 'descending'}
              style={{ whiteSpace: 'nowrap' }}
            >
              {onSort ? (
                <UnstyledButton
                  onClick={() => onSort(c.key)}
                  fz="sm"
                  fw={600}
                  style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
                >
                  {c.label}
                  <SortIcon dir={dir} />
                </UnstyledButton>
              ) : (
                c.label
              )}
            </Table.Th>
          );
        })}
      </Table.Tr>
    </Table.Thead>
  );
}

function Frame({
  label,
  describedBy,
  hidden,
  children,
}: {
  label: string;
  describedBy?: string;
  /** Placeholders: read as their status's label, not as a table of empty cells. */
  hidden?: boolean;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH}>
      <Table
        verticalSpacing={6}
        highlightOnHover={!hidden}
        aria-label={label}
        aria-describedby={describedBy}
        aria-hidden={hidden || undefined}
      >
        {children}
      </Table>
    </Table.ScrollContainer>
  );
}

function Loading({ label }: { label: string }) {
  return (
    <div role="status" aria-busy="true" aria-label={BREAKDOWN_TEXT.loading}>
      <Frame label={label} hidden>
        <Header sort={DEFAULT_SORT} />
        <Table.Tbody>
          {Array.from({ length: SKELETON_ROWS }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders, never reordered
            <Table.Tr key={i}>
              {COLUMNS.map((c) => (
                <Table.Td key={c.key}>
                  <Skeleton
                    height={12}
                    radius="sm"
                    width={c.numeric ? '70%' : '90%'}
                    ml={c.numeric ? 'auto' : 0}
                  />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Frame>
    </div>
  );
}

function Rows({
  result,
  label,
  utcOffset,
  sort,
  onSort,
}: {
  result: BreakdownResult;
  label: string;
  utcOffset: number;
  sort: BreakdownSort;
  onSort: (key: ColumnKey) => void;
}) {
  const noteId = useId();
  const { answer } = result;
  const rows = useMemo(() => sortRows(answer.data, answer.by, sort), [answer, sort]);
  const download = useMutation({
    // A failure has its popup already.
    mutationFn: async (r: BreakdownResult) =>
      downloadText(breakdownFileName(r.body.by, r.body.range), await breakdownCsvText(r.body)),
  });
  const covered = breakdownWindow(answer, utcOffset);
  if (rows.length === 0) {
    return (
      <Stack gap={4} py="md" align="center" ta="center" role="status">
        <Text fw={600}>{BREAKDOWN_TEXT.empty}</Text>
        <Text size="xs" c="dimmed">
          {covered}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      <Frame label={label} describedBy={noteId}>
        <Header sort={sort} onSort={onSort} />
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.name} data-testid="breakdown-row">
              {COLUMNS.map((c) =>
                c.numeric ? (
                  <Table.Td
                    key={c.key}
                    ta="right"
                    style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
                  >
                    {c.value(r, answer.by)}
                  </Table.Td>
                ) : (
                  // Stream URLs and network names can be long: they wrap rather than widen the table.
                  <Table.Td key={c.key} miw={160} maw={320} style={{ overflowWrap: 'anywhere' }}>
                    {c.value(r, answer.by)}
                  </Table.Td>
                ),
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Frame>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <Text id={noteId} size="xs" c="dimmed" style={{ flex: '1 1 240px' }}>
          {sort.key === 'traffic' && 'Largest traffic first. '}
          {covered}
        </Text>
        <Button
          variant="default"
          size="xs"
          loading={download.isPending}
          onClick={() => download.mutate(result)}
        >
          {BREAKDOWN_TEXT.download}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * Where the range's traffic comes from: by stream, country, network, browser or system, for the keys
 * and range of the chart. Only drawn for the team's own answers: the screen leaves it out when the
 * chart falls back to sample data.
 */
export function BreakdownPanel({
  range,
  keys,
  teamId,
  userId,
  utcOffset,
}: {
  range: TStatsRange;
  keys: readonly string[];
  teamId: number;
  userId: number;
  utcOffset: number;
}) {
  const titleId = useId();
  const [by, setBy] = useState<TBreakdownBy>('stream');
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
    body = <Loading label={label} />;
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
