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
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { MSG_STATS, type TBreakdownBy, type TBreakdownRow, type TStatsRange } from '@tlprt/contract';
import { type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
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
  ownNetworkShareOf,
  p2pShareOf,
  sortRows,
  splitName,
} from './breakdown';
import { formatRebuffering, formatStartup, NONE, rebufferingShare } from './experience';
import { downloadText } from './exportCsv';
import type { BreakdownFilter } from './filter';
import { type BreakdownResult, useBreakdown } from './queries';

type ColumnKey = Exclude<BreakdownSortKey, 'traffic'>;
interface Column {
  key: ColumnKey;
  label: string;
  /** What it counts (the contract's words): a tooltip on its header, and the header's description. */
  description: string;
  numeric: boolean;
  /** Its width (px) in the table's fixed layout; the name takes what is left. */
  width?: number;
  value: (r: TBreakdownRow, by: TBreakdownBy) => string;
}

const FIGURES = MSG_STATS.breakdownColumns;
/**
 * The figures' columns, narrow enough that all seven fit the 650 px a 1280 px screen leaves the card
 * (headers wrap onto two lines, figures never do); the name column is the rest.
 */
const FIGURE_COLUMNS: readonly Column[] = [
  { key: 'cdn', ...FIGURES.cdn, numeric: true, width: 74, value: (r) => formatBytes(r.cdnDwSize) },
  { key: 'p2p', ...FIGURES.p2p, numeric: true, width: 74, value: (r) => formatBytes(r.p2pDwSize) },
  {
    key: 'share',
    ...FIGURES.share,
    numeric: true,
    width: 100,
    value: (r) => {
      const share = p2pShareOf(r);
      return share === null ? NONE : formatPercent(share);
    },
  },
  { key: 'viewers', ...FIGURES.viewers, numeric: true, width: 76, value: (r) => formatCount(r.usersCount) },
  {
    key: 'startup',
    ...FIGURES.startup,
    numeric: true,
    width: 78,
    value: (r) => formatStartup(r.startupP50Ms),
  },
  {
    key: 'rebuffering',
    ...FIGURES.rebuffering,
    numeric: true,
    width: 104,
    value: (r) => formatRebuffering(rebufferingShare(r)),
  },
];
/** The breakdown by network's own figure: how much of a network's P2P stayed inside it. It takes the
 *  CDN bytes' place there (what the CDN served a row still shows as its P2P share), and 6 px of the
 *  share's for its header's longer word, so the columns fit the same 650 px. */
const OWN_NETWORK_COLUMN: Column = {
  key: 'ownNetwork',
  ...FIGURES.ownNetwork,
  numeric: true,
  width: 80,
  value: (r) => {
    const share = ownNetworkShareOf(r);
    return share === null ? NONE : formatPercent(share);
  },
};
const NETWORK_FIGURES = FIGURE_COLUMNS.map((c) =>
  c.key === 'cdn' ? OWN_NETWORK_COLUMN : c.key === 'share' ? { ...c, width: (c.width ?? 0) - 6 } : c,
);

/** The columns of a tab: what a row is (Stream, Country...), then the figures. */
const columnsOf = (by: TBreakdownBy): readonly Column[] => [
  { key: 'name', ...MSG_STATS.breakdownNames[by], numeric: false, value: (r) => breakdownName(by, r.name) },
  ...(by === 'network' ? NETWORK_FIGURES : FIGURE_COLUMNS),
];

// The name column's least width: below name + figures the table scrolls sideways inside its box (a
// 390 px phone) rather than squeezing figures.
const NAME_MIN_WIDTH = 140;
const TABLE_MIN_WIDTH = NAME_MIN_WIDTH + FIGURE_COLUMNS.reduce((w, c) => w + (c.width ?? 0), 0);
const SKELETON_ROWS = 4;
const head = { background: 'var(--app-subtle)' } as const;
// The selected row: tinted, with a bar at its start (not bold: a cut name would lose more of its end).
const selectedRow = {
  background: 'var(--mantine-primary-color-light)',
  boxShadow: 'inset 3px 0 0 var(--mantine-primary-color-filled)',
} as const;
const ellipsis = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

function SortIcon({ dir }: { dir: 'asc' | 'desc' | null }) {
  if (dir === null) return <IconSelector size={14} style={{ opacity: 0.5, flex: 'none' }} />;
  return dir === 'asc' ? (
    <IconArrowUp size={14} strokeWidth={2} style={{ flex: 'none' }} />
  ) : (
    <IconArrowDown size={14} strokeWidth={2} style={{ flex: 'none' }} />
  );
}

/** A header: its label (dotted: it has an explanation), shown on hover, focus or touch, and read as
 *  the header's description. */
