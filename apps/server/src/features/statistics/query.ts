import {
  DEFAULT_TIME_ZONE_NAME,
  findTimeZone,
  MSG,
  STATS_RANGES,
  statsCsv,
  type TStatsPoint,
  type TStatsQuery,
  type TStatsRange,
  zoneOffsetMinutes,
} from '@tlprt/contract';
import { authorizeTeam } from '../../access/team-access.js';
import type { UserRow } from '../../db/schema.js';
import { listTeamKeys, POINT_VALUES, REJECTED, readPoints } from './queries.js';
import type { StatsService } from './service.js';
import { SUM_CAP, statsDb } from './tables.js';

/** The window actually served: clamped to the range's window ending at server time, step-aligned. */
function clampWindow(range: TStatsRange, start: number, end: number, nowSec: number) {
  const { step, window } = STATS_RANGES[range];
  const from = Math.max(start, nowSec - window);
  const to = Math.min(end, nowSec);
  return { step, from: from - (from % step), to: to - (to % step) };
}

/**
 * The summed points of the asked keys, POINT_VALUES per point from `from` (DESIGN §7). Minutes are
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
): Promise<Float64Array> {
  const n = (to - from) / step + 1;
  const { db } = svc.ctx;
  // The team's keys split into the asked ones and the rest; hashes of other teams match nothing.
  const asked = new Set(apiKeys);
  const keyIds: number[] = [];
  const leftOut: number[] = [];
  for (const k of await listTeamKeys(db, teamId)) (asked.has(k.key_hash) ? keyIds : leftOut).push(k.id);
  if (keyIds.length === 0) return new Float64Array(n * POINT_VALUES);

  const { sums, teamPeaks, othersViewers } = await readPoints(
    statsDb(db),
    step,
    teamId,
    keyIds,
    leftOut,
    from,
    to,
  );
  if (teamPeaks && othersViewers === 0) {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < 4; j++) {
        const peak = teamPeaks[i * 4 + j] ?? -1;
        if (peak >= 0) sums[i * POINT_VALUES + 3 + j] = peak;
      }
    }
  }
  if (step !== 60) return sums;
  // Minute ranges include what this node has not written yet (the current, open minute).
  for (const [minute, u] of svc.aggregator.unflushed(new Set(keyIds), from, to)) {
    const i = (minute - from) / 60;
    if (i < 0 || i >= n) continue;
    const p = i * POINT_VALUES;
    sums.set(
      [
        (sums[p] ?? 0) + u.bytes[0],
        (sums[p + 1] ?? 0) + u.bytes[1],
        (sums[p + 2] ?? 0) + u.bytes[2],
        (sums[p + 3] ?? 0) + u.users[0],
        (sums[p + 4] ?? 0) + u.users[1],
        (sums[p + 5] ?? 0) + u.users[2],
        (sums[p + 6] ?? 0) + u.users[3],
        (sums[p + REJECTED] ?? 0) + u.rejected,
      ],
      p,
    );
  }
  return sums;
}

/** A chart's answer before it is written out: `n` points of `step` seconds from `from`, POINT_VALUES
 *  sums each, and whether the team is of version 1 (its points carry the nodr series). */
export interface StatsSeries {
  from: number;
  to: number;
  step: number;
  n: number;
  sums: Float64Array;
  nodr: boolean;
  /** The team's time zone (the CSV's times are in its offset now, as the chart's). */
  timeZone: string;
}

/** POST /stats/v3/dashboard/{range}: one zero-filled point per step, oldest first (DESIGN §7). */
export async function queryStats(
  svc: StatsService,
  actor: UserRow,
  range: TStatsRange,
  teamId: number,
  q: TStatsQuery,
): Promise<StatsSeries> {
  const access = await authorizeTeam(svc.ctx, actor, teamId, 'statistics.read');
  const nowSec = Math.floor(svc.ctx.now() / 1000);
  const { step, from, to } = clampWindow(range, q.startTimestamp, q.endTimestamp, nowSec);
  const n = from <= to ? (to - from) / step + 1 : 0;
  const sums =
    n > 0 && q.apiKeys.length > 0
      ? await readSums(svc, step, teamId, q.apiKeys, from, to)
      : new Float64Array(n * POINT_VALUES);
  const timeZone = findTimeZone(access.team.time_zone_id)?.name ?? DEFAULT_TIME_ZONE_NAME;
  return { from, to, step, n, sums, nodr: access.team.version === 1, timeZone };
}

const OK_MESSAGE = JSON.stringify(MSG.ok);

/**
 * The JSON text of ZStatsResponse for a series, written directly: a day is 1,441 points, and building
 * an object per point, checking each with zod and stringifying them took longer than reading them
 * from the database. The shape is ZStatsPoint's, field for field in its order (the statistics tests
 * parse every answer with the strict schema); every value is a finite number, which `String` writes
 * as JSON does.
 */
export function statsResponseJson({ from, to, step, n, sums, nodr }: StatsSeries): string {
  const bytes = (v: number) => String(Math.min(v, SUM_CAP));
  let data = '';
  for (let i = 0; i < n; i++) {
    const p = i * POINT_VALUES;
    const nodrFields = nodr
      ? `,"nodrDwSize":${bytes(sums[p + 2] ?? 0)},"nodrUsersCount":${sums[p + 5] ?? 0}`
      : '';
    data += `${i === 0 ? '' : ','}{"datePoint":${from + i * step},"cdnDwSize":${bytes(sums[p] ?? 0)},"cdnUsersCount":${sums[p + 3] ?? 0},"p2pDwSize":${bytes(sums[p + 1] ?? 0)},"p2pUsersCount":${sums[p + 4] ?? 0}${nodrFields},"usersCount":${sums[p + 6] ?? 0},"rejectedDwSize":${bytes(sums[p + REJECTED] ?? 0)}}`;
  }
  return `{"message":${OK_MESSAGE},"data":[${data}],"step":${step},"startTimestamp":${from},"endTimestamp":${to}}`;
}

/** The CSV text of a series (`?format=csv`): the points the JSON answer has, through the contract's
 *  statsCsv, so the API's file and the screen's "Export CSV" are the same. The zone's offset is read
 *  here, at `now`, not for every JSON answer (the Live chart polls every 3 s). */
export function statsResponseCsv({ from, step, n, sums, nodr, timeZone }: StatsSeries, now: number): string {
  const utcOffset = zoneOffsetMinutes(timeZone, new Date(now)) / 60;
  const bytes = (v: number) => Math.min(v, SUM_CAP);
  const points: TStatsPoint[] = [];
  for (let i = 0; i < n; i++) {
    const p = i * POINT_VALUES;
    points.push({
      datePoint: from + i * step,
      cdnDwSize: bytes(sums[p] ?? 0),
      cdnUsersCount: sums[p + 3] ?? 0,
      p2pDwSize: bytes(sums[p + 1] ?? 0),
      p2pUsersCount: sums[p + 4] ?? 0,
      ...(nodr ? { nodrDwSize: bytes(sums[p + 2] ?? 0), nodrUsersCount: sums[p + 5] ?? 0 } : {}),
      usersCount: sums[p + 6] ?? 0,
      rejectedDwSize: bytes(sums[p + REJECTED] ?? 0),
    });
  }
  return statsCsv(points, { utcOffset, nodr });
}
