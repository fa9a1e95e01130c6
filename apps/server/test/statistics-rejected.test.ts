import { INGEST_MAX_BYTES, PATHS, ZStatsPoint, ZStatsResponse } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MINUTE_BYTES_CAP } from '../src/features/statistics/tables.js';
import { buildDomain, buildKey, buildTeam, QUIET } from './factories.js';
import { storedRows, storedSessions } from './helpers/clickhouse.js';
import { Api, type Json, type Res } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { manualClock, startServer, type TestServer } from './helpers/server.js';

/**
 * Issue 24, item 3: the plugin reports the peer bytes it refused (a segment whose SHA-256 is not the
 * origin's). They are counted apart from the series, stored at every level and answered per point as
 * `rejectedDwSize`; a report of only those makes no viewer.
 */

// 45.5 minutes into an hour: the 20-minute bucket hh:40 and the hour hh:00 hold the recent minutes.
const HOUR = Math.floor(Date.now() / 3_600_000) * 3600;
const NOW = HOUR + 45 * 60 + 30;
const M = NOW - 30;
const B40 = HOUR + 40 * 60;
const B20 = HOUR + 20 * 60;
const clock = manualClock(NOW * 1000);

let server: TestServer;
let api: Api;
beforeAll(async () => {
  // Flushes only when a test asks.
  server = await startServer({ env: { STATS_INGEST_FLUSH_MS: '600000' }, deps: { now: clock } });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
});

const rep = (apiKey: string, sessionId: string, ts: number, cdn: number, p2p: number, rejected?: number) => ({
  apiKey,
  sessionId,
  ts,
  cdnBytes: cdn,
  p2pBytes: p2p,
  ...(rejected === undefined ? {} : { rejectedBytes: rejected }),
});

async function ingest(reports: unknown[]) {
  const res = await ingestAsBrowsers(api, reports);
  expect(res.status).toBe(202);
  return res.body as Json;
}

/** A team with a verified domain and `n` active keys. */
async function setup(n: number) {
  const team = await buildTeam(server.app);
  const domain = await buildDomain(server.app, team.id, { promoted: true });
  const keys = [];
  for (let i = 0; i < n; i++) keys.push(await buildKey(server.app, team.id, domain.id));
  return { team, keys, hashes: keys.map((k) => k.keyHash), as: api.as(team.owner.token) };
}

/** The answers are written as JSON text (statsResponseJson): held to the exact contract shape. */
const ZExact = ZStatsResponse.extend({ data: z.array(ZStatsPoint.strict()) }).strict();
async function read(as: Api, range: 'live' | 'day' | 'week' | 'month', teamId: number, apiKeys: string[]) {
  const body = { apiKeys, startTimestamp: 0, endTimestamp: NOW + 60, team_id: teamId, clientId: 1 };
  const res: Res<Json> = await as.post(
    range === 'live' ? PATHS.statistics.live(teamId) : PATHS.statistics[range],
    body,
  );
  expect(res.status).toBe(200);
  ZExact.parse(res.body);
  return res.body.data as Json[];
}
const at = (data: Json[], t: number) => data.find((p) => p.datePoint === t);