function HeaderCell({
  column,
  dir,
  onSort,
}: {
  column: Column;
  dir: 'asc' | 'desc' | null;
  onSort?: ((key: ColumnKey) => void) | undefined;
}) {
  const descriptionId = useId();
  const label = (
    <span style={{ textDecoration: 'underline dotted', textUnderlineOffset: 3 }}>{column.label}</span>
  );
  const tip = (child: ReactNode) => (
    <Tooltip
      label={column.description}
      multiline
      w={260}
      withArrow
      events={{ hover: true, focus: true, touch: true }}
    >
      {child}
    </Tooltip>
  );
  return (
    <Table.Th
      ta={column.numeric ? 'right' : 'left'}
      aria-sort={dir === null ? undefined : dir === 'asc' ? 'ascending' : 'descending'}
      style={{ verticalAlign: 'bottom', lineHeight: 1.25 }}
    >
      {onSort ? (
        tip(
          <UnstyledButton
            onClick={() => onSort(column.key)}
            fz="xs"
            fw={600}
            aria-describedby={descriptionId}
            style={{
              display: 'inline-flex',
              alignItems: 'flex-end',
              justifyContent: column.numeric ? 'flex-end' : 'flex-start',
              textAlign: column.numeric ? 'right' : 'left',
              gap: 2,
            }}
          >
            {label}
            <SortIcon dir={dir} />
          </UnstyledButton>,
        )
      ) : (
        <Text component="span" fz="xs" fw={600} aria-describedby={descriptionId}>
          {label}
        </Text>
      )}
      <span id={descriptionId} hidden>
        {column.description}
      </span>
    </Table.Th>
  );
}

