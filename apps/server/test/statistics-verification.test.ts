import { BREAKDOWN_UNKNOWN, PATHS, ZBreakdownResponse, ZStatsPoint, ZStatsResponse } from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { UsableKey } from '../src/access/usable-keys.js';
import { QUIET } from './factories.js';
import { storedRows, storedSessions } from './helpers/clickhouse.js';
import type { Api, Json, Res } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { HOUR, M, NOW, statsServer, statsTeam } from './helpers/stats.js';

/**
 * Issue 36, item 4: the bytes the integrity service fetched from a key's origins are counted per key
 * and minute by the server itself (StatsService.countVerification), never by a report, make no
 * viewer, and are answered per point as `verifyDwSize` everywhere points are answered. Runs on SQLite
 * and, with TEST_DATABASE_URL, on PostgreSQL.
 */

const stats = statsServer();
const ZExact = ZStatsResponse.extend({ data: z.array(ZStatsPoint.strict()) }).strict();
const B40 = HOUR + 40 * 60;

type Range = 'live' | 'day' | 'week' | 'month';
const pathOf = (range: Range, teamId: number) =>
  range === 'live' ? PATHS.statistics.live(teamId) : PATHS.statistics[range];

async function read(as: Api, range: Range, teamId: number, apiKeys: string[], points?: 'drawn') {
  const body = {
    apiKeys,
    startTimestamp: 0,
    endTimestamp: NOW,
    team_id: teamId,
    ...(points ? { points } : {}),
  };
  const res: Res<Json> = await as.post(pathOf(range, teamId), body);
  expect(res.status).toBe(200);
  return ZExact.parse(res.body);
}
const at = <P extends { datePoint: number }>(r: { data: P[] }, t: number) =>
  r.data.find((p) => p.datePoint === t);

/** A team with `n` keys, each as the integrity service knows it (a usable key). */
async function setup(n = 1) {
  const s = await statsTeam(stats, n);
  const usable: UsableKey[] = s.keys.map((k) => ({
    id: k.id,
    hash: k.keyHash,
    teamId: s.team.id,
    domainId: null,
  }));
  return { ...s, usable };
}

const verify = (key: UsableKey | undefined, bytes: number, stream?: string) => {
  if (!key) throw new Error('no key');
  // Unbound, as the integrity service is handed it.
  const count = stats.server.app.stats.countVerification;
  count(key, bytes, stream);
};

