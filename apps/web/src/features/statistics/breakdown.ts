import {
  BREAKDOWN_OTHER,
  BREAKDOWN_UNKNOWN,
  type TBreakdownBy,
  type TBreakdownResponse,
  type TBreakdownRow,
  type TStatsRange,
} from '@tlprt/contract';
import { formatDate, formatDateTime, formatTime, utcLabel } from '../../platform/dates';
import { rebufferingShare } from './experience';

/** The table's texts (the web's own; the contract has none for the breakdown). */
export const BREAKDOWN_TEXT = {
  title: 'Breakdown',
  tabs: 'Breakdown by',
  empty: 'No traffic in this range',
  loading: 'Loading breakdown',
  download: 'Download CSV',
  retry: 'Try again',
  scrollHint: 'Scroll sideways for more columns →',
} as const;

/** The tabs in order, each with the contract's `by`. */
export const BREAKDOWN_TABS: ReadonlyArray<{ by: TBreakdownBy; label: string; noun: string }> = [
  { by: 'stream', label: 'Streams', noun: 'stream' },
  { by: 'country', label: 'Countries', noun: 'country' },
  { by: 'network', label: 'Networks', noun: 'network' },
  { by: 'browser', label: 'Browsers', noun: 'browser' },
  { by: 'os', label: 'Systems', noun: 'system' },
];

/** Bytes served to the row's viewers: CDN + P2P (+ NODR for version-1 teams), as the chart's share. */
export const trafficOf = (r: Pick<TBreakdownRow, 'cdnDwSize' | 'p2pDwSize' | 'nodrDwSize'>) =>
  r.cdnDwSize + r.p2pDwSize + (r.nodrDwSize ?? 0);

/** P2P bytes as a share of the bytes served (0..1); null when nothing was served. */
export function p2pShareOf(r: Pick<TBreakdownRow, 'cdnDwSize' | 'p2pDwSize' | 'nodrDwSize'>): number | null {
  const served = trafficOf(r);
  return served > 0 ? r.p2pDwSize / served : null;
}

/** Of the row's P2P bytes, the share from peers of its viewers' own networks (0..1), 1 − cross ÷ P2P;
 *  null when peers served it nothing. */
export function ownNetworkShareOf(r: Pick<TBreakdownRow, 'p2pDwSize' | 'p2pCrossDwSize'>): number | null {
  return r.p2pDwSize > 0 ? Math.max(0, r.p2pDwSize - r.p2pCrossDwSize) / r.p2pDwSize : null;
}

// Built on first use: one formatter serves every row, and a browser without DisplayNames keeps codes.
let regions: Intl.DisplayNames | null | undefined;
function regionNames(): Intl.DisplayNames | null {
  if (regions === undefined) {
    regions =
      typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;
  }
  return regions;
}

/** What a row is called on screen: a country as "United States (US)"; anything else as answered. */
export function breakdownName(by: TBreakdownBy, name: string): string {
  if (by !== 'country' || name === BREAKDOWN_OTHER || name === BREAKDOWN_UNKNOWN) return name;
  let shown: string | undefined;
  try {
    shown = regionNames()?.of(name.toUpperCase());
  } catch {
    // A code DisplayNames refuses (not two letters or three digits) is shown as the server sent it.
  }
  return shown && shown.toUpperCase() !== name.toUpperCase() ? `${shown} (${name})` : name;
}

/** A stream's tail, kept whole when its cell is narrow: its last two path parts, if that short. */
const STREAM_TAIL_MAX = 32;

/**
 * A row's shown name in two parts, the head cut with an ellipsis when the cell is too narrow and the
 * tail always whole: a stream keeps the end of its path ("live/master.m3u8"), which tells streams of
 * one host apart; other names (networks, browsers) are cut at their end. The parts joined are the name.
 */
export function splitName(by: TBreakdownBy, shown: string): [head: string, tail: string] {
  if (by !== 'stream') return [shown, ''];
  const slash = shown.indexOf('/');
  const path = slash < 0 ? [] : shown.slice(slash + 1).split('/');
  for (const parts of [2, 1]) {
    if (path.length < parts) continue;
    const tail = `/${path.slice(-parts).join('/')}`;
    if (tail.length <= STREAM_TAIL_MAX && tail.length < shown.length)
      return [shown.slice(0, -tail.length), tail];
  }
  const cut = Math.max(0, shown.length - STREAM_TAIL_MAX / 2);
  return [shown.slice(0, cut), shown.slice(cut)];
}

