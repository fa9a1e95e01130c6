import {
  DEFAULT_TIME_ZONE_NAME,
  findTimeZone,
  MSG,
  MSG_STATS_EXPORT,
  POINT_FIELDS,
  POINT_VALUES,
  STATS_RANGES,
  STATS_STEP_KEPT_S,
  statsCsv,
  type TStatsExportQuery,
  type TStatsPoint,
  type TStatsQuery,
  type TStatsRange,
  zoneOffsetMinutes,
} from '@tlprt/contract';
import { authorizeTeam } from '../../access/team-access.js';
import type { UserRow } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { findTeamFacts, listTeamKeys } from './queries.js';
import type { StatsService } from './service.js';
import { PEAK_COLUMNS, SUM_CAP } from './tables.js';

/**
 * The window a range serves, before step alignment: any [start, end] of at most the range's maxSpan
 * (a custom window: last Tuesday, a calendar quarter of hours), cut to end by server time and to start
 * within the data kept for the range's step. A longer window (an open one, start 0) is the range's
 * rolling window ending at server time, which is what every window was before custom ones: such a
 * request answers as it did. The breakdown serves the same window (breakdown.ts).
 */
export function servedWindow(range: TStatsRange, start: number, end: number, nowSec: number) {
  const { step, window, maxSpan } = STATS_RANGES[range];
  const to = Math.min(end, nowSec);
  if (end - start > maxSpan) return { from: Math.max(start, nowSec - window), to };
  return { from: Math.max(start, nowSec - (STATS_STEP_KEPT_S[step] ?? window)), to };
}

/** The window actually served, aligned to the range's step. */
function clampWindow(range: TStatsRange, start: number, end: number, nowSec: number) {
  const { step } = STATS_RANGES[range];
  const { from, to } = servedWindow(range, start, end, nowSec);
  return { step, from: from - (from % step), to: to - (to % step) };
}

/**
 * The summed points of the asked keys, POINT_VALUES per point from `from` (docs/DESIGN.md §7). Minutes are
 * exact for any keys. A 20-minute or hourly point stores each key's peak minute, so over several keys
 * its viewers are the team's own peak minute when the keys not asked had no viewers in the window (a
 * list of all the team's keys, or of all that had traffic), and otherwise the sum of the asked keys'
 * peaks: an upper bound, the same for every point of the answer.
 */
async function readSums(
  svc: StatsService,
  step: number,
  teamId: number,
  apiKeys: readonly string[],
  from: number,
  to: number,
  drawnOnly: boolean,
): Promise<Pick<StatsSeries, 'sums' | 'summed'>> {
  const n = (to - from) / step + 1;
  const { db } = svc.ctx;
  // The team's keys split into the asked ones and the rest; hashes of other teams match nothing.
  const asked = new Set(apiKeys);
  const keyIds: number[] = [];
  const leftOut: number[] = [];
  for (const k of await listTeamKeys(db, teamId)) (asked.has(k.key_hash) ? keyIds : leftOut).push(k.id);
  if (keyIds.length === 0)
    return { sums: new Float64Array(n * POINT_VALUES), summed: new Float64Array(POINT_VALUES) };

  const { sums, summed, teamPeaks, othersViewers } = await svc.ctx.statsStore.readPoints(
    { step, teamId, keyIds, leftOut, from, to, drawnOnly },
    svc.blockCache,
  );
  if (teamPeaks && othersViewers === 0) {
    const peaks = PEAK_COLUMNS.length;
    for (let i = 0; i < n; i++) {
      PEAK_COLUMNS.forEach((c, j) => {
        const peak = teamPeaks[i * peaks + j] ?? -1;
        if (peak >= 0) sums[i * POINT_VALUES + c.index] = peak;
      });
    }
  }
  if (step !== 60) return { sums, summed };
  // Minute ranges include what this node has not written yet (the current, open minute).
  for (const [minute, u] of svc.aggregator.unflushed(new Set(keyIds), from, to)) {
    const i = (minute - from) / 60;
    if (i < 0 || i >= n) continue;
    const p = i * POINT_VALUES;
    for (let c = 0; c < POINT_VALUES; c++) sums[p + c] = (sums[p + c] ?? 0) + (u[c] ?? 0);
  }
  return { sums, summed };
}

