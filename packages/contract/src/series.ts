import { z } from 'zod';
import { STARTUP_BUCKETS_MS, type TReportCountField } from './report.js';

/**
 * The statistics series, defined once (docs/DESIGN.md §7). Ingest validation, the in-memory aggregation, the
 * stored columns, rollups and team totals, the packed blocks, the answer's point fields, the chart and
 * the guide's glossary all follow this table. Adding a series is a row here and a migration adding its
 * column to the tables of points (the server rebuilds its blocks on start when their layout changed).
 *
 * How a series merges, over keys and over time:
 * - `sum`: added up (bytes, milliseconds, counts);
 * - `peak`: distinct sessions of a minute, counted from the sessions stored for it; over keys summed,
 *   over a 20-minute or hourly point the peak minute;
 * - `histogram`: counts per fixed bucket, each bucket a sum, so quantiles hold over any range and any
 *   set of keys.
 */
export type SeriesMerge = 'sum' | 'peak' | 'histogram';
export type SeriesUnit = 'bytes' | 'viewers' | 'ms' | 'count';

/** The report's own fields that count bytes: a session with any of them is a viewer, as is one that
 *  played (`playMs`). */
const BYTE_FIELDS = ['cdnBytes', 'p2pBytes', 'nodrBytes'] as const;

interface SeriesBase {
  /** The column of the tables of points (a histogram: the prefix of one column per bucket). */
  column: string;
  unit: SeriesUnit;
  /** Bytes per value in a packed block: 8 for sizes and times, 4 for counts (saturating). */
  width: 4 | 8;
  /** The glossary's name and meaning (the guide and the chart's tooltips). */
  label: string;
  description: string;
  /** Only teams of version 1 see it (the nodr series). */
  version1Only?: true;
  /** The chart draws it at every point (and the screen's CSV has it). A chart asks for these only
   *  (`points: 'drawn'`): the others reach the screen as the window's `totals`. */
  drawn?: true;
}
interface SumSeries extends SeriesBase {
  merge: 'sum';
  /** The report's field it adds up, or how it is derived from a report; `null` for a series the
   *  server counts itself (verifyBytes), which no report can add to, whatever fields it carries. */
  report: TReportCountField | ((r: TReportValues) => number) | null;
  /** The field of the answer's points. */
  point: string;
}
interface PeakSeries extends SeriesBase {
  merge: 'peak';
  /** Which sessions it counts: those whose report had one of these fields above 0. */
  when: readonly TReportCountField[];
  /** It counts every stored session (a session is stored only when it counts here). */
  everySession?: true;
  point: string;
}
interface HistogramSeries extends SeriesBase {
  merge: 'histogram';
  buckets: readonly number[];
  /** The report's field listing the times counted. */
  report: 'startupMs';
  /** The answer's fields: quantile → field. */
  quantiles: Readonly<Record<string, number>>;
}
export type SeriesDef = SumSeries | PeakSeries | HistogramSeries;

/** What one report counts, as the aggregation reads it. */
export interface TReportValues {
  cdnBytes: number;
  p2pBytes: number;
  nodrBytes?: number | undefined;
  rejectedBytes?: number | undefined;
  p2pCrossBytes?: number | undefined;
  playMs?: number | undefined;
  stallMs?: number | undefined;
  plays?: number | undefined;
  failures?: number | undefined;
  peers?: number | undefined;
  startupMs?: readonly number[] | undefined;
}

