import { z } from 'zod';
import { POINT_FIELDS } from './series.js';
import type { TBreakdownRow, TStatsPoint } from './statistics.js';

/**
 * A chart's points as CSV (RFC 4180, CRLF): what the statistics screen's "Export CSV" downloads and
 * what the day/week/month/live calls answer with `?format=csv`. One function for both, so the file
 * of the screen and the API's answer cannot differ.
 */
export const ZStatsFormatQuery = z.object({
  /** `csv`: the same points as text/csv; JSON (ZStatsResponse) when absent. */
  format: z.enum(['json', 'csv']).optional(),
});
export const STATS_CSV_TYPE = 'text/csv; charset=utf-8';

const pad = (n: number) => String(n).padStart(2, '0');

/** A point's time in a fixed UTC offset (hours) as ISO 8601 with that offset: "2026-11-22T16:05:00+02:00". */
export function csvTime(datePoint: number, utcOffsetHours: number): string {
  const offsetMin = Math.round(utcOffsetHours * 60);
  const d = new Date((datePoint + offsetMin * 60) * 1000);
  const abs = Math.abs(offsetMin);
  const zone = `${offsetMin < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${zone}`;
}

/** The fields of a CSV's columns, in the series table's order: the answer's own names (cdnDwSize...),
 *  so the chart's file, the breakdown's and the API's JSON say the same; NODR only for version-1 teams. */
const csvFields = (nodr: boolean) => POINT_FIELDS.filter((f) => nodr || !f.version1Only).map((f) => f.field);

/** The header and one line per point: time in the team's offset, Unix seconds, then every field of the
 *  series table (the breakdown CSV's columns after its name). A field the point lacks (a chart's point
 *  read with the drawn series only) is left empty, never written as a 0 it did not count. */
export function statsCsv(
  points: readonly TStatsPoint[],
  { utcOffset, nodr }: { utcOffset: number; nodr: boolean },
): string {
  const fields = csvFields(nodr);
  const lines = [['time', 'timestamp', ...fields].join(',')];
  for (const p of points)
    lines.push([csvTime(p.datePoint, utcOffset), p.datePoint, ...fields.map((f) => p[f] ?? '')].join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** A breakdown as CSV: the name, then every field of the series table the rows have, in its order. */
export function breakdownCsv(rows: readonly TBreakdownRow[], { nodr }: { nodr: boolean }): string {
  const fields = csvFields(nodr);
  const lines = [['name', ...fields].join(',')];
  for (const r of rows) lines.push([csvField(r.name), ...fields.map((f) => r[f] ?? 0)].join(','));
  return `${lines.join('\r\n')}\r\n`;
}
