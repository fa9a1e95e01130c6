import { Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { MSG_STATS, type TBreakdownBy, type TBreakdownRow } from '@tlprt/contract';
import { type ReactNode, useId } from 'react';
import { IconArrowDown, IconArrowUp, IconSelector } from '../../platform/ui/icons';
import { formatBytes, formatCount, formatPercent } from '../../platform/units';
import {
  type BreakdownSort,
  type BreakdownSortKey,
  breakdownName,
  ownNetworkShareOf,
  p2pShareOf,
} from './breakdown';
import { formatRebuffering, formatStartup, NONE, rebufferingShare } from './experience';

/** The breakdown table's columns and header row (sortable, each with what it counts). */
export type ColumnKey = Exclude<BreakdownSortKey, 'traffic'>;
export interface Column {
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
export const columnsOf = (by: TBreakdownBy): readonly Column[] => [
  { key: 'name', ...MSG_STATS.breakdownNames[by], numeric: false, value: (r) => breakdownName(by, r.name) },
  ...(by === 'network' ? NETWORK_FIGURES : FIGURE_COLUMNS),
];

// The name column's least width: below name + figures the table scrolls sideways inside its box (a
// 390 px phone) rather than squeezing figures.
const NAME_MIN_WIDTH = 140;
export const TABLE_MIN_WIDTH = NAME_MIN_WIDTH + FIGURE_COLUMNS.reduce((w, c) => w + (c.width ?? 0), 0);
export const SKELETON_ROWS = 4;
const head = { background: 'var(--app-subtle)' } as const;
// The selected row: tinted, with a bar at its start (not bold: a cut name would lose more of its end).
export const selectedRow = {
  background: 'var(--mantine-primary-color-light)',
  boxShadow: 'inset 3px 0 0 var(--mantine-primary-color-filled)',
} as const;
export const ellipsis = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

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

export function Header({
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