export const SERIES = {
  cdnBytes: {
    column: 'cdn_bytes',
    unit: 'bytes',
    merge: 'sum',
    width: 8,
    report: 'cdnBytes',
    point: 'cdnDwSize',
    drawn: true,
    label: 'CDN',
    description: 'Bytes viewers received from the CDN.',
  },
  p2pBytes: {
    column: 'p2p_bytes',
    unit: 'bytes',
    merge: 'sum',
    width: 8,
    report: 'p2pBytes',
    point: 'p2pDwSize',
    drawn: true,
    label: 'P2P',
    description: 'Bytes viewers received from other viewers, each segment verified before it played.',
  },
  nodrBytes: {
    column: 'nodr_bytes',
    unit: 'bytes',
    merge: 'sum',
    width: 8,
    report: 'nodrBytes',
    point: 'nodrDwSize',
    drawn: true,
    label: 'NODR',
    description:
      'Bytes a third source delivered, neither your CDN nor peers: what your own reporters send as nodrBytes (the P2P player plugin never does). Only teams of “Version 1.1 (Nodr)” have this series.',
    version1Only: true,
  },
  cdnUsers: {
    column: 'cdn_users',
    unit: 'viewers',
    merge: 'peak',
    width: 4,
    when: ['cdnBytes'],
    point: 'cdnUsersCount',
    drawn: true,
    label: 'CDN viewers',
    description: 'Sessions that received bytes from the CDN.',
  },
  p2pUsers: {
    column: 'p2p_users',
    unit: 'viewers',
    merge: 'peak',
    width: 4,
    when: ['p2pBytes'],
    point: 'p2pUsersCount',
    drawn: true,
    label: 'P2P viewers',
    description: 'Sessions that received bytes from other viewers.',
  },
  nodrUsers: {
    column: 'nodr_users',
    unit: 'viewers',
    merge: 'peak',
    width: 4,
    when: ['nodrBytes'],
    point: 'nodrUsersCount',
    drawn: true,
    label: 'NODR viewers',
    description: 'Sessions that received NODR bytes (the third source your reporters count as nodrBytes).',
    version1Only: true,
  },
  users: {
    column: 'users',
    unit: 'viewers',
    merge: 'peak',
    width: 4,
    when: [...BYTE_FIELDS, 'playMs'],
    everySession: true,
    point: 'usersCount',
    drawn: true,
    label: 'Viewers',
    description:
      'Sessions that played or received bytes: a viewer of an already buffered video counts, and one fed by both the CDN and peers counts once.',
  },
  rejectedBytes: {
    column: 'rejected_bytes',
    unit: 'bytes',
    merge: 'sum',
    width: 8,
    report: 'rejectedBytes',
    point: 'rejectedDwSize',
    drawn: true,
    label: 'Refused',
    description: 'Peer bytes refused by verification (not the origin’s) and fetched again: not in P2P.',
  },
  playMs: {
    column: 'play_ms',
    unit: 'ms',
    merge: 'sum',
    width: 8,
    report: 'playMs',
    point: 'playMs',
    label: 'Playing time',
    description: 'Time viewers spent playing.',
  },
  stallMs: {
    column: 'stall_ms',
    unit: 'ms',
    merge: 'sum',
    width: 8,
    report: 'stallMs',
    point: 'stallMs',
    label: 'Stalled time',
    description: 'Time viewers waited for data after the first frame (rebuffering), seeks excluded.',
  },
  plays: {
    column: 'plays',
    unit: 'count',
    merge: 'sum',
    width: 4,
    report: 'plays',
    point: 'plays',
    label: 'Plays',
    description: 'Plays started.',
  },
  failures: {
    column: 'failures',
    unit: 'count',
    merge: 'sum',
    width: 4,
    report: 'failures',
    point: 'failures',
    label: 'Failures',
    description: 'Plays that ended in a fatal playback error.',
  },
  ceilingBytes: {
    column: 'ceiling_bytes',
    unit: 'bytes',
    merge: 'sum',
    width: 8,
    // With n other viewers, at most n of every n + 1 copies of a segment can come from peers.
    report: (r) => {
      const peers = r.peers ?? 0;
      const bytes = r.cdnBytes + r.p2pBytes;
      return peers > 0 ? Math.floor((bytes * peers) / (peers + 1)) : 0;
    },
    point: 'p2pCeilingSize',
    label: 'P2P ceiling',
    description:
      'The most peers could have served: each report’s bytes times n / (n + 1) for the n peers its viewer had.',
  },
  startup: {
    column: 'startup',
    unit: 'ms',
    merge: 'histogram',
    width: 4,
    buckets: STARTUP_BUCKETS_MS,
    report: 'startupMs',
    quantiles: { startupP50Ms: 0.5, startupP95Ms: 0.95 },
    label: 'Startup time',
    description: 'From play requested to the first frame, per play (p50: half the plays started faster).',
  },
  verifyBytes: {
    column: 'verify_bytes',
    unit: 'bytes',
    merge: 'sum',
    width: 8,
    // Counted by the integrity service as it fetches (statistics' countVerification), never reported.
    report: null,
    point: 'verifyDwSize',
    // Not drawn as an area (it is no traffic viewers received), but a point of the chart carries it:
    // the origin's real saving follows the chart's zoom, and the screen's CSV has it.
    drawn: true,
    label: 'Verification',
    description: 'Bytes the integrity service fetched from the key’s origins to verify peers’ segments.',
  },
  crossBytes: {
    column: 'p2p_cross_bytes',
    unit: 'bytes',
    merge: 'sum',
    width: 8,
    report: 'p2pCrossBytes',
    point: 'p2pCrossDwSize',
    // Part of P2P, so no area of its own; but a point of the chart carries it, so that the share of P2P
    // within viewers' own networks follows the chart's zoom as the origin's saving does.
    drawn: true,
    label: 'P2P from other networks',
    description:
      'Of the P2P bytes, those viewers received from peers in another network (autonomous system) than their own: traffic that crossed between internet providers.',
  },
} as const satisfies Record<string, SeriesDef>;
export type TSeriesName = keyof typeof SERIES;
export const SERIES_NAMES = Object.keys(SERIES) as TSeriesName[];

