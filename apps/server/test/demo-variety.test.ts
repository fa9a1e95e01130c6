import { PATHS, TIME_ZONES, ZBreakdownResponse } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PLAYER_KEY, seedDemo } from '../src/demo/seed.js';
import { LiveSimulation } from '../src/demo/simulator.js';
import { startDemoTraffic } from '../src/demo/traffic.js';
import { statsDb } from '../src/features/statistics/tables.js';
import { Api } from './helpers/http.js';
import { startServer, type TestServer } from './helpers/server.js';

/**
 * The demo's data varies as real audiences do (issue 39): the demo seeded into a fresh database, its
 * history written as the demo server writes it (three days here, not thirty), and the demo account's
 * breakdowns read through the dashboard API.
 */

const TOKYO = TIME_ZONES.find((z) => z.name === 'Asia/Tokyo')?.id ?? 0;

let server: TestServer;
let as: ReturnType<Api['as']>;
let teamId: number;
let hashes: string[];
beforeAll(async () => {
  server = await startServer({ env: { STATS_INGEST_FLUSH_MS: '600000' } });
  const { app } = server;
  await seedDemo(app.ctx);
  const team = await app.ctx.db
    .selectFrom('teams')
    .select('id')
    .where('name', '=', 'Demo Video Co')
    .executeTakeFirstOrThrow();
  teamId = team.id;
  // The team watches from Tokyo: its evenings are 10:00–14:00 UTC.
  await app.ctx.db.updateTable('teams').set({ time_zone_id: TOKYO }).where('id', '=', teamId).execute();
  await startDemoTraffic(app, DEMO_ACCOUNTS.demo.email, 'Demo Video Co', DEMO_PLAYER_KEY, 3);
  const keys = await app.ctx.db.selectFrom('keys').select('key_hash').where('team_id', '=', teamId).execute();
  hashes = keys.map((k) => k.key_hash);
  const api = new Api(server.base);
  const login = await api.post(PATHS.auth.login, {
    login: DEMO_ACCOUNTS.demo.email,
    password: DEMO_ACCOUNTS.demo.password,
  });
  expect(login.status).toBe(200);
  as = api.as(login.body.access_token);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function breakdown(by: string) {
  const res = await as.post(PATHS.statistics.breakdown, {
    apiKeys: hashes,
    startTimestamp: 0,
    endTimestamp: Math.floor(Date.now() / 1000),
    team_id: teamId,
    range: 'week',
    by,
  });
  expect(res.status).toBe(200);
  const rows = ZBreakdownResponse.parse(res.body).data;
  const byName = new Map(rows.map((r) => [r.name, r]));
  const row = (name: string) => {
    const r = byName.get(name);
    if (!r) throw new Error(`no ${by} row ${name}: ${[...byName.keys()].join(', ')}`);
    return r;
  };
  const share = (name: string) => {
    const r = row(name);
    return r.p2pDwSize / (r.cdnDwSize + r.p2pDwSize + (r.nodrDwSize ?? 0));
  };
  return { rows, row, share };
}

/** The distinct values among the rows, to two decimals. */
const distinct = (values: number[]) => new Set(values.map((v) => v.toFixed(2))).size;

describe('demo data', () => {
  it('live streams share more than VOD, the slow trailer starts late, one stream refuses bytes', async () => {
    const s = await breakdown('stream');
    const live = s.share('media.example.com/live/main.m3u8');
    const vod = s.share('media.example.com/vod/episode-1.m3u8');
    expect(live).toBeGreaterThan(vod + 0.05);
    expect(s.share('media.example.com/live/backup.m3u8')).toBeGreaterThan(vod);
    expect(s.share('media.example.com/vod/trailer.m3u8')).toBeLessThan(vod);
    const trailer = s.row('media.example.com/vod/trailer.m3u8').startupP95Ms;
    const others = s.rows.filter((r) => !r.name.endsWith('trailer.m3u8')).map((r) => r.startupP95Ms);
    expect(trailer).toBeGreaterThan(2000);
    expect(trailer).toBeGreaterThan(1.4 * Math.max(...others));
    // A peer sent altered segments of episode 2 now and then (about three hours a day): only there.
    const refused = s.rows.filter((r) => r.rejectedDwSize > 0).map((r) => r.name);
    expect(refused).toEqual(['media.example.com/vod/episode-2.m3u8']);
  });

  it('Safari plays from the CDN only; mobile networks share less than fixed ones', async () => {
    const browsers = await breakdown('browser');
    expect(browsers.row('Safari').p2pDwSize).toBe(0);
    expect(browsers.row('Safari').cdnDwSize).toBeGreaterThan(0);
    expect(browsers.row('Safari').p2pUsersCount).toBe(0);
    expect(browsers.share('Chrome')).toBeGreaterThan(0.4);
    const networks = await breakdown('network');
    expect(networks.share('AS21928 T-Mobile USA, Inc.')).toBeLessThan(
      networks.share('AS7922 Comcast Cable Communications, LLC') - 0.1,
    );
    expect(networks.share('AS55836 Reliance Jio Infocomm Limited')).toBeLessThan(
      networks.share('AS3320 Deutsche Telekom AG') - 0.1,
    );
  });

  it('every dimension’s rows differ in share, startup, rebuffering and viewers', async () => {
    for (const by of ['stream', 'country', 'network', 'browser', 'os']) {
      const { rows } = await breakdown(by);
      expect(rows.length).toBeGreaterThan(4);
      const rebuffering = rows.map((r) => (100 * r.stallMs) / Math.max(1, r.playMs));
      const shares = rows.map((r) => r.p2pDwSize / (r.cdnDwSize + r.p2pDwSize));
      // Several rows may share a trait (two fixed ISPs of a country), never all of them.
      expect(distinct(shares), `${by} shares`).toBeGreaterThan(rows.length / 2);
      expect(distinct(rebuffering), `${by} rebuffering`).toBeGreaterThan(2);
      expect(new Set(rows.map((r) => r.startupP50Ms)).size, `${by} startup`).toBeGreaterThan(2);
      expect(new Set(rows.map((r) => r.usersCount)).size, `${by} viewers`).toBeGreaterThan(rows.length / 2);
    }
    const countries = await breakdown('country');
    expect(countries.row('IN').stallMs / countries.row('IN').playMs).toBeGreaterThan(
      2 * (countries.row('JP').stallMs / countries.row('JP').playMs),
    );
  });

  it('has the most viewers in the evening of the team’s time zone', async () => {
    const rows = await statsDb(server.app.ctx.db)
      .selectFrom('stats_hour')
      .innerJoin('keys', 'keys.id', 'stats_hour.key_id')
      .select(['stats_hour.bucket', 'stats_hour.users'])
      .where('keys.team_id', '=', teamId)
      .execute();
    const byLocalHour = new Array<number>(24).fill(0);
    for (const r of rows) {
      const h = Math.floor(((Number(r.bucket) + 9 * 3600) % 86_400) / 3600);
      byLocalHour[h] = (byLocalHour[h] ?? 0) + Number(r.users);
    }
    const evening = (byLocalHour[20] ?? 0) + (byLocalHour[21] ?? 0);
    const night = (byLocalHour[3] ?? 0) + (byLocalHour[4] ?? 0);
    const noon = (byLocalHour[12] ?? 0) + (byLocalHour[13] ?? 0);
    expect(evening).toBeGreaterThan(4 * night);
    expect(evening).toBeGreaterThan(1.5 * noon);
  });

  it('live viewers on Safari get nothing from peers; the others do', () => {
    const sim = new LiveSimulation(['k'], 400, 11);
    const t0 = Date.now();
    sim.warmStart(t0);
    const reports = [];
    for (let s = 0; s <= 30; s++) reports.push(...sim.tick(t0 + s * 1000));
    const browserOf = (id: string) => sim.viewerOf(id)?.browser;
    const safari = reports.filter((r) => browserOf(r.sessionId) === 'Safari');
    const chrome = reports.filter((r) => browserOf(r.sessionId) === 'Chrome');
    expect(safari.length).toBeGreaterThan(5);
    expect(safari.every((r) => r.p2pBytes === 0)).toBe(true);
    expect(chrome.filter((r) => r.p2pBytes > 0).length).toBeGreaterThan(chrome.length / 2);
  });
});