describe('verification bytes', () => {
  it('are counted in memory, answered live before the flush, stored, and answered by day, week and month', async () => {
    const s = await setup(2);
    const [u1, u2] = s.usable;
    const [k1 = '', k2 = ''] = s.hashes;
    const viewer = await ingestAsBrowsers(stats.api, [
      { apiKey: k1, sessionId: 'v', ts: M, cdnBytes: 1000, p2pBytes: 3000 },
    ]);
    expect(viewer.body.accepted).toBe(1);
    verify(u1, 2500, 'https://cdn.example.com/live/a.m3u8');
    verify(u1, 500);
    verify(u2, 70);
    // Nothing a count: no database write until the flush.
    const stored = () =>
      storedRows(stats.server, 'stats_minute', ['key_id', 'verify_bytes', 'users'], {
        keyIds: [u1?.id ?? 0, u2?.id ?? 0],
      });
    expect(await stored()).toEqual([]);
    const expected = {
      ...QUIET,
      datePoint: M,
      cdnDwSize: 1000,
      cdnUsersCount: 1,
      p2pDwSize: 3000,
      p2pUsersCount: 1,
      usersCount: 1,
      verifyDwSize: 3070,
    };
    // Live merges this node's unflushed minute.
    expect(at(await read(s.as, 'live', s.team.id, s.hashes), M)).toEqual(expected);

    await stats.server.app.stats.flush();
    expect((await stored()).map((r) => [r.key_id, r.verify_bytes, r.users])).toEqual([
      [u1?.id, 3000, 1],
      [u2?.id, 70, 0],
    ]);
    const day = await read(s.as, 'day', s.team.id, s.hashes);
    expect(at(day, M)).toEqual(expected);
    expect(day.totals?.verifyDwSize).toBe(3070);
    // A chart's answer (drawn series only) carries it a point: the saving follows the zoom.
    expect(at(await read(s.as, 'day', s.team.id, s.hashes, 'drawn'), M)).toMatchObject({
      verifyDwSize: 3070,
    });
    expect(at(await read(s.as, 'day', s.team.id, [k2]), M)?.verifyDwSize).toBe(70);
    expect(at(await read(s.as, 'live', s.team.id, s.hashes), M)).toEqual(expected);
    // Rolled up: 20-minute points (week), hours (month), for all the keys and for one.
    for (const [range, bucket] of [
      ['week', B40],
      ['month', HOUR],
    ] as const) {
      const all = await read(s.as, range, s.team.id, s.hashes);
      expect(at(all, bucket)).toMatchObject({ verifyDwSize: 3070, p2pDwSize: 3000 });
      expect(all.totals?.verifyDwSize).toBe(3070);
      expect(at(await read(s.as, range, s.team.id, [k1]), bucket)?.verifyDwSize).toBe(3000);
    }
    const team = await storedRows(stats.server, 'stats_team_hour', ['verify_bytes'], { teamId: s.team.id });
    expect(team.map((r) => r.verify_bytes)).toEqual([3070]);
  });

  it('make no viewer: a minute of verification alone has no session and no viewer', async () => {
    const s = await setup();
    const [u] = s.usable;
    verify(u, 4096, 'https://cdn.example.com/vod/film.m3u8');
    // Nothing else is counted: zero, negative, fractional leftovers of no meaning or not a number.
    verify(u, 0);
    verify(u, -5);
    verify(u, Number.NaN);
    verify(u, Number.POSITIVE_INFINITY);
    const point = { ...QUIET, datePoint: M, verifyDwSize: 4096 };
    expect(at(await read(s.as, 'live', s.team.id, s.hashes), M)).toEqual(point);
    await stats.server.app.stats.flush();
    expect(at(await read(s.as, 'day', s.team.id, s.hashes), M)).toEqual(point);
    expect(await storedSessions(stats.server, u?.id ?? 0)).toBe(0);
  });

  it('cannot be set by a report, whatever field it names', async () => {
    const s = await setup();
    const [k = ''] = s.hashes;
    const res = await ingestAsBrowsers(stats.api, [
      {
        apiKey: k,
        sessionId: 'forger',
        ts: M,
        cdnBytes: 10,
        p2pBytes: 0,
        verifyBytes: 999_999,
        verifyDwSize: 999_999,
        verify_bytes: 999_999,
        stream: 'https://cdn.example.com/live/a.m3u8',
      },
    ]);
    expect(res.status).toBe(202);
    await stats.server.app.stats.flush();
    expect(at(await read(s.as, 'day', s.team.id, s.hashes), M)).toMatchObject({
      cdnDwSize: 10,
      verifyDwSize: 0,
    });
    const rows = await breakdown(s, 'stream');
    expect(rows.map((r) => r.verifyDwSize)).toEqual([0]);
  });

  it('are in the screen CSV and the export API (JSON and CSV), as the dashboard answers them', async () => {
    const s = await setup();
    const [u] = s.usable;
    const [k = ''] = s.hashes;
    await ingestAsBrowsers(stats.api, [{ apiKey: k, sessionId: 'v', ts: M, cdnBytes: 100, p2pBytes: 900 }]);
    verify(u, 900, 'https://cdn.example.com/live/a.m3u8');
    await stats.server.app.stats.flush();
    const made = await s.as.post(PATHS.teamTokens.list(s.team.id), { name: 'Exporter', scope: 'statistics' });
    expect(made.status).toBe(201);
    const machine = stats.api.as(made.body.data.token as string);
    for (const range of ['day', 'live'] as const) {
      const body = { apiKeys: s.hashes, startTimestamp: 0, endTimestamp: NOW, team_id: s.team.id };
      const csv = await s.as.post(`${pathOf(range, s.team.id)}?format=csv`, body);
      expect(csv.status).toBe(200);
      const lines = String(csv.body).split('\r\n');
      const head = (lines[0] as string).split(',');
      expect(head.slice(0, 4)).toEqual(['time', 'timestamp', 'cdnDwSize', 'p2pDwSize']);
      expect(head).toContain('verifyDwSize');
      const row = (lines.find((l) => l.includes(`,${M},`)) as string).split(',');
      expect([row[2], row[3], row[head.indexOf('usersCount')], row[head.indexOf('verifyDwSize')]]).toEqual([
        '100',
        '900',
        '1',
        '900',
      ]);
      const q = new URLSearchParams({ range, from: '0', to: String(NOW), keys: k });
      const json = await machine.get(`${PATHS.statistics.export}?${q}`);
      expect(json.status).toBe(200);
      const parsed = ZExact.parse(json.body);
      expect(at(parsed, M)?.verifyDwSize).toBe(900);
      expect(parsed.totals?.verifyDwSize).toBe(900);
      q.set('format', 'csv');
      const machineCsv = await machine.get(`${PATHS.statistics.export}?${q}`);
      expect(machineCsv.body).toBe(csv.body);
    }
    // The export's breakdown by stream too.
    const q = new URLSearchParams({ range: 'day', to: String(NOW), keys: k, by: 'stream' });
    const byStream = await machine.get(`${PATHS.statistics.export}?${q}`);
    expect(byStream.status).toBe(200);
    expect(ZBreakdownResponse.parse(byStream.body).data).toEqual([
      expect.objectContaining({ name: BREAKDOWN_UNKNOWN, cdnDwSize: 100, verifyDwSize: 0 }),
      expect.objectContaining({ name: 'cdn.example.com/live/a.m3u8', cdnDwSize: 0, verifyDwSize: 900 }),
    ]);
    q.set('format', 'csv');
    const csv = String((await machine.get(`${PATHS.statistics.export}?${q}`)).body);
    const [head = '', ...rows] = csv.trim().split('\r\n');
    const column = head.split(',').indexOf('verifyDwSize');
    expect(column).toBeGreaterThan(0);
    expect(rows.map((r) => r.split(',')[column])).toEqual(['0', '900']);
  });

  it("are attributed to the stream's name in the breakdown by stream (Unknown without one), no other dimension", async () => {
    const s = await setup();
    const [u] = s.usable;
    const [k = ''] = s.hashes;
    await ingestAsBrowsers(stats.api, [
      {
        apiKey: k,
        sessionId: 'v',
        ts: M,
        cdnBytes: 1000,
        p2pBytes: 2000,
        stream: 'https://cdn.example.com/live/a.m3u8?token=1',
      },
    ]);
    verify(u, 1500, 'https://cdn.example.com/live/a.m3u8?token=2');
    verify(u, 500, 'https://cdn.example.com/live/a.m3u8');
    verify(u, 30);
    await stats.server.app.stats.flush();
    const rows = await breakdown(s, 'stream');
    expect(rows.map((r) => [r.name, r.p2pDwSize, r.verifyDwSize, r.usersCount])).toEqual([
      ['cdn.example.com/live/a.m3u8', 2000, 2000, 1],
      [BREAKDOWN_UNKNOWN, 0, 30, 0],
    ]);
    // By country (and the other viewer dimensions): the server's fetches have no viewer.
    const countries = await breakdown(s, 'country');
    expect(countries.map((r) => r.verifyDwSize)).toEqual([0]);
  });
});

async function breakdown(s: Awaited<ReturnType<typeof setup>>, by: string) {
  const res = await s.as.post(PATHS.statistics.breakdown, {
    apiKeys: s.hashes,
    startTimestamp: 0,
    endTimestamp: NOW,
    team_id: s.team.id,
    range: 'day',
    by,
  });
  expect(res.status).toBe(200);
  return ZBreakdownResponse.parse(res.body).data;
}