/** One stored value of a point: a series' column (a histogram has one per bucket), in block order. */
export interface StoredColumn {
  series: TSeriesName;
  column: string;
  /** How it merges as a column: a histogram's buckets are sums. */
  merge: 'sum' | 'peak';
  width: 4 | 8;
}
export const STORED_COLUMNS: readonly StoredColumn[] = SERIES_NAMES.flatMap((name): StoredColumn[] => {
  const s: SeriesDef = SERIES[name];
  if (s.merge === 'histogram')
    return [...s.buckets, Infinity].map((_, i) => ({
      series: name,
      column: `${s.column}_${i}`,
      merge: 'sum',
      width: s.width,
    }));
  return [{ series: name, column: s.column, merge: s.merge, width: s.width }];
});
/** Values per point in the server's arrays of points: one per stored column. */
export const POINT_VALUES = STORED_COLUMNS.length;
/** The index of a series' (first) column among a point's values. */
export const columnIndex = (name: TSeriesName): number => STORED_COLUMNS.findIndex((c) => c.series === name);

/** A histogram's value at quantile q (0–1) from its bucket counts, linear inside the bucket; 0 when
 *  empty. The open last bucket answers its lower bound. */
export function histogramQuantile(counts: ArrayLike<number>, bounds: readonly number[], q: number): number {
  return histogramQuantileAt(counts, 0, counts.length, bounds, q);
}

/** histogramQuantile of the `n` counts from `from` in `values` (a point's stored values), without
 *  copying them: the answer of a day reads two quantiles for each of its 1,441 points. */
function histogramQuantileAt(
  values: ArrayLike<number>,
  from: number,
  n: number,
  bounds: readonly number[],
  q: number,
): number {
  let total = 0;
  for (let i = 0; i < n; i++) total += values[from + i] ?? 0;
  if (total <= 0) return 0;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < n; i++) {
    const c = values[from + i] ?? 0;
    if (c > 0 && below + c >= rank) {
      const lo = i === 0 ? 0 : (bounds[i - 1] ?? 0);
      const hi = bounds[i];
      if (hi === undefined) return lo;
      return Math.round(lo + ((hi - lo) * (rank - below)) / c);
    }
    below += c;
  }
  return bounds[bounds.length - 1] ?? 0;
}

type PointFieldOf<S> = S extends { point: infer P extends string }
  ? P
  : S extends { quantiles: infer Q }
    ? keyof Q & string
    : never;
type AllPointFields = { [K in TSeriesName]: PointFieldOf<(typeof SERIES)[K]> }[TSeriesName];
type Version1Fields = {
  [K in TSeriesName]: (typeof SERIES)[K] extends { version1Only: true }
    ? PointFieldOf<(typeof SERIES)[K]>
    : never;
}[TSeriesName];
type DrawnFields = {
  [K in TSeriesName]: (typeof SERIES)[K] extends { drawn: true } ? PointFieldOf<(typeof SERIES)[K]> : never;
}[TSeriesName];
/** The fields a point of the statistics answer has, besides its time. */
export type TPointField = AllPointFields;

/** One field of the answer's points as written: its name, and how it is read from a point's values. */
export interface PointField {
  field: TPointField;
  series: TSeriesName;
  unit: SeriesUnit;
  version1Only: boolean;
  drawn: boolean;
  /** The value from the point's stored values (a histogram's quantile from its buckets). */
  read(values: ArrayLike<number>, at: number): number;
}
export const POINT_FIELDS: readonly PointField[] = SERIES_NAMES.flatMap((name): PointField[] => {
  const s: SeriesDef = SERIES[name];
  const first = columnIndex(name);
  const version1Only = 'version1Only' in s && s.version1Only === true;
  const drawn = 'drawn' in s && s.drawn === true;
  if (s.merge === 'histogram') {
    const n = s.buckets.length + 1;
    const bounds = s.buckets;
    return Object.entries(s.quantiles).map(([field, q]) => ({
      field: field as TPointField,
      series: name,
      unit: s.unit,
      version1Only,
      drawn,
      read: (values, at) => histogramQuantileAt(values, at + first, n, bounds, q),
    }));
  }
  return [
    {
      field: s.point as TPointField,
      series: name,
      unit: s.unit,
      version1Only,
      drawn,
      read: (values, at) => values[at + first] ?? 0,
    },
  ];
});

