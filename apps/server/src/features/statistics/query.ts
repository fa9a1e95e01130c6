import {
  MSG,
  STATS_RANGES,
  type TStatsPoint,
  type TStatsQuery,
  type TStatsRange,
  type TStatsResponse,
} from '@tlprt/contract';
import type { UserRow } from '../../db/schema.js';
import { authorizeTeam } from '../teams/policy.js';
import type { StatsService } from './service.js';
import { statsDb } from './tables.js';

/** The window actually served: clamped to the range's window ending at server time, step-aligned. */
export function clampWindow(range: TStatsRange, start: number, end: number, nowSec: number) {
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
  type Six = [number, number, number, number, number, number];
  const points = new Map<number, Six>();
  if (from <= to) for (let t = from; t <= to; t += step) points.set(t, [0, 0, 0, 0, 0, 0]);

  const hashes = [...new Set(q.apiKeys)];
  const keyIds =
    hashes.length === 0 || points.size === 0
      ? []
      : (
          await ctx.db
            .selectFrom('keys')
            .select('id')
            .where('team_id', '=', teamId)
            .where('key_hash', 'in', hashes)
            .execute()
        ).map((r) => r.id);

  if (keyIds.length > 0) {
    const db = statsDb(ctx.db);
    const rows =
      step === 60
        ? await db
            .selectFrom('stats_minute')
            .select((eb) => [
              'minute as t',
              eb.fn.sum<number>('cdn_bytes').as('cb'),
              eb.fn.sum<number>('p2p_bytes').as('pb'),
              eb.fn.sum<number>('nodr_bytes').as('nb'),
              eb.fn.sum<number>('cdn_users').as('cu'),
              eb.fn.sum<number>('p2p_users').as('pu'),
              eb.fn.sum<number>('nodr_users').as('nu'),
            ])
            .where('key_id', 'in', keyIds)
            .where('minute', '>=', from)
            .where('minute', '<=', to)
            .groupBy('minute')
            .execute()
        : await db
            .selectFrom(step === 1200 ? 'stats_20m' : 'stats_hour')
            .select((eb) => [
              'bucket as t',
              eb.fn.sum<number>('cdn_bytes').as('cb'),
              eb.fn.sum<number>('p2p_bytes').as('pb'),
              eb.fn.sum<number>('nodr_bytes').as('nb'),
              eb.fn.sum<number>('cdn_users').as('cu'),
              eb.fn.sum<number>('p2p_users').as('pu'),
              eb.fn.sum<number>('nodr_users').as('nu'),
            ])
            .where('key_id', 'in', keyIds)
            .where('bucket', '>=', from)
            .where('bucket', '<=', to)
            .groupBy('bucket')
            .execute();
    for (const r of rows) {
      const p = points.get(Number(r.t));
      if (!p) continue;
      p[0] += Number(r.cb);
      p[1] += Number(r.pb);
      p[2] += Number(r.nb);
      p[3] += Number(r.cu);
      p[4] += Number(r.pu);
      p[5] += Number(r.nu);
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
    };
    if (nodr) {
      point.nodrDwSize = p[2];
      point.nodrUsersCount = p[5];
    }
    data.push(point);
  }
  return { message: MSG.ok, data, step, startTimestamp: from, endTimestamp: to };
}
