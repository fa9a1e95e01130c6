import type { TSeriesName, TStatsPoint } from '@tlprt/contract';
import { formatDateTime, formatTime, utcLabel } from '../../platform/dates';
import { formatBytes } from '../../platform/units';
import { type ChartInput, zoomIndexes } from './chartOption';
import { summarize } from './data';
import { drawnTraffic } from './seriesStyle';

/**
 * The chart's text alternative (a canvas says nothing to a screen reader): a few sentences on what the
 * visible points show, and the same points as rows of a table. Both follow the chart's zoom, as its
 * summary figures do. Pure: StatsChart renders them.
 */

/** One visible point as the data table shows it. */
export interface ChartTableRow {
  datePoint: number;
  /** "3 March 2024, 14:05" in the team's offset (the table's caption names the offset). */
  time: string;
  /** The bytes of each source of traffic the chart draws (seriesStyle's drawnTraffic: the series
   *  table's, NODR for teams of version 1 only), by its bytes series' name. */
  bytes: Partial<Record<TSeriesName, number>>;
  viewers: number;
}

/** The points inside the zoom window. */
export function visiblePoints(input: ChartInput, zoom: readonly [number, number]): readonly TStatsPoint[] {
  const [from, to] = zoomIndexes(input.points.length, zoom[0], zoom[1]);
  return input.points.slice(from, to + 1);
}

const when = (p: TStatsPoint, utcOffset: number) =>
  formatDateTime(p.datePoint * 1000, { utcOffset, label: false });

/** The visible points as the data table's rows, oldest first. */
export function chartTableRows(input: ChartInput, zoom: readonly [number, number]): ChartTableRow[] {
  const traffic = drawnTraffic(input.nodr);
  return visiblePoints(input, zoom).map((p) => ({
    datePoint: p.datePoint,
    time: when(p, input.utcOffset),
    bytes: Object.fromEntries(traffic.map((t) => [t.series, t.bytes(p)])),
    viewers: p.usersCount,
  }));
}

/** "1 minute", "20 minutes", "1 hour". */
export function stepLabel(step: number): string {
  if (step % 3600 === 0) return step === 3600 ? '1 hour' : `${step / 3600} hours`;
  const min = Math.round(step / 60);
  return min === 1 ? '1 minute' : `${min} minutes`;
}

/** The chart's summary: the visible span, its traffic by source and share, and the audience's peak. */
export function chartSummary(input: ChartInput, zoom: readonly [number, number]): string {
  const points = visiblePoints(input, zoom);
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return 'The chart has no points to show.';
  const zone = utcLabel(input.utcOffset);
  const s = summarize(points);
  const span = `From ${when(first, input.utcOffset)} to ${when(last, input.utcOffset)} ${zone}, ${points.length} ${points.length === 1 ? 'point' : 'points'} of ${stepLabel(input.step)}.`;
  if (s.totalBytes === 0 && s.peakViewers === 0) return `${span} Nothing was served and no one watched.`;
  // Each source the chart draws, in the table's order: "CDN delivered 4 kB, P2P 6 kB".
  const sources = drawnTraffic(input.nodr).map((t, i) => {
    const bytes = formatBytes(points.reduce((sum, p) => sum + t.bytes(p), 0));
    return i === 0 ? `${t.label} delivered ${bytes}` : `${t.label} ${bytes}`;
  });
  const share = s.p2pShare === null ? '' : ` (${Math.round(s.p2pShare * 100)}% from peers)`;
  const traffic = `${sources.join(', ')}${share}.`;
  const peakAt = points.find((p) => p.usersCount === s.peakViewers) ?? first;
  const viewers = `Viewers peaked at ${s.peakViewers.toLocaleString('en-US')} at ${formatTime(peakAt.datePoint * 1000, { utcOffset: input.utcOffset, label: false })}.`;
  return `${span} ${traffic} ${viewers}`;
}