/** The answer's point: its time and one number per field; the version-1 fields only for those teams. */
const pointShape = Object.fromEntries(
  POINT_FIELDS.map((f) => {
    const base = f.unit === 'bytes' ? z.number() : z.number().int();
    return [f.field, f.version1Only ? base.optional() : base];
  }),
) as { [F in Exclude<AllPointFields, Version1Fields>]: z.ZodNumber } & {
  [F in Version1Fields]: z.ZodOptional<z.ZodNumber>;
};
export const ZSeriesPoint = z.object({ datePoint: z.number().int(), ...pointShape });
/** A point's fields without its time (a window's totals, a breakdown's row). */
export type TSeriesFields = Omit<z.infer<typeof ZSeriesPoint>, 'datePoint'>;
/** A point of a chart's answer: what the chart draws always, the other fields unless the chart asked
 *  for the drawn ones only. */
export const ZChartPoint = ZSeriesPoint.partial(
  Object.fromEntries(POINT_FIELDS.filter((f) => !f.drawn).map((f) => [f.field, true])) as {
    [F in Exclude<AllPointFields, DrawnFields>]: true;
  },
);

/** Every field 0 (no traffic, no play): what sample data and tests start from; the version-1 fields
 *  only when asked. */
export function emptySeries(nodr = false): TSeriesFields {
  const out: Record<string, number> = {};
  for (const f of POINT_FIELDS) if (nodr || !f.version1Only) out[f.field] = 0;
  return out as TSeriesFields;
}

/** The peak series with the bit each has in a stored session's `series`; 0 for the one counting
 *  every session (the viewers). Bits 1, 2 and 4 are the CDN, P2P and NODR viewers of rows stored
 *  before the table existed. */
export const PEAK_SERIES: ReadonlyArray<{
  index: number;
  column: string;
  bit: number;
  when: readonly TReportCountField[];
}> = (() => {
  let next = 1;
  return SERIES_NAMES.flatMap((name) => {
    const s: SeriesDef = SERIES[name];
    if (s.merge !== 'peak') return [];
    const bit = s.everySession ? 0 : next;
    if (!s.everySession) next <<= 1;
    return [{ index: columnIndex(name), column: s.column, bit, when: s.when }];
  });
})();

type Reader = (r: TReportValues) => number;
const SUM_READERS: ReadonlyArray<readonly [index: number, read: Reader]> = SERIES_NAMES.flatMap((name) => {
  const s: SeriesDef = SERIES[name];
  if (s.merge !== 'sum') return [];
  const from = s.report;
  if (from === null) return [];
  const read: Reader = typeof from === 'function' ? from : (r) => r[from] ?? 0;
  return [[columnIndex(name), read] as const];
});
const HISTOGRAMS = SERIES_NAMES.flatMap((name) => {
  const s: SeriesDef = SERIES[name];
  return s.merge === 'histogram' ? [{ first: columnIndex(name), buckets: s.buckets, report: s.report }] : [];
});
const bucketOf = (buckets: readonly number[], v: number) => {
  let i = 0;
  while (i < buckets.length && v > (buckets[i] as number)) i++;
  return i;
};

/** Adds what one report counts to a point's values (POINT_VALUES long): its sums and its histograms'
 *  buckets. Peak series are counted from sessions (reportSessionBits). */
export function addReportValues(out: { [i: number]: number }, r: TReportValues): void {
  for (const [i, read] of SUM_READERS) {
    const v = read(r);
    if (v !== 0) out[i] = (out[i] ?? 0) + v;
  }
  for (const h of HISTOGRAMS) {
    const times = r[h.report];
    if (!times) continue;
    for (const t of times) {
      const i = h.first + bucketOf(h.buckets, t);
      out[i] = (out[i] ?? 0) + 1;
    }
  }
}

/** The session bits of a report (PEAK_SERIES), or -1 when it makes no viewer (nothing received, nothing
 *  played: refused bytes alone, say). */
export function reportSessionBits(r: TReportValues): number {
  let bits = 0;
  let viewer = false;
  for (const p of PEAK_SERIES) {
    if (!p.when.some((f) => (r[f] ?? 0) > 0)) continue;
    viewer = true;
    bits |= p.bit;
  }
  return viewer ? bits : -1;
}