describe('refused peer bytes', () => {
  it('are counted in the minute and answered as rejectedDwSize, live before the flush and day after it', async () => {
    const s = await setup(1);
    const [k] = s.hashes;
    const r = await ingest([rep(k ?? '', 'a', M, 1000, 500, 300), rep(k ?? '', 'a', M + 5, 10, 0, 20)]);
    expect(r).toEqual({ accepted: 2, rejected: 0, errors: [] });
    // Unflushed: the live answer merges this node's open minute.
    expect(at(await read(s.as, 'live', s.team.id, s.hashes), M)).toEqual({
      ...QUIET,
      datePoint: M,
      cdnDwSize: 1010,
      cdnUsersCount: 1,
      p2pDwSize: 500,
      p2pUsersCount: 1,
      usersCount: 1,
      rejectedDwSize: 320,
    });
    await server.app.stats.flush();
    const stored = await storedRows(server, 'stats_minute', ['rejected_bytes', 'p2p_bytes'], {
      keyIds: [s.keys[0]?.id ?? 0],
      minute: M,
    });
    // Refused bytes are not in the P2P series.
    expect(stored).toEqual([{ rejected_bytes: 320, p2p_bytes: 500 }]);
    const day = await read(s.as, 'day', s.team.id, s.hashes);
    expect(at(day, M)).toMatchObject({ p2pDwSize: 500, rejectedDwSize: 320 });
    expect(at(day, M - 60)).toMatchObject({ rejectedDwSize: 0 });
    // Both answer the same once flushed.
    expect(at(await read(s.as, 'live', s.team.id, s.hashes), M)).toEqual(at(day, M));
  });

  it('a report of only refused bytes is counted but adds no viewer', async () => {
    const s = await setup(1);
    const [k = ''] = s.hashes;
    await ingest([rep(k, 'watching', M, 100, 0)]);
    await server.app.stats.flush();
    const r = await ingest([rep(k, 'attacked', M + 1, 0, 0, 4096), rep(k, 'watching', M + 2, 0, 0, 1)]);
    expect(r.accepted).toBe(2);
    const expected = {
      ...QUIET,
      datePoint: M,
      cdnDwSize: 100,
      cdnUsersCount: 1,
      p2pDwSize: 0,
      p2pUsersCount: 0,
      usersCount: 1,
      rejectedDwSize: 4097,
    };
    expect(at(await read(s.as, 'live', s.team.id, s.hashes), M)).toEqual(expected);
    await server.app.stats.flush();
    expect(at(await read(s.as, 'day', s.team.id, s.hashes), M)).toEqual(expected);
    // One session in one minute: 'attacked' made none.
    expect(await storedSessions(server, s.keys[0]?.id ?? 0)).toBe(1);
    // A key-minute of nothing but refused bytes: stored, and still no viewer.
    await ingest([rep(k, 'attacked', M - 60, 0, 0, 77)]);
    await server.app.stats.flush();
    expect(at(await read(s.as, 'day', s.team.id, s.hashes), M - 60)).toEqual({
      ...QUIET,
      datePoint: M - 60,
      cdnDwSize: 0,
      cdnUsersCount: 0,
      p2pDwSize: 0,
      p2pUsersCount: 0,
      usersCount: 0,
      rejectedDwSize: 77,
    });
  });

  it('are summed over keys and rolled up into 20-minute and hourly points, for all or some of the keys', async () => {
    const s = await setup(3);
    const [k1 = '', k2 = '', k3 = ''] = s.hashes;
    const ids = s.keys.map((k) => k.id);
    await ingest([
      rep(k1, 'a', B40 + 60, 10, 10, 100),
      rep(k1, 'b', B40 + 180, 10, 0, 1),
      rep(k2, 'c', B40 + 60, 10, 0, 20),
      rep(k3, 'd', B20 + 18 * 60, 10, 0, 3000),
    ]);
    await server.app.stats.flush();
    const rows = async (table: 'stats_20m' | 'stats_hour') =>
      (await storedRows(server, table, ['key_id', 'bucket', 'rejected_bytes'], { keyIds: ids })).map((r) => [
        r.key_id,
        r.bucket,
        r.rejected_bytes,
      ]);
    expect(await rows('stats_20m')).toEqual([
      [ids[0], B40, 101],
      [ids[1], B40, 20],
      [ids[2], B20, 3000],
    ]);
    expect(await rows('stats_hour')).toEqual([
      [ids[0], HOUR, 101],
      [ids[1], HOUR, 20],
      [ids[2], HOUR, 3000],
    ]);
    const team = async (table: 'stats_team_minute' | 'stats_team_20m' | 'stats_team_hour') =>
      (await storedRows(server, table, ['rejected_bytes'], { teamId: s.team.id })).reduce(
        (n, r) => n + r.rejected_bytes,
        0,
      );
    expect(await team('stats_team_minute')).toBe(3121);
    expect(await team('stats_team_20m')).toBe(3121);
    expect(await team('stats_team_hour')).toBe(3121);

    // Minutes: each key alone, two of them (the team total less the third), all of them.
    const day = async (keys: string[]) => await read(s.as, 'day', s.team.id, keys);
    expect(at(await day([k1]), B40 + 60)?.rejectedDwSize).toBe(100);
    expect(at(await day([k1, k2]), B40 + 60)?.rejectedDwSize).toBe(120);
    expect(at(await day([k1, k2, k3]), B20 + 18 * 60)?.rejectedDwSize).toBe(3000);
    expect(at(await day([k1, k2]), B20 + 18 * 60)?.rejectedDwSize).toBe(0);
    // 20-minute points (week) and hours (month): summed over the bucket's minutes and over the keys.
    for (const [range, b] of [
      ['week', B40],
      ['month', HOUR],
    ] as const) {
      expect(at(await read(s.as, range, s.team.id, [k1, k2, k3]), b)?.rejectedDwSize).toBe(
        range === 'week' ? 121 : 3121,
      );
      expect(at(await read(s.as, range, s.team.id, [k1, k2]), b)?.rejectedDwSize).toBe(121);
      expect(at(await read(s.as, range, s.team.id, [k1, k3]), b)?.rejectedDwSize).toBe(
        range === 'week' ? 101 : 3101,
      );
      expect(at(await read(s.as, range, s.team.id, [k2]), b)?.rejectedDwSize).toBe(20);
    }
    expect(at(await read(s.as, 'week', s.team.id, [k3]), B20)?.rejectedDwSize).toBe(3000);
  });

  it('a replayed report (same seq) is not counted again', async () => {
    const s = await setup(1);
    const [k = ''] = s.hashes;
    const once = { ...rep(k, 'r', M, 5, 5, 50), seq: 7 };
    await ingest([once]);
    await ingest([once]);
    await server.app.stats.flush();
    expect(at(await read(s.as, 'day', s.team.id, s.hashes), M)?.rejectedDwSize).toBe(50);
  });

  it('saturate like the other byte series, in memory and in the stored minute', async () => {
    const s = await setup(1);
    const id = s.keys[0]?.id ?? 0;
    const agg = server.app.stats.aggregator;
    const stored = async () =>
      (await storedRows(server, 'stats_minute', ['rejected_bytes'], { keyIds: [id], minute: M })).map(
        (r) => r.rejected_bytes,
      );
    agg.add(id, M, 'x', { cdnBytes: 0, p2pBytes: 0, rejectedBytes: MINUTE_BYTES_CAP });
    agg.add(id, M + 1, 'x', { cdnBytes: 0, p2pBytes: 0, rejectedBytes: MINUTE_BYTES_CAP });
    await server.app.stats.flush();
    expect(await stored()).toEqual([MINUTE_BYTES_CAP]);
    agg.add(id, M + 2, 'x', { cdnBytes: 0, p2pBytes: 0, rejectedBytes: MINUTE_BYTES_CAP });
    await server.app.stats.flush();
    expect(await stored()).toEqual([MINUTE_BYTES_CAP]);
    expect(at(await read(s.as, 'day', s.team.id, s.hashes), M)?.rejectedDwSize).toBe(MINUTE_BYTES_CAP);
  });

  it('a negative, fractional, non-numeric or too large count is refused, naming the field; the ceiling is accepted', async () => {
    const s = await setup(1);
    const [k = ''] = s.hashes;
    const r = await ingest([
      rep(k, 'v', M, 1, 0, -1),
      rep(k, 'v', M, 1, 0, 2.5),
      rep(k, 'v', M, 1, 0, INGEST_MAX_BYTES + 1),
      { ...rep(k, 'v', M, 1, 0), rejectedBytes: '12' },
      rep(k, 'v', M, 1, 0, INGEST_MAX_BYTES),
      rep(k, 'v', M, 1, 0, 0),
    ]);
    expect(r.accepted).toBe(2);
    expect(r.rejected).toBe(4);
    expect(r.errors).toEqual([
      { index: 0, message: 'rejectedBytes: Must not be negative' },
      { index: 1, message: 'rejectedBytes: Must be a whole number' },
      { index: 2, message: `rejectedBytes: Must be at most ${INGEST_MAX_BYTES} bytes per report` },
      { index: 3, message: 'rejectedBytes: Must be a number' },
    ]);
    await server.app.stats.flush();
    expect(at(await read(s.as, 'day', s.team.id, s.hashes), M)).toMatchObject({
      cdnDwSize: 2,
      rejectedDwSize: INGEST_MAX_BYTES,
    });
  });
});