export type BreakdownSortKey =
  | 'traffic'
  | 'name'
  | 'cdn'
  | 'p2p'
  | 'share'
  | 'ownNetwork'
  | 'viewers'
  | 'startup'
  | 'rebuffering';
export interface BreakdownSort {
  key: BreakdownSortKey;
  dir: 'asc' | 'desc';
}
/** Largest traffic first until a column is chosen, as the server answers the rows. */
export const DEFAULT_SORT: BreakdownSort = { key: 'traffic', dir: 'desc' };

/** The value a row is sorted by; null for what cannot be computed ("—"), which sorts last either way. */
function sortValue(r: TBreakdownRow, key: Exclude<BreakdownSortKey, 'name'>): number | null {
  switch (key) {
    case 'traffic':
      return trafficOf(r);
    case 'cdn':
      return r.cdnDwSize;
    case 'p2p':
      return r.p2pDwSize;
    case 'share':
      return p2pShareOf(r);
    case 'ownNetwork':
      return ownNetworkShareOf(r);
    case 'viewers':
      return r.usersCount;
    case 'startup':
      // 0 is an empty histogram (no startup measured), shown as "—".
      return r.startupP50Ms > 0 ? r.startupP50Ms : null;
    case 'rebuffering':
      return rebufferingShare(r);
  }
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** The rows in the table's order: by the key, ties by traffic (largest first), then by shown name. */
export function sortRows(
  rows: readonly TBreakdownRow[],
  by: TBreakdownBy,
  sort: BreakdownSort,
): TBreakdownRow[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  const named = rows.map((row) => ({ row, name: breakdownName(by, row.name) }));
  const byName = (a: (typeof named)[number], b: (typeof named)[number]) => collator.compare(a.name, b.name);
  named.sort((a, b) => {
    if (sort.key === 'name') return sign * byName(a, b) || trafficOf(b.row) - trafficOf(a.row);
    const va = sortValue(a.row, sort.key);
    const vb = sortValue(b.row, sort.key);
    if (va === null || vb === null) {
      if (va !== vb) return va === null ? 1 : -1;
    } else if (va !== vb) return sign * (va - vb);
    return trafficOf(b.row) - trafficOf(a.row) || byName(a, b);
  });
  return named.map((n) => n.row);
}

/** The sort after a click on a column: the same column flips, another starts with its natural order
 *  (names A to Z, figures largest first). */
export function nextSort(current: BreakdownSort, key: Exclude<BreakdownSortKey, 'traffic'>): BreakdownSort {
  if (current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: key === 'name' ? 'asc' : 'desc' };
}

/**
 * What the rows cover: the server sums whole hours (day, live) or whole UTC days (week, month), so its
 * window (endTimestamp the last second) may start before the chart's. Hours are shown in the team's
 * offset like the chart; days as the UTC dates they are.
 */
export function breakdownWindow(
  answer: Pick<TBreakdownResponse, 'step' | 'startTimestamp' | 'endTimestamp'>,
  utcOffset: number,
): string {
  const startMs = answer.startTimestamp * 1000;
  const endMs = answer.endTimestamp * 1000;
  if (answer.step >= 86_400) {
    const utc = { utcOffset: 0 };
    const from = formatDate(startMs, utc);
    const to = formatDate(endMs, utc);
    return `Rows are whole UTC days: ${from === to ? from : `${from} – ${to}`} (UTC).`;
  }
  const zone = { utcOffset, label: false };
  const sameDay = formatDate(startMs, zone) === formatDate(endMs, zone);
  const to = sameDay ? formatTime(endMs, zone) : formatDateTime(endMs, zone);
  return `Rows are whole hours: ${formatDateTime(startMs, zone)} – ${to} ${utcLabel(utcOffset)}.`;
}

/** The downloaded file's name: the tab, the range and today's date. */
export const breakdownFileName = (by: TBreakdownBy, range: TStatsRange, now = new Date()) =>
  `breakdown-${by}-${range}-${now.toISOString().slice(0, 10)}.csv`;
