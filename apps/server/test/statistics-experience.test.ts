import { PATHS, POINT_FIELDS, ZStatsPoint, ZStatsResponse } from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import type { Json, Res } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { HOUR, M, NOW, statsServer } from './helpers/stats.js';

/**
 * Viewer experience (docs/DESIGN.md §7): the reports' play time, stalls, startup times, plays, failures and
 * peers, stored as series of the series table, merged over keys and over time, answered per point and
 * for the whole window (`totals`); a session that only played is a viewer.
 */

const stats = statsServer();

const ZExact = ZStatsResponse.extend({ data: z.array(ZStatsPoint.strict()) }).strict();

async function setup(n: number) {
  const team = await buildTeam(stats.server.app);
  const domain = await buildDomain(stats.server.app, team.id, { promoted: true });
  const keys = [];
  for (let i = 0; i < n; i++) keys.push(await buildKey(stats.server.app, team.id, domain.id));
  return { team, hashes: keys.map((k) => k.keyHash), as: stats.api.as(team.owner.token) };
}
async function ingest(reports: unknown[]) {
  const res = await ingestAsBrowsers(stats.api, reports);
  expect(res.status).toBe(202);
  return res.body as Json;
}
async function read(
  s: Awaited<ReturnType<typeof setup>>,
  range: 'live' | 'day' | 'week' | 'month',
  keys = s.hashes,
  points?: string,
) {
  const body = {
    apiKeys: keys,
    startTimestamp: 0,
    endTimestamp: NOW + 60,
    team_id: s.team.id,
    clientId: 1,
    ...(points === undefined ? {} : { points }),
  };
  const res: Res<Json> = await s.as.post(
    range === 'live' ? PATHS.statistics.live(s.team.id) : PATHS.statistics[range],
    body,
  );
  expect(res.status).toBe(200);
  return ZExact.parse(res.body);
}
/** A key's id from its hash (the aggregator counts by id). */
async function keyIdOf(hash: string) {
  const row = await stats.server.app.ctx.db
    .selectFrom('keys')
    .select('id')
    .where('key_hash', '=', hash)
    .executeTakeFirstOrThrow();
  return row.id;
}
const base = (apiKey: string, sessionId: string, ts: number) => ({
  apiKey,
  sessionId,
  ts,
  cdnBytes: 0,
  p2pBytes: 0,
});

