import {
  MSG,
  STATS_RANGES,
  type TStatsPoint,
  type TStatsQuery,
  type TStatsRange,
  type TStatsResponse,
} from '@tlprt/contract';
import { sql } from 'kysely';
import { authorizeTeam } from '../../access/team-access.js';
import type { UserRow } from '../../db/schema.js';
import type { StatsService } from './service.js';
import { cappedSum, isPostgres, STATS_LEVELS, type StatsDb, statsDb } from './tables.js';

/** The window actually served: clamped to the range's window ending at server time, step-aligned. */
function clampWindow(range: TStatsRange, start: number, end: number, nowSec: number) {
  const { step, window } = STATS_RANGES[range];
  const from = Math.max(start, nowSec - window);
  const to = Math.min(end, nowSec);
  return { step, from: from - (from % step), to: to - (to % step) };
}

/** POST /stats/v3/dashboard/{range}: one zero-filled point per step, oldest first (DESIGN §7). */
export async function queryStats(
  svc: StatsService,
  actor: UserRow,
  range: TStatsRange,
  teamId: number,
  q: TStatsQuery,
): Promise<TStatsResponse> {
  const { ctx } = svc;
  const access = await authorizeTeam(ctx, actor, teamId, 'statistics.read');
  const nowSec = Math.floor(ctx.now() / 1000);
  const { step, from, to } = clampWindow(range, q.startTimestamp, q.endTimestamp, nowSec);
  const nodr = access.team.version === 1;
  /** cdn, p2p, nodr bytes; cdn, p2p, nodr users; the distinct viewers. */
  type Seven = [number, number, number, number, number, number, number];
  const points = new Map<number, Seven>();
  if (from <= to) for (let t = from; t <= to; t += step) points.set(t, [0, 0, 0, 0, 0, 0, 0]);

  // The team's keys split into the asked ones and the rest; hashes of other teams match nothing.
  const keyIds: number[] = [];
  const leftOut: number[] = [];
  if (q.apiKeys.length > 0 && points.size > 0) {
    const asked = new Set(q.apiKeys);
    for (const k of await ctx.db
      .selectFrom('keys')
      .select(['id', 'key_hash'])
      .where('team_id', '=', teamId)
      .execute()) {
      (asked.has(k.key_hash) ? keyIds : leftOut).push(k.id);
    }
  }

  if (keyIds.length > 0) {
    const rows = await readPoints(statsDb(ctx.db), step, teamId, keyIds, leftOut, from, to);
    for (const r of rows) {
      const p = points.get(Number(r.t));
      if (!p) continue;
      p[0] += Number(r.cb);
      p[1] += Number(r.pb);
      p[2] += Number(r.nb);
      p[3] += Number(r.cu);
      p[4] += Number(r.pu);
      p[5] += Number(r.nu);
      p[6] += Number(r.u);
    }
    // Minute ranges include what this node has not written yet (the current, open minute).
    if (step === 60) {
      for (const [minute, u] of svc.aggregator.unflushed(new Set(keyIds), from, to)) {
        const p = points.get(minute);
        if (!p) continue;
        p[0] += u.bytes[0];
        p[1] += u.bytes[1];
        p[2] += u.bytes[2];
        p[3] += u.users[0];
        p[4] += u.users[1];
        p[5] += u.users[2];
        p[6] += u.users[3];
      }
    }
  }

  const data: TStatsPoint[] = [];
  for (const [t, p] of points) {
    const point: TStatsPoint = {
      datePoint: t,
      cdnDwSize: p[0],
      cdnUsersCount: p[3],
      p2pDwSize: p[1],
      p2pUsersCount: p[4],
      usersCount: p[6],
    };
    if (nodr) {
      point.nodrDwSize = p[2];
      point.nodrUsersCount = p[5];
    }
    data.push(point);
  }
  return { message: MSG.ok, data, step, startTimestamp: from, endTimestamp: to };
}

interface PointRow {
  t: number;
  cb: number;
  pb: number;
  nb: number;
  cu: number;
  pu: number;
  nu: number;
  u: number;
}

/**
 * The stored points of some of a team's keys between two times. Most of a team's keys (the "Active
 * traffic" list, usually all of them) are read as the team total minus the keys left out, one row per
 * point instead of one per key and point; fewer keys are summed directly. Both give the same numbers:
 * a team total is the plain sum of its per-key rows. One statement, so one snapshot on PostgreSQL.
 */
async function readPoints(
  db: StatsDb,
  step: number,
  teamId: number,
  keyIds: number[],
  leftOut: number[],
  from: number,
  to: number,
): Promise<PointRow[]> {
  const level = STATS_LEVELS.find((l) => l.size === step) ?? STATS_LEVELS[0];
  const pg = isPostgres(db);
  const time = sql.ref(level.time);
  // Grouped by `time + 0`, not the bare column: otherwise SQLite walks the time index (for its order)
  // through every key's rows instead of the (key, time) primary key through the asked keys' rows.
  if (leftOut.length >= keyIds.length) {
    return (
      await sql<PointRow>`
        select ${time} + 0 as t, ${cappedSum(pg, sql`cdn_bytes`)} as cb, ${cappedSum(pg, sql`p2p_bytes`)} as pb,
               ${cappedSum(pg, sql`nodr_bytes`)} as nb, sum(cdn_users) as cu, sum(p2p_users) as pu, sum(nodr_users) as nu,
               sum(users) as u
        from ${sql.table(level.key)}
        where key_id in (${sql.join(keyIds)}) and ${time} >= ${from} and ${time} <= ${to}
        group by ${time} + 0`.execute(db)
    ).rows;
  }
  const total = sql`
    select ${time} as t, cdn_bytes as cb, p2p_bytes as pb, nodr_bytes as nb, cdn_users as cu, p2p_users as pu, nodr_users as nu,
           users as u
    from ${sql.table(level.team)}
    where team_id = ${teamId} and ${time} >= ${from} and ${time} <= ${to}`;
  if (leftOut.length === 0) return (await sql<PointRow>`${total}`.execute(db)).rows;
  // The left-out keys' rows negated next to the totals, summed per point.
  return (
    await sql<PointRow>`
      select t, ${cappedSum(pg, sql`cb`)} as cb, ${cappedSum(pg, sql`pb`)} as pb, ${cappedSum(pg, sql`nb`)} as nb,
             sum(cu) as cu, sum(pu) as pu, sum(nu) as nu, sum(u) as u
      from (
        ${total}
        union all
        select ${time}, -cdn_bytes, -p2p_bytes, -nodr_bytes, -cdn_users, -p2p_users, -nodr_users, -users
        from ${sql.table(level.key)}
        where key_id in (${sql.join(leftOut)}) and ${time} >= ${from} and ${time} <= ${to}
      ) u
      group by t`.execute(db)
  ).rows;
}