/** A chart's answer before it is written out: `n` points of `step` seconds from `from`, POINT_VALUES
 *  sums each, and whether the team is of version 1 (its points carry the nodr series). */
export interface StatsSeries {
  from: number;
  to: number;
  step: number;
  n: number;
  sums: Float64Array;
  /** POINT_VALUES: what the window's totals add to `sums` summed (queries.ts PointReads.summed). */
  summed: Float64Array;
  /** A chart's answer (`points: 'drawn'`): `sums` holds the drawn series only, the others are the
   *  window's totals; the points are written with the drawn series. */
  drawnOnly: boolean;
  nodr: boolean;
  /** The team's time zone (the CSV's times are in its offset now, as the chart's). */
  timeZone: string;
}

/** POST /stats/v3/dashboard/{range}: one zero-filled point per step, oldest first (docs/DESIGN.md §7). */
export async function queryStats(
  svc: StatsService,
  actor: UserRow,
  range: TStatsRange,
  teamId: number,
  q: TStatsQuery,
  drawnOnly = false,
): Promise<StatsSeries> {
  const { team } = await authorizeTeam(svc.ctx, actor, teamId, 'statistics.read');
  return teamSeries(svc, team, range, q.apiKeys, q.startTimestamp, q.endTimestamp, drawnOnly);
}

/**
 * GET /stats/v1/export: the same series for a team API token's team. Unlike the screen, which ignores
 * hashes it does not know (never telling whose they are), a machine asking for a key of another team
 * has made a mistake it should hear about: 400 naming `keys`.
 */
export async function exportStats(
  svc: StatsService,
  teamId: number,
  q: TStatsExportQuery,
): Promise<StatsSeries> {
  const team = await findTeamFacts(svc.ctx.db, teamId);
  const own = new Set((await listTeamKeys(svc.ctx.db, teamId)).map((k) => k.key_hash));
  if (!team || q.keys.some((h) => !own.has(h)))
    throw badRequest(MSG_STATS_EXPORT.otherTeamKey, { keys: MSG_STATS_EXPORT.otherTeamKey });
  const nowSec = Math.floor(svc.ctx.now() / 1000);
  return teamSeries(svc, team, q.range, q.keys, q.from ?? 0, q.to ?? nowSec);
}

async function teamSeries(
  svc: StatsService,
  team: { id: number; time_zone_id: number; version: number },
  range: TStatsRange,
  apiKeys: readonly string[],
  start: number,
  end: number,
  drawnOnly = false,
): Promise<StatsSeries> {
  const nowSec = Math.floor(svc.ctx.now() / 1000);
  const { step, from, to } = clampWindow(range, start, end, nowSec);
  const n = from <= to ? (to - from) / step + 1 : 0;
  const { sums, summed } =
    n > 0 && apiKeys.length > 0
      ? await readSums(svc, step, team.id, apiKeys, from, to, drawnOnly)
      : { sums: new Float64Array(n * POINT_VALUES), summed: new Float64Array(POINT_VALUES) };
  const timeZone = findTimeZone(team.time_zone_id)?.name ?? DEFAULT_TIME_ZONE_NAME;
  return { from, to, step, n, sums, summed, drawnOnly, nodr: team.version === 1, timeZone };
}

const OK_MESSAGE = JSON.stringify(MSG.ok);
/** The point fields a team's answer has: the version-1 ones for those teams only. */
const fieldsOf = (nodr: boolean, drawnOnly = false) =>
  POINT_FIELDS.filter((f) => (nodr || !f.version1Only) && (f.drawn || !drawnOnly));
