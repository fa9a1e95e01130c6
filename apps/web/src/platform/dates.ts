/**
 * The one date and time format of the dashboard: en-GB words, "3 March 2024" and
 * "3 March 2024, 14:05" (seconds when asked), the same in every screen and the chart's tooltip.
 * Built from parts, not Intl's whole string, which differs between ICU versions ("… at 14:05").
 * A time is shown in the browser's zone, or at a fixed UTC offset in hours (the team's on the
 * statistics chart; 0 for UTC), then labelled with it.
 */
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

type When = Date | string | number;
interface Zone {
  /** Hours east of UTC; absent: the browser's zone, unlabelled. */
  utcOffset?: number;
  /** false: the offset's label left out (shown beside already). */
  label?: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "UTC+2", "UTC-7", "UTC+5:30", "UTC+0". */
export function utcLabel(offsetHours: number): string {
  const sign = offsetHours < 0 ? '-' : '+';
  const abs = Math.abs(offsetHours);
  const h = Math.floor(abs);
  const m = Math.round((abs - h) * 60);
  return `UTC${sign}${h}${m ? `:${pad(m)}` : ''}`;
}

function fields(when: When, zone: Zone) {
  const ms = when instanceof Date ? when.getTime() : typeof when === 'number' ? when : Date.parse(when);
  if (Number.isNaN(ms)) return null;
  if (zone.utcOffset === undefined) {
    const d = new Date(ms);
    return {
      y: d.getFullYear(),
      mo: d.getMonth(),
      d: d.getDate(),
      h: d.getHours(),
      mi: d.getMinutes(),
      s: d.getSeconds(),
    };
  }
  const d = new Date(ms + zone.utcOffset * 3_600_000);
  return {
    y: d.getUTCFullYear(),
    mo: d.getUTCMonth(),
    d: d.getUTCDate(),
    h: d.getUTCHours(),
    mi: d.getUTCMinutes(),
    s: d.getUTCSeconds(),
  };
}

/** "3 March 2024" (an unreadable input is returned as it is). */
export function formatDate(when: When, zone: Zone = {}): string {
  const f = fields(when, zone);
  if (!f) return String(when);
  return `${f.d} ${MONTHS[f.mo]} ${f.y}`;
}

/** "14:05" or "14:05:09", with the offset's label when one is given. */
export function formatTime(when: When, zone: Zone = {}, seconds = false): string {
  const f = fields(when, zone);
  if (!f) return String(when);
  const time = `${pad(f.h)}:${pad(f.mi)}${seconds ? `:${pad(f.s)}` : ''}`;
  return zone.utcOffset === undefined || zone.label === false ? time : `${time} ${utcLabel(zone.utcOffset)}`;
}

/** "3 March 2024, 14:05" (+ " UTC+2" at a fixed offset). */
export function formatDateTime(when: When, zone: Zone = {}, seconds = false): string {
  const f = fields(when, zone);
  if (!f) return String(when);
  return `${formatDate(when, zone)}, ${formatTime(when, zone, seconds)}`;
}

/** "3 March 2024, 14:05 UTC": a moment the spec shows in UTC (the password-changed date, §2). */
export const formatUtc = (when: When) => `${formatDateTime(when, { utcOffset: 0, label: false })} UTC`;
