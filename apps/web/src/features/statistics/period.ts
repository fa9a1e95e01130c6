import { STATS_RANGES, STATS_STEP_KEPT_S, type TStatsRange } from '@tlprt/contract';

/**
 * Custom dates of the statistics screen (issue 39): whole days `from`..`to` (both included, YYYY-MM-DD
 * in the view's UTC offset) in the URL, served by the finest range whose step's data reaches back to
 * them and whose longest window holds them. Pure.
 */

const DAY_S = 86_400;
/** The ranges custom dates may use, finest first: Live is the moment, never a past day. */
export const CUSTOM_RANGES: readonly TStatsRange[] = ['day', 'week', 'month'];

/** A window of the chart: epoch seconds, both included; `shift` is how far before it the previous
 *  period of the same length starts (a point at `t` compares with the previous one at `t - shift`). */
export interface StatsWindow {
  start: number;
  end: number;
  shift: number;
}
/** Custom dates as read from the URL, with the window and range they are served by. */
export interface CustomPeriod extends StatsWindow {
  from: string;
  to: string;
  range: TStatsRange;
}

/** "2026-11-24" → that day's midnight at UTC, in seconds; null unless a real calendar date. */
function dayStartUtc(raw: string | null): number | null {
  if (raw === null || !/^\d{4}-\d{2}-\d{2}$/.test(raw)) return null;
  const ms = Date.parse(`${raw}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== raw) return null;
  return ms / 1000;
}

/** The calendar day of epoch seconds `t` at `utcOffset` hours, as YYYY-MM-DD. */
export const dayAt = (t: number, utcOffset: number) =>
  new Date((t + utcOffset * 3600) * 1000).toISOString().slice(0, 10);

/** The window of whole days `from`..`to` at `utcOffset`: midnight to the last second of `to`. */
export function daysWindow(from: string, to: string, utcOffset: number): StatsWindow | null {
  const a = dayStartUtc(from);
  const b = dayStartUtc(to);
  if (a === null || b === null || b < a) return null;
  const start = a - utcOffset * 3600;
  const end = b + DAY_S - utcOffset * 3600 - 1;
  return { start, end, shift: end - start + 1 };
}

/** Whether `range` can serve `window` at `nowS` (and its previous period when `compare`). */
export function rangeServes(
  range: TStatsRange,
  window: StatsWindow,
  nowS: number,
  compare: boolean,
): boolean {
  const { step, maxSpan } = STATS_RANGES[range];
  const earliest = compare ? window.start - window.shift : window.start;
  const kept = STATS_STEP_KEPT_S[step] ?? 0;
  return window.end - window.start <= maxSpan && earliest >= nowS - kept;
}

/** The finest range serving `window`, or null when none does (too long, or older than any data kept). */
export function chooseRange(window: StatsWindow, nowS: number, compare: boolean): TStatsRange | null {
  // With the previous period too, when the finest cannot reach it: better a coarser step than half a
  // comparison; and the days themselves at least, when nothing reaches that far back.
  return (
    CUSTOM_RANGES.find((r) => rangeServes(r, window, nowS, compare)) ??
    CUSTOM_RANGES.find((r) => rangeServes(r, window, nowS, false)) ??
    null
  );
}

/**
 * The custom dates of the URL's `from` and `to` (`to` absent: the one day `from`), or null when there
 * are none or they cannot be shown: not dates, `to` before `from`, starting after now, longer than
 * any range's longest window or older than the data kept. The screen then shows the rolling range.
 */
export function parsePeriod(
  from: string | null,
  to: string | null,
  utcOffset: number,
  nowS: number,
  compare: boolean,
): CustomPeriod | null {
  if (from === null) return null;
  const last = to ?? from;
  const window = daysWindow(from, last, utcOffset);
  if (!window || window.start > nowS) return null;
  const range = chooseRange(window, nowS, compare);
  return range ? { ...window, from, to: last, range } : null;
}

/** The rolling window of `range` ending at `nowS` (what the screen asked before custom dates). */
export function rollingWindow(range: TStatsRange, nowS: number): StatsWindow {
  const end = Math.floor(nowS);
  const { window } = STATS_RANGES[range];
  return { start: end - window, end, shift: window };
}

/** The previous period of `window`: the same length, just before it. */
export const previousWindow = (w: StatsWindow): StatsWindow => ({
  start: w.start - w.shift,
  end: w.end - w.shift,
  shift: w.shift,
});

/** The earliest day the picker offers at `nowS`: as far back as the hours are kept. */
export const earliestDay = (nowS: number, utcOffset: number) =>
  dayAt(nowS - (STATS_STEP_KEPT_S[STATS_RANGES.month.step] ?? 0) + DAY_S, utcOffset);

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
/** "Tue 24 Nov" of a YYYY-MM-DD day (the axis's and the period's short day). */
export function shortDay(day: string): string {
  const t = dayStartUtc(day);
  if (t === null) return day;
  const d = new Date(t * 1000);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}
/** "Tue 24 Nov" or "Tue 24 Nov – Mon 30 Nov". */
export const periodLabel = (p: { from: string; to: string }) =>
  p.from === p.to ? shortDay(p.from) : `${shortDay(p.from)} – ${shortDay(p.to)}`;