function Header({
  columns,
  sort,
  onSort,
}: {
  columns: readonly Column[];
  sort: BreakdownSort;
  onSort?: (key: ColumnKey) => void;
}) {
  return (
    <Table.Thead style={head}>
      <Table.Tr>
        {columns.map((c) => (
          <HeaderCell key={c.key} column={c} dir={sort.key === c.key ? sort.dir : null} onSort={onSort} />
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}

/**
 * The table's own sideways scroll when its box is narrower than its columns (a phone): a fade on the
 * side that has more, and a line saying so; the box is then a focusable region, so the keyboard
 * scrolls it too. The page itself never scrolls sideways.
 */
function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [state, setState] = useState({ scrollable: false, more: false });
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const scrollable = el.scrollWidth > el.clientWidth + 1;
    const more = scrollable && el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setState((s) => (s.scrollable === scrollable && s.more === more ? s : { scrollable, more }));
  }, []);
  useEffect(() => {
    measure();
    const el = ref.current;
    const observer = typeof ResizeObserver === 'function' && el ? new ResizeObserver(measure) : null;
    if (el) observer?.observe(el);
    window.addEventListener('resize', measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [measure]);
  return (
    <div>
      <div style={{ position: 'relative' }}>
        <div
          ref={ref}
          onScroll={measure}
          style={{ overflowX: 'auto' }}
          data-testid="breakdown-scroll"
          {...(state.scrollable ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
        >
          <div style={{ minWidth: TABLE_MIN_WIDTH }}>{children}</div>
        </div>
        {state.more && (
          <div
            aria-hidden="true"
            style={{
              position: 'absolute',
              top: 0,
              right: 0,
              bottom: 0,
              width: 40,
              pointerEvents: 'none',
              background: 'linear-gradient(to right, transparent, var(--mantine-color-body))',
            }}
          />
        )}
      </div>
      {state.scrollable && (
        <Text size="xs" c="dimmed" ta="right" mt={4} aria-hidden="true" data-testid="breakdown-scroll-hint">
          {BREAKDOWN_TEXT.scrollHint}
        </Text>
      )}
    </div>
  );
}

function Frame({
  label,
  columns,
  describedBy,
  hidden,
  children,
}: {
  label: string;
  columns: readonly Column[];
  describedBy?: string;
  /** Placeholders: read as their status's label, not as a table of empty cells. */
  hidden?: boolean;
  children: ReactNode;
}) {
  return (
    <ScrollBox label={label}>
      <Table
        verticalSpacing={6}
        horizontalSpacing={8}
        highlightOnHover={!hidden}
        aria-label={label}
        aria-describedby={describedBy}
        aria-hidden={hidden || undefined}
        // Fixed: the figures keep their widths and a long name is cut (whole in its title), never
        // widening the table past its box.
        style={{ tableLayout: 'fixed', width: '100%' }}
      >
        <colgroup>
          {columns.map((c) => (
            <col key={c.key} style={c.width ? { width: c.width } : undefined} />
          ))}
        </colgroup>
        {children}
      </Table>
    </ScrollBox>
  );
}

function Loading({ label, by }: { label: string; by: TBreakdownBy }) {
  const columns = columnsOf(by);
  return (
    <div role="status" aria-busy="true" aria-label={BREAKDOWN_TEXT.loading}>
      <Frame label={label} columns={columns} hidden>
        <Header columns={columns} sort={DEFAULT_SORT} />
        <Table.Tbody>
          {Array.from({ length: SKELETON_ROWS }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders, never reordered
            <Table.Tr key={i}>
              {columns.map((c) => (
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

/** A row's name: cut with an ellipsis when long (a stream keeps the end of its path), whole in its
 *  title; a button pressed while the chart shows this row alone. */
function NameCell({
  by,
  name,
  selected,
  onToggle,
}: {
  by: TBreakdownBy;
  name: string;
  selected: boolean;
  onToggle?: (() => void) | undefined;
}) {
  const shown = breakdownName(by, name);
  const [start, end] = splitName(by, shown);
  const text = (
    <>
      {/* A few letters of the head stay before its ellipsis: a cut name still shows its start. */}
      <span style={{ ...ellipsis, flex: '0 1 auto', minWidth: start.length > 6 ? '2.5em' : 0 }}>{start}</span>
      {/* The path's end gives way last, and with an ellipsis too when even it does not fit. */}
      {end && <span style={{ ...ellipsis, flex: '0 0.01 auto', minWidth: 0 }}>{end}</span>}
    </>
  );
  const line = { display: 'flex', minWidth: 0, maxWidth: '100%', overflow: 'hidden' } as const;
  return (
    <Table.Td title={shown}>
      {onToggle ? (
        <UnstyledButton
          fz="sm"
          // The name whole (its parts are laid out apart, which a browser may read with a space between).
          aria-label={shown}
          aria-pressed={selected}
          onClick={(e) => {
            // The row's own click would toggle it back.
            e.stopPropagation();
            onToggle();
          }}
          style={line}
        >
          {text}
        </UnstyledButton>
      ) : (
        <div style={line}>{text}</div>
      )}
    </Table.Td>
  );
}

function Rows({
  result,
  label,
  utcOffset,
  sort: chosen,
  onSort,
  filter,
  onFilter,
}: {
  result: BreakdownResult;
  label: string;
  utcOffset: number;
  sort: BreakdownSort;
  onSort: (key: ColumnKey) => void;
  filter: BreakdownFilter | null;
  onFilter?: ((filter: BreakdownFilter | null) => void) | undefined;
}) {
  const noteId = useId();
  const { answer } = result;
  const columns = columnsOf(answer.by);
  // A column of another tab only (the CDN bytes, the share within own networks): traffic order here.
  const sort = columns.some((c) => c.key === chosen.key) ? chosen : DEFAULT_SORT;
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
  const isSelected = (name: string) => filter?.by === answer.by && filter.value === name;
  // A second click on the selected row shows all traffic again, as the chip's × does.
  const toggle = onFilter
    ? (name: string) => onFilter(isSelected(name) ? null : { by: answer.by, value: name })
    : undefined;
  return (
    <Stack gap="xs">
      <Frame label={label} columns={columns} describedBy={noteId}>
        <Header columns={columns} sort={sort} onSort={onSort} />
        <Table.Tbody>
          {rows.map((r) => {
            const selected = isSelected(r.name);
            return (
              <Table.Tr
                key={r.name}
                data-testid="breakdown-row"
                data-selected={selected || undefined}
                // The mouse may click anywhere on the row; the keyboard has the name's button.
                onClick={toggle && (() => toggle(r.name))}
                style={{ ...(toggle ? { cursor: 'pointer' } : {}), ...(selected ? selectedRow : {}) }}
              >
                {columns.map((c) =>
                  c.numeric ? (
                    <Table.Td
                      key={c.key}
                      ta="right"
                      style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
                    >
                      {c.value(r, answer.by)}
                    </Table.Td>
                  ) : (
                    <NameCell
                      key={c.key}
                      by={answer.by}
                      name={r.name}
                      selected={selected}
                      onToggle={toggle && (() => toggle(r.name))}
                    />
                  ),
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Frame>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <div id={noteId} style={{ flex: '1 1 240px' }}>
          <Text size="xs" c="dimmed">
            {sort.key === 'traffic' && 'Largest traffic first. '}
            {covered}
          </Text>
          {toggle && (
            <Text size="xs" c="dimmed">
              {MSG_STATS.breakdownRowHint}
            </Text>
          )}
        </div>
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
 * chart falls back to sample data. With `onFilter`, a row selected filters the chart and the viewer
 * experience to it (the drill-down, `filter` the one shown: its tab opens, its row is marked).
 */
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
