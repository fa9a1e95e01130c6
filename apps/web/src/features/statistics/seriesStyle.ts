import type { SeriesDef, TSeriesName, TStatsPoint } from '@tlprt/contract';
import { SERIES, SERIES_NAMES } from '@tlprt/contract';

/**
 * How the chart draws the series of the series table (contract series.ts): what a series is, its
 * label and unit, come from the table; its colour is the web's, keyed by the table's name. A source of
 * traffic added to the table (its bytes, its viewers) is drawn from these two without a branch: it
 * needs a colour here (statistics.test.ts checks that each one has).
 */
export const SERIES_COLORS = {
  cdnBytes: '#4c6ef5',
  p2pBytes: '#12b886',
  nodrBytes: '#fab005',
  /** Refused peer bytes: an alarm, red apart from the traffic's colours. */
  rejectedBytes: '#e03131',
  /** Bytes fetched from the origin to verify peers' segments: not traffic, so neutral and not drawn. */
  verifyBytes: '#868e96',
  /** The audience line (usersCount), dark over the series' bars. */
  users: '#343a40',
} as const satisfies Partial<Record<TSeriesName, string>>;

/** A colour for a series the map forgot: visible, and the test says which. */
const UNCOLORED = '#000000';
const seriesColor = (name: TSeriesName): string =>
  (SERIES_COLORS as Partial<Record<TSeriesName, string>>)[name] ?? UNCOLORED;

/** A point's value of a series (0 where the team has none: the version-1 series). */
const reader =
  (point: string) =>
  (p: TStatsPoint): number =>
    (p as unknown as Record<string, number | undefined>)[point] ?? 0;

/** A source of traffic the chart stacks: its bytes series and the viewers series counting the
 *  sessions it fed. */
export interface TrafficSeries {
  /** The bytes series (its name in the table). */
  series: TSeriesName;
  /** The legend's and the tooltip's name: the bytes series' label. */
  label: string;
  color: string;
  /** Only teams of version 1 have it. */
  version1Only: boolean;
  bytes: (p: TStatsPoint) => number;
  viewers: (p: TStatsPoint) => number;
}

/**
 * The sources of traffic, in the table's order: each viewers series counting the sessions that had one
 * report field (its `when`), paired with the bytes series adding up that field. The audience, counting
 * every session, is no source.
 */
export const TRAFFIC: readonly TrafficSeries[] = SERIES_NAMES.flatMap((name): TrafficSeries[] => {
  const viewers: SeriesDef = SERIES[name];
  if (viewers.merge !== 'peak' || 'everySession' in viewers || viewers.when.length !== 1) return [];
  for (const bytesName of SERIES_NAMES) {
    const bytes: SeriesDef = SERIES[bytesName];
    if (bytes.merge !== 'sum' || bytes.unit !== 'bytes' || bytes.report !== viewers.when[0]) continue;
    return [
      {
        series: bytesName,
        label: bytes.label,
        color: seriesColor(bytesName),
        version1Only: 'version1Only' in bytes && bytes.version1Only === true,
        bytes: reader(bytes.point),
        viewers: reader(viewers.point),
      },
    ];
  }
  return [];
});

/** The sources a team's chart draws (NODR for version-1 teams only). */
export const drawnTraffic = (nodr: boolean) => TRAFFIC.filter((s) => nodr || !s.version1Only);

/** The bytes of all traffic of a point. */
export const trafficOf = (p: TStatsPoint) => TRAFFIC.reduce((a, s) => a + s.bytes(p), 0);
