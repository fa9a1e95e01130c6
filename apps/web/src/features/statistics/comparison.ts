import type { TStatsPoint } from '@tlprt/contract';
import { summarize } from './data';

/**
 * "Compare with the previous period" (issue 39): the change of each summary figure against the same
 * span just before. Shares change by percentage points ("+4.2 pts"), amounts by percent ("+12%").
 * `text` is what is shown, `spoken` what a screen reader hears instead (no signs or abbreviations).
 */
export interface Delta {
  text: string;
  spoken: string;
  direction: 'up' | 'down' | 'same';
}

const AGAINST = 'on the previous period';
const MINUS = '−';

/** The change of a share (0..1) in percentage points; null when either period served nothing. */
export function shareDelta(current: number | null, previous: number | null): Delta | null {
  if (current === null || previous === null) return null;
  const pts = Math.round((current - previous) * 1000) / 10;
  if (pts === 0) return { text: '±0 pts', spoken: `unchanged ${AGAINST}`, direction: 'same' };
  const abs = Math.abs(pts).toFixed(1);
  return pts > 0
    ? { text: `+${abs} pts`, spoken: `up ${abs} percentage points ${AGAINST}`, direction: 'up' }
    : { text: `${MINUS}${abs} pts`, spoken: `down ${abs} percentage points ${AGAINST}`, direction: 'down' };
}

/** The change of an amount in percent (whole percent from 10 % on, one decimal below). */
export function amountDelta(current: number, previous: number): Delta {
  if (previous <= 0)
    return current > 0
      ? { text: 'new', spoken: `none in the previous period`, direction: 'up' }
      : { text: '±0%', spoken: `unchanged ${AGAINST}`, direction: 'same' };
  const change = ((current - previous) / previous) * 100;
  const abs = Math.abs(change);
  const shown = abs >= 10 ? abs.toFixed(0) : abs.toFixed(1).replace(/\.0$/, '');
  if (shown === '0') return { text: '±0%', spoken: `unchanged ${AGAINST}`, direction: 'same' };
  return change > 0
    ? { text: `+${shown}%`, spoken: `up ${shown} percent ${AGAINST}`, direction: 'up' }
    : { text: `${MINUS}${shown}%`, spoken: `down ${shown} percent ${AGAINST}`, direction: 'down' };
}

/** The previous period's points shown beside the current ones: `shift` seconds earlier. */
export interface PreviousPeriod {
  points: readonly TStatsPoint[];
  shift: number;
}

/** The summary of the previous period's points matching current times `fromT`..`toT` (the visible
 *  part of the chart, a zoom too). */
export function previousSummary(previous: PreviousPeriod, fromT: number, toT: number) {
  const matching = previous.points.filter(
    (p) => p.datePoint + previous.shift >= fromT && p.datePoint + previous.shift <= toT,
  );
  return summarize(matching);
}

export interface SummaryDeltas {
  p2pShare: Delta | null;
  originSaving: Delta | null;
  ownNetworkShare: Delta | null;
  totalBytes: Delta;
  peakViewers: Delta;
}

/** The deltas of the summary figures. */
export function summaryDeltas(
  current: ReturnType<typeof summarize>,
  previous: ReturnType<typeof summarize>,
): SummaryDeltas {
  return {
    p2pShare: shareDelta(current.p2pShare, previous.p2pShare),
    originSaving: shareDelta(current.originSaving, previous.originSaving),
    ownNetworkShare: shareDelta(current.ownNetworkShare, previous.ownNetworkShare),
    totalBytes: amountDelta(current.totalBytes, previous.totalBytes),
    peakViewers: amountDelta(current.peakViewers, previous.peakViewers),
  };
}

/** The previous points by their time, for the lookups of one chart. */
export const indexByTime = (points: readonly TStatsPoint[]) => new Map(points.map((p) => [p.datePoint, p]));
