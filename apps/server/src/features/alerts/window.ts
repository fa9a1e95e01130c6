import {
  ALERT_METRIC_INFO,
  columnIndex,
  histogramQuantile,
  POINT_VALUES,
  SERIES,
  type TAlertMetric,
  type TAlertOp,
} from '@tlprt/contract';

/**
 * A rule's metric over its window (docs/DESIGN.md §13), from the watched keys' stored columns summed per minute.
 * Pure: the evaluator and the form's preview compute the same value from the same sums.
 */

/** One minute's stored columns summed over the watched keys: POINT_VALUES numbers in STORED_COLUMNS
 *  order (a peak column, the viewers, is the sum of the keys' own counts of that minute). */
export type MinuteSums = ArrayLike<number>;

/** What a window holds for a rule: the metric's value (null: no data, or nothing it is a share of) and
 *  the window's viewers, the most of any of its minutes (the `viewers` metric itself). */
export interface WindowValue {
  value: number | null;
  viewers: number;
}

const STARTUP_BOUNDS = SERIES.startup.buckets;
const STARTUP_COUNT = STARTUP_BOUNDS.length + 1;
const AT = {
  cdn: columnIndex('cdnBytes'),
  p2p: columnIndex('p2pBytes'),
  nodr: columnIndex('nodrBytes'),
  users: columnIndex('users'),
  rejected: columnIndex('rejectedBytes'),
  playMs: columnIndex('playMs'),
  stallMs: columnIndex('stallMs'),
  plays: columnIndex('plays'),
  failures: columnIndex('failures'),
  verify: columnIndex('verifyBytes'),
  startup: columnIndex('startup'),
};

/** A share as a percentage; null when there is nothing it is a share of. */
const percent = (part: number, whole: number): number | null => (whole > 0 ? (100 * part) / whole : null);

/** The metric's value from the window's summed columns (`viewers`: its busiest minute's). The shares
 *  are those of the statistics screen: P2P share and "Origin saving" of its summary (web
 *  statistics/data.ts summarize: P2P, and P2P less verification, over CDN + P2P + NODR), rebuffering
 *  of its Viewer experience panel (experience.ts rebufferingShare: stalls over playing and stalled
 *  time, null without play time). */
export function metricOf(metric: TAlertMetric, sums: MinuteSums, viewers: number): number | null {
  const v = (i: number) => sums[i] ?? 0;
  const served = v(AT.cdn) + v(AT.p2p) + v(AT.nodr);
  switch (metric) {
    case 'p2pShare':
      return percent(v(AT.p2p), served);
    case 'originSaved':
      return percent(v(AT.p2p) - v(AT.verify), served);
    case 'cdnBytes':
      return v(AT.cdn);
    case 'rejectedBytes':
      return v(AT.rejected);
    case 'viewers':
      return viewers;
    case 'failureRate':
      return percent(v(AT.failures), v(AT.plays));
    case 'rebufferRatio':
      return v(AT.playMs) > 0 ? percent(v(AT.stallMs), v(AT.playMs) + v(AT.stallMs)) : null;
    case 'startupP95Ms': {
      const buckets = Array.prototype.slice.call(sums, AT.startup, AT.startup + STARTUP_COUNT) as number[];
      if (!buckets.some((c) => c > 0)) return null;
      return histogramQuantile(buckets, STARTUP_BOUNDS, 0.95);
    }
  }
}

/** The metric over the minutes of a window (absent ones had no row: no traffic on those keys); a
 *  window without any row has no value at all, whatever the metric. */
export function windowValue(metric: TAlertMetric, minutes: Iterable<MinuteSums | undefined>): WindowValue {
  const sums = new Float64Array(POINT_VALUES);
  let viewers = 0;
  let rows = 0;
  for (const m of minutes) {
    if (!m) continue;
    rows++;
    for (let i = 0; i < POINT_VALUES; i++) sums[i] = (sums[i] as number) + (m[i] ?? 0);
    viewers = Math.max(viewers, m[AT.users] ?? 0);
  }
  if (rows === 0) return { value: null, viewers: 0 };
  return { value: metricOf(metric, sums, viewers), viewers };
}

/** The minutes of the window of `windowMinutes` closed minutes ending with `lastMinute` (unix s of its
 *  start), oldest first, from sums per minute. */
export function windowMinutes(
  perMinute: ReadonlyMap<number, MinuteSums>,
  lastMinute: number,
  windowMinutes: number,
): Array<MinuteSums | undefined> {
  const out: Array<MinuteSums | undefined> = [];
  for (let m = lastMinute - (windowMinutes - 1) * 60; m <= lastMinute; m += 60) out.push(perMinute.get(m));
  return out;
}

export interface Condition {
  op: TAlertOp;
  threshold: number;
  minViewers: number;
}

/** The value a rule sees, as stored and shown: null when the window had fewer viewers than the rule
 *  asks for (an empty stream says nothing). */
export const seenValue = (w: WindowValue, minViewers: number): number | null =>
  w.viewers >= minViewers ? w.value : null;

/** Whether the rule's condition holds over the window: a value, enough viewers, past the threshold. */
export function conditionHolds(c: Condition, w: WindowValue): boolean {
  const value = seenValue(w, c.minViewers);
  if (value === null) return false;
  return c.op === 'above' ? value > c.threshold : value < c.threshold;
}

/** The preview's spacing: a point every 10 minutes over the last 24 hours. */
export const PREVIEW_STEP_S = 600;
export const PREVIEW_POINTS = 144;

/** The ends (unix s) of the preview's windows before `nowS`, oldest first: multiples of 10 minutes. */
export function previewEnds(nowS: number): number[] {
  const last = Math.floor(nowS / PREVIEW_STEP_S) * PREVIEW_STEP_S;
  return Array.from({ length: PREVIEW_POINTS }, (_, i) => last - (PREVIEW_POINTS - 1 - i) * PREVIEW_STEP_S);
}

/** The preview: for each end `t`, the value the rule would have seen over the window of minutes just
 *  before it. */
export function previewPoints(
  rule: { metric: TAlertMetric; windowMinutes: number; minViewers: number },
  perMinute: ReadonlyMap<number, MinuteSums>,
  ends: readonly number[],
): Array<{ t: number; value: number | null }> {
  return ends.map((t) => ({
    t,
    value: seenValue(
      windowValue(rule.metric, windowMinutes(perMinute, t - 60, rule.windowMinutes)),
      rule.minViewers,
    ),
  }));
}

function decimal(n: number): string {
  const fixed = Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}
const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'] as const;

/** A metric's value in words for an e-mail, in its unit (bytes in decimal steps, as the screen). */
export function formatMetricValue(metric: TAlertMetric, value: number | null): string {
  if (value === null) return 'no data';
  switch (ALERT_METRIC_INFO[metric].unit) {
    case 'percent':
      return `${decimal(value)}%`;
    case 'ms':
      return `${Math.round(value)} ms`;
    case 'viewers':
      return `${Math.round(value)} viewer${Math.round(value) === 1 ? '' : 's'}`;
    case 'bytes': {
      let v = value;
      let i = 0;
      while (Math.abs(v) >= 1000 && i < BYTE_UNITS.length - 1) {
        v /= 1000;
        i++;
      }
      return `${decimal(v)} ${BYTE_UNITS[i]}`;
    }
  }
}