/** A field's value of point `p` (its values from `sums[p]`): sizes saturate below the 64-bit limit. */
export const fieldValue = (f: (typeof POINT_FIELDS)[number], sums: Float64Array, p: number) => {
  const v = f.read(sums, p);
  return f.unit === 'bytes' ? Math.min(v, SUM_CAP) : v;
};

/**
 * The JSON text of ZStatsResponse for a series, written directly: a day is 1,441 points, and building
 * an object per point, checking each with zod and stringifying them took longer than reading them
 * from the database. The fields are the series table's (POINT_FIELDS; the statistics tests parse every
 * answer with the strict schema); every value is a finite number, which `String` writes as JSON does.
 * A chart's series (`drawnOnly`) has the series the chart draws in its points, all in its totals.
 */
export function statsResponseJson({ from, to, step, n, sums, summed, drawnOnly, nodr }: StatsSeries): string {
  const write = (fields: readonly (typeof POINT_FIELDS)[number][]) => {
    const names = fields.map((f) => `,"${f.field}":`);
    return (values: Float64Array, p: number) => {
      let out = '';
      for (let f = 0; f < fields.length; f++)
        out += names[f] + String(fieldValue(fields[f] as (typeof fields)[number], values, p));
      return out;
    };
  };
  const point = write(fieldsOf(nodr, drawnOnly));
  // Joined once: a string grown by += is a rope that the compression flattens again (≈ 1 ms a day).
  const data: string[] = new Array(n);
  for (let i = 0; i < n; i++) data[i] = `{"datePoint":${from + i * step}${point(sums, i * POINT_VALUES)}}`;
  const totals = `{${write(fieldsOf(nodr))(windowTotals(sums, n, summed), 0).slice(1)}}`;
  return `{"message":${OK_MESSAGE},"data":[${data.join(',')}],"step":${step},"startTimestamp":${from},"endTimestamp":${to},"totals":${totals}}`;
}

const IS_PEAK = Uint8Array.from({ length: POINT_VALUES }, (_, c) =>
  PEAK_COLUMNS.some((p) => p.index === c) ? 1 : 0,
);
/** The window's values in one point: sums (a histogram's buckets too) added, peak series the largest;
 *  `summed` the sums read already summed (StatsSeries). */
function windowTotals(sums: Float64Array, n: number, summed: Float64Array): Float64Array {
  const out = new Float64Array(POINT_VALUES);
  for (let c = 0; c < POINT_VALUES; c++) {
    let total = summed[c] as number;
    for (let at = c; at < n * POINT_VALUES; at += POINT_VALUES) {
      const v = sums[at] as number;
      total = IS_PEAK[c] === 1 ? Math.max(total, v) : total + v;
    }
    out[c] = total;
  }
  return out;
}

/** The points of a series as objects (the CSV, the export API). */
export function statsPoints({ from, step, n, sums, drawnOnly, nodr }: StatsSeries): TStatsPoint[] {
  if (drawnOnly) throw new Error('a series read for a chart holds the drawn series only');
  const fields = fieldsOf(nodr);
  const points: TStatsPoint[] = [];
  for (let i = 0; i < n; i++) {
    const point: Record<string, number> = { datePoint: from + i * step };
    for (const f of fields) point[f.field] = fieldValue(f, sums, i * POINT_VALUES);
    points.push(point as TStatsPoint);
  }
  return points;
}

/** The CSV text of a series (`?format=csv`): the points the JSON answer has, through the contract's
 *  statsCsv, so the API's file and the screen's "Export CSV" are the same. The zone's offset is read
 *  here, at `now`, not for every JSON answer (the Live chart polls every 3 s). */
export function statsResponseCsv(series: StatsSeries, now: number): string {
  const utcOffset = zoneOffsetMinutes(series.timeZone, new Date(now)) / 60;
  return statsCsv(statsPoints(series), { utcOffset, nodr: series.nodr });
}
