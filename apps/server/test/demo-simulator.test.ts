import { BREAKDOWN_DIMENSIONS, columnIndex, INGEST_MAX_SKEW_S, ZIngestReport } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillHistory } from '../src/demo/backfill.js';
import {
  DemoBreakdowns,
  historyMinutes,
  LiveSimulation,
  MEAN_BYTES_PER_S,
  p2pShare,
} from '../src/demo/simulator.js';
import { statsDb } from '../src/features/statistics/tables.js';
import { buildKey, buildTeam } from './factories.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { STATS_INGEST_FLUSH_MS: '600000' } });
});
afterAll(async () => {
  await server?.close();
});

describe('traffic simulator', () => {
  it('gives peers a share that grows with the audience, capped at 85 %', () => {
    expect(p2pShare(0)).toBeCloseTo(0.2);
    const shares = [1, 10, 100, 1000, 100_000].map(p2pShare);
    for (let i = 1; i < shares.length; i++) expect(shares[i]).toBeGreaterThanOrEqual(shares[i - 1] ?? 0);
    expect(p2pShare(1e9)).toBe(0.85);
  });

  it('live sessions join and report valid bytes every 10–20 s, accepted by the real ingest', async () => {
    const team = await buildTeam(server.app);
    const key = await buildKey(server.app, team.id, null);
    const sim = new LiveSimulation([key.keyHash], 50, 7);
    const t0 = Date.now();
    const reports = [];
    for (let s = 0; s <= 60; s++) reports.push(...sim.tick(t0 + s * 1000));
    expect(sim.viewers).toBeGreaterThan(5);
    expect(reports.length).toBeGreaterThan(sim.viewers);
    for (const r of reports) {
      expect(ZIngestReport.safeParse(r).success).toBe(true);
      expect(Math.abs(r.ts - t0 / 1000)).toBeLessThan(INGEST_MAX_SKEW_S);
    }
    const res = await server.app.stats.ingest(reports.filter((r) => r.ts <= Date.now() / 1000 + 60));
    expect(res.rejected).toBe(0);
  });

  it('a warm start has the whole audience report within 10 s the bytes since the minute began', () => {
    const sim = new LiveSimulation(['k'], 200, 3);
    const t0 = Math.floor(Date.now() / 60_000) * 60_000 + 40_000; // 40 s into a minute
    sim.warmStart(t0);
    const audience = sim.viewers;
    expect(audience).toBeGreaterThan(20);
    const reports = [];
    for (let s = 0; s <= 10; s++) reports.push(...sim.tick(t0 + s * 1000));
    const firstOf = new Map<string, (typeof reports)[number]>();
    for (const r of reports) if (!firstOf.has(r.sessionId)) firstOf.set(r.sessionId, r);
    expect(firstOf.size).toBeGreaterThanOrEqual(audience * 0.9);
    // Each first report covers the 40 s before the start as well: its playing time, and its bytes at
    // no less than a fifth of the mean rate (a phone on a mobile network plays a low bitrate).
    const minuteStart = t0 / 1000 - 40;
    for (const r of firstOf.values()) {
      expect(r.ts).toBeLessThanOrEqual(t0 / 1000 + 10);
      expect(r.playMs).toBeGreaterThanOrEqual((r.ts - minuteStart - 1) * 1000);
      expect(r.cdnBytes + r.p2pBytes + r.nodrBytes).toBeGreaterThanOrEqual(
        Math.floor(0.2 * MEAN_BYTES_PER_S * (r.ts - minuteStart)),
      );
    }
  });

  it('backfills history through the aggregation code: rollups for every day, minutes for 2 days', async () => {
    const team = await buildTeam(server.app);
    const key = await buildKey(server.app, team.id, null);
    const now = Date.now();
    const t = performance.now();
    const { minutes } = await backfillHistory(server.app.ctx.statsStore, [{ id: key.id, peak: 100 }], 3, now);
    expect(performance.now() - t).toBeLessThan(10_000);
    expect(minutes).toBe(3 * 1440);
    const db = statsDb(server.app.ctx.db);
    const count = async (table: 'stats_minute' | 'stats_20m' | 'stats_hour') =>
      (await db.selectFrom(table).select('key_id').where('key_id', '=', key.id).execute()).length;
    expect(await count('stats_hour')).toBeGreaterThanOrEqual(72);
    expect(await count('stats_20m')).toBeGreaterThanOrEqual(216);
    const m = await count('stats_minute');
    expect(m).toBeGreaterThan(2 * 1440 - 30);
    expect(m).toBeLessThanOrEqual(2 * 1440);
    const peak = await db
      .selectFrom('stats_hour')
      .select((eb) => [eb.fn.max('cdn_users').as('u'), eb.fn.sum<number>('p2p_bytes').as('p')])
      .where('key_id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(Number(peak.u)).toBeGreaterThan(50);
    expect(Number(peak.p)).toBeGreaterThan(0);
    // The simulator's own audience is the viewers: each of them in the CDN series, some also in P2P.
    const rows = await db
      .selectFrom('stats_minute')
      .select(['cdn_users', 'p2p_users', 'users'])
      .where('key_id', '=', key.id)
      .execute();
    expect(rows.every((r) => r.users === r.cdn_users && r.users >= r.p2p_users)).toBe(true);
    expect(rows.some((r) => r.users < r.cdn_users + r.p2p_users)).toBe(true);
  });

  it('has some P2P bytes cross networks: 5–30 % of them, more on mobile networks, live and in history', async () => {
    const sim = new LiveSimulation(['k'], 400, 11);
    const t0 = Date.now();
    sim.warmStart(t0);
    let p2p = 0;
    let cross = 0;
    for (let s = 0; s <= 30; s++)
      for (const r of sim.tick(t0 + s * 1000)) {
        expect(r.p2pCrossBytes ?? 0).toBeLessThanOrEqual(r.p2pBytes);
        p2p += r.p2pBytes;
        cross += r.p2pCrossBytes ?? 0;
      }
    expect(cross / p2p).toBeGreaterThan(0.05);
    expect(cross / p2p).toBeLessThan(0.3);

    const breakdowns = new DemoBreakdowns();
    const from = Math.floor(t0 / 3_600_000) * 3600 - 3 * 3600;
    let minuteP2p = 0;
    let minuteCross = 0;
    for (const m of historyMinutes([{ id: 1, peak: 300 }], from, from + 3 * 3600, 5, { breakdowns })) {
      minuteP2p += m.values[columnIndex('p2pBytes')] ?? 0;
      minuteCross += m.values[columnIndex('crossBytes')] ?? 0;
    }
    expect(minuteCross / minuteP2p).toBeGreaterThan(0.05);
    expect(minuteCross / minuteP2p).toBeLessThan(0.3);
    const networkDim = BREAKDOWN_DIMENSIONS.indexOf('network');
    const byNetwork = new Map<string, { p2p: number; cross: number }>();
    for (const row of breakdowns.take()) {
      const p = row.values[columnIndex('p2pBytes')] ?? 0;
      const c = row.values[columnIndex('crossBytes')] ?? 0;
      expect(c).toBeLessThanOrEqual(p);
      if (row.dim !== networkDim) continue;
      const sum = byNetwork.get(row.name) ?? { p2p: 0, cross: 0 };
      byNetwork.set(row.name, { p2p: sum.p2p + p, cross: sum.cross + c });
    }
    const part = (name: string) => {
      const n = byNetwork.get(name);
      return n && n.p2p > 0 ? n.cross / n.p2p : Number.NaN;
    };
    expect(part('AS21928 T-Mobile USA, Inc.')).toBeGreaterThan(
      part('AS7922 Comcast Cable Communications, LLC') + 0.1,
    );
  });
});