describe('viewer experience', () => {
  it('sums play time, stalls, plays and failures; startup quantiles from the histogram; a session that only played is a viewer', async () => {
    const s = await setup(2);
    const [k1 = '', k2 = ''] = s.hashes;
    const r = await ingest([
      { ...base(k1, 'a', M), cdnBytes: 1000, playMs: 9000, plays: 1, startupMs: [400], peers: 1 },
      { ...base(k1, 'a', M + 10), p2pBytes: 3000, playMs: 9500, stallMs: 500, peers: 1 },
      // Cached: plays without a byte, and still a viewer.
      { ...base(k2, 'b', M + 5), playMs: 10_000, plays: 2, startupMs: [800, 4000], failures: 1 },
    ]);
    expect(r).toEqual({ accepted: 3, rejected: 0, errors: [] });
    const check = (p: z.infer<typeof ZStatsPoint> | undefined) => {
      expect(p).toMatchObject({
        cdnDwSize: 1000,
        p2pDwSize: 3000,
        usersCount: 2,
        cdnUsersCount: 1,
        p2pUsersCount: 1,
        playMs: 28_500,
        stallMs: 500,
        plays: 3,
        failures: 1,
        // One peer each time: half of each report's bytes could have come from it.
        p2pCeilingSize: 500 + 1500,
      });
      // 400, 800 and 4000 ms: the middle one is in the bucket (750, 1000].
      expect(p?.startupP50Ms).toBeGreaterThan(750);
      expect(p?.startupP50Ms).toBeLessThanOrEqual(1000);
      expect(p?.startupP95Ms).toBeGreaterThan(3000);
      expect(p?.startupP95Ms).toBeLessThanOrEqual(5000);
    };
    // Before the flush (this node's open minute), then from the stored minute, its blocks and rollups.
    const live = await read(s, 'live');
    check(live.data.find((p) => p.datePoint === M));
    await stats.server.app.stats.flush();
    check((await read(s, 'day')).data.find((p) => p.datePoint === M));
    check((await read(s, 'week')).data.find((p) => p.datePoint === HOUR + 40 * 60));
    check((await read(s, 'month')).data.find((p) => p.datePoint === HOUR));
    // The window in one: the same, since every play fell in one minute.
    const day = await read(s, 'day');
    expect(day.totals).toMatchObject({ playMs: 28_500, stallMs: 500, plays: 3, failures: 1, usersCount: 2 });
    // One key alone: its own plays and startup times only.
    const one = await read(s, 'day', [k1]);
    expect(one.totals).toMatchObject({ playMs: 18_500, plays: 1, usersCount: 1 });
    expect(one.totals?.startupP50Ms).toBeGreaterThan(250);
    expect(one.totals?.startupP50Ms).toBeLessThanOrEqual(500);
  });

  it('a chart asking for the drawn series only (`points: drawn`) gets those a point, every series in totals', async () => {
    const s = await setup(1);
    const [k1 = ''] = s.hashes;
    await ingest([
      { ...base(k1, 'a', M), cdnBytes: 700, rejectedBytes: 50, playMs: 9000, plays: 1, startupMs: [400] },
    ]);
    await stats.server.app.stats.flush();
    const all = await read(s, 'day');
    for (const range of ['live', 'day', 'week', 'month'] as const) {
      const drawn = await read(s, range, s.hashes, 'drawn');
      const drawnFields = POINT_FIELDS.filter((f) => f.drawn && !f.version1Only).map((f) => f.field);
      for (const p of drawn.data) expect(Object.keys(p).sort()).toEqual(['datePoint', ...drawnFields].sort());
      expect(drawn.totals).toEqual((await read(s, range)).totals);
    }
    const drawnDay = await read(s, 'day', s.hashes, 'drawn');
    const minute = (r: typeof all) => r.data.find((p) => p.datePoint === M);
    expect(minute(drawnDay)).toEqual({
      datePoint: M,
      cdnDwSize: 700,
      p2pDwSize: 0,
      cdnUsersCount: 1,
      p2pUsersCount: 0,
      usersCount: 1,
      rejectedDwSize: 50,
      verifyDwSize: 0,
      p2pCrossDwSize: 0,
    });
    expect(minute(all)).toMatchObject({ ...minute(drawnDay), playMs: 9000, plays: 1 });
    expect(drawnDay.totals).toMatchObject({ playMs: 9000, plays: 1, cdnDwSize: 700 });
    // Anything else is refused, naming the field.
    const bad: Res<Json> = await s.as.post(PATHS.statistics.day, {
      apiKeys: s.hashes,
      startTimestamp: 0,
      endTimestamp: NOW,
      team_id: s.team.id,
      points: 'some',
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('points');
  });

  it('a chart cut of every block agrees with the whole points: any keys, any range, blocks inside and at the edges', async () => {
    // Three keys with 3 days of minutes every 7 minutes (values spread over every series): a day window
    // starts inside an hour's block and holds whole ones; a week's inside a day's, a month's inside 3
    // days'. Asked alone (its blocks), two of three (the team less one) and all (the team's rows).
    const s = await setup(3);
    const ids = await Promise.all(s.hashes.map((h) => keyIdOf(h)));
    let seed = 7;
    const next = (m: number) => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed % m;
    };
    for (let t = M - 3 * 86_400; t <= M; t += 7 * 60) {
      for (const [k, id] of ids.entries()) {
        if (next(4) === 0) continue;
        stats.server.app.stats.aggregator.add(id, t, `s${k}-${next(5)}`, {
          cdnBytes: next(2 ** 30) * 1024,
          p2pBytes: next(2 ** 20),
          rejectedBytes: next(3) === 0 ? next(5000) : 0,
          playMs: next(60_000),
          stallMs: next(2000),
          plays: next(3),
          failures: next(10) === 0 ? 1 : 0,
          peers: next(6),
          startupMs: next(2) === 0 ? [next(12_000)] : [],
        });
      }
    }
    await stats.server.app.stats.flush();
    const drawnFields = POINT_FIELDS.filter((f) => f.drawn && !f.version1Only).map((f) => f.field);
    for (const keys of [[s.hashes[1] ?? ''], s.hashes.slice(0, 2), s.hashes]) {
      for (const range of ['live', 'day', 'week', 'month'] as const) {
        const whole = await read(s, range, keys);
        const cut = await read(s, range, keys, 'drawn');
        expect(cut.totals, `${range}, ${keys.length} keys`).toEqual(whole.totals);
        // The live window (6 minutes) may fall between two of the minutes.
        if (range !== 'live') expect(whole.totals?.plays).toBeGreaterThan(0);
        const drawnOf = (p: Record<string, number>) => Object.fromEntries(drawnFields.map((f) => [f, p[f]]));
        expect(cut.data).toEqual(whole.data.map((p) => ({ datePoint: p.datePoint, ...drawnOf(p) })));
      }
    }
    // The server keeps the blocks it decoded (BlockCache) only while their version holds: a flush that
    // writes into an hour that ended long ago (a block the charts above decoded) shows at once.
    const day = await read(s, 'day', s.hashes, 'drawn');
    const old = M - 5 * 3600 - ((M - 5 * 3600) % 3600) + 600;
    stats.server.app.stats.aggregator.add(ids[0] ?? 0, old, 'late', {
      cdnBytes: 5000,
      p2pBytes: 0,
      plays: 2,
    });
    await stats.server.app.stats.flush();
    const after = await read(s, 'day', s.hashes, 'drawn');
    expect(after.totals?.plays).toBe((day.totals?.plays ?? 0) + 2);
    const at = (r: typeof day) => r.data.find((p) => p.datePoint === old)?.cdnDwSize ?? 0;
    expect(at(after)).toBe(at(day) + 5000);
    expect(after.totals).toEqual((await read(s, 'day')).totals);
  });

  it('blocks decoded before and blocks written since, of several keys at different hours, each count once', async () => {
    // Two of four keys (read key by key): a late report lands in a past hour of the first and in
    // another past hour of the second. Each key's other hour is still the block decoded before and must
    // not be read and added once more.
    const s = await setup(4);
    const ids = await Promise.all(s.hashes.map((h) => keyIdOf(h)));
    const asked = s.hashes.slice(0, 2);
    const hour = (back: number) => M - back * 3600 - ((M - back * 3600) % 3600) + 600;
    for (const [k, id] of ids.entries()) {
      for (const back of [3, 5]) {
        stats.server.app.stats.aggregator.add(id, hour(back), `s${k}`, {
          cdnBytes: 1000,
          p2pBytes: 0,
          plays: 1,
        });
      }
    }
    await stats.server.app.stats.flush();
    const before = await read(s, 'day', asked, 'drawn');
    expect(before.totals).toMatchObject({ cdnDwSize: 4000, plays: 4 });
    // A late report for the first key's older hour and one for the second key's newer one.
    for (const [k, back] of [
      [0, 3],
      [1, 5],
    ] as const) {
      stats.server.app.stats.aggregator.add(ids[k] ?? 0, hour(back), 'late', {
        cdnBytes: 10,
        p2pBytes: 0,
        plays: 1,
      });
    }
    await stats.server.app.stats.flush();
    const after = await read(s, 'day', asked, 'drawn');
    expect(after.totals).toMatchObject({ cdnDwSize: 4020, plays: 6 });
    expect(after.totals).toEqual((await read(s, 'day', asked)).totals);
  });

  it('quantiles merge over minutes: a window of many minutes ranks every play of it', async () => {
    const s = await setup(1);
    const [k = ''] = s.hashes;
    // 18 fast plays over two minutes and two slow ones in a third: p50 fast, p95 among the slow.
    const reports = [];
    for (let i = 0; i < 18; i++)
      reports.push({ ...base(k, `s${i}`, M - 120 + i * 6), playMs: 1000, plays: 1, startupMs: [200] });
    reports.push({ ...base(k, 'slow', M), playMs: 1000, plays: 1, startupMs: [9000] });
    reports.push({ ...base(k, 'slower', M + 1), playMs: 1000, plays: 1, startupMs: [9500] });
    for (let i = 0; i < reports.length; i += 4) await ingest(reports.slice(i, i + 4));
    await stats.server.app.stats.flush();
    const day = await read(s, 'day');
    expect(day.totals?.plays).toBe(20);
    expect(day.totals?.startupP50Ms).toBeGreaterThan(100);
    expect(day.totals?.startupP50Ms).toBeLessThanOrEqual(250);
    expect(day.totals?.startupP95Ms).toBeGreaterThan(5000);
    expect(day.totals?.startupP95Ms).toBeLessThanOrEqual(10_000);
    // Viewers: the largest minute's (10 of the fast ones), not the window's sessions.
    expect(day.totals?.usersCount).toBe(10);
  });

  it('refuses a report whose experience fields are out of range, naming the field; the rest are kept', async () => {
    const s = await setup(1);
    const [k = ''] = s.hashes;
    const r = await ingest([
      { ...base(k, 'x', M), playMs: -1 },
      { ...base(k, 'x', M), playMs: 600_001 },
      { ...base(k, 'x', M), startupMs: [1.5] },
      { ...base(k, 'x', M), startupMs: Array.from({ length: 21 }, () => 100) },
      { ...base(k, 'x', M), plays: 101 },
      { ...base(k, 'x', M), failures: 'one' },
      { ...base(k, 'x', M), stream: 'x'.repeat(2049) },
      { ...base(k, 'ok', M), playMs: 600_000, plays: 100, startupMs: [0, 600_000] },
    ]);
    expect(r.accepted).toBe(1);
    expect(r.errors.map((e: Json) => [e.index, e.message.split(':')[0]])).toEqual([
      [0, 'playMs'],
      [1, 'playMs'],
      [2, 'startupMs.0'],
      [3, 'startupMs'],
      [4, 'plays'],
      [5, 'failures'],
      [6, 'stream'],
    ]);
  });
});
