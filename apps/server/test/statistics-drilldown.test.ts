import {
  BREAKDOWN_VALUE_MAX,
  PATHS,
  type TBreakdownRow,
  type TStatsResponse,
  ZBreakdownResponse,
  ZStatsResponse,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { Api, type Json } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { manualClock, startServer, type TestServer } from './helpers/server.js';
import { NOW } from './helpers/stats.js';

/**
 * The breakdown's drill-down (issue 39): POST /stats/v3/dashboard/breakdown/series answers one row's
 * points in the chart's shape, per hour, over the breakdown's window, so they add up to the row.
 */

const clock = manualClock(NOW * 1000);
let server: TestServer;
let api: Api;
beforeAll(async () => {
  server = await startServer({ env: { STATS_INGEST_FLUSH_MS: '600000' }, deps: { now: clock } });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
});

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const LIVE = 'https://cdn.example.com/live/master.m3u8';
const LIVE_NAME = 'cdn.example.com/live/master.m3u8';
const nowSec = () => Math.floor(clock() / 1000);

async function team(n: number) {
  const t = await buildTeam(server.app);
  const domain = await buildDomain(server.app, t.id, { promoted: true });
  const hashes: string[] = [];
  for (let i = 0; i < n; i++) hashes.push((await buildKey(server.app, t.id, domain.id)).keyHash);
  return { team: t, hashes, as: api.as(t.owner.token) };
}
type Team = Awaited<ReturnType<typeof team>>;

async function view(key: string, session: string, extra: Json = {}) {
  const res = await ingestAsBrowsers(
    api,
    [
      {
        apiKey: key,
        sessionId: session,
        ts: nowSec() - 30,
        cdnBytes: 1000,
        p2pBytes: 500,
        playMs: 9000,
        stream: LIVE,
        ...extra,
      },
    ],
    { 'user-agent': CHROME },
  );
  expect(res.body.accepted).toBe(1);
}

const window = { startTimestamp: 0, endTimestamp: 4_000_000_000 };

async function breakdownRow(s: Team, range: string, apiKeys: string[]): Promise<TBreakdownRow | undefined> {
  const res = await s.as.post(PATHS.statistics.breakdown, {
    ...window,
    apiKeys,
    team_id: s.team.id,
    range,
    by: 'stream',
  });
  expect(res.status).toBe(200);
  return ZBreakdownResponse.parse(res.body).data.find((r) => r.name === LIVE_NAME);
}

async function series(s: Team, range: string, apiKeys: string[], extra: Json = {}): Promise<TStatsResponse> {
  const res = await s.as.post(PATHS.statistics.breakdownSeries, {
    ...window,
    apiKeys,
    team_id: s.team.id,
    range,
    by: 'stream',
    value: LIVE_NAME,
    ...extra,
  });
  expect(res.status).toBe(200);
  return ZStatsResponse.strict().parse(res.body);
}

describe('breakdown drill-down series', () => {
  let s: Team;
  let other: Team;
  beforeAll(async () => {
    s = await team(2);
    other = await team(1);
    const [k1 = '', k2 = ''] = s.hashes;
    // This hour: two viewers of the live stream on k1, one on k2, a film on k1; another team's viewer.
    await view(k1, 'a', { startupMs: [400] });
    await view(k1, 'b', { cdnBytes: 3000, stallMs: 300 });
    await view(k1, 'c', { stream: 'https://cdn.example.com/vod/film.m3u8', cdnBytes: 9000 });
    await view(k2, 'd', { p2pBytes: 2500, startupMs: [1800] });
    await view(other.hashes[0] ?? '', 'e', { cdnBytes: 777_000 });
    await server.app.stats.flush();
    // The next hour (NOW is 45.5 minutes into its hour): one more viewer on k1.
    clock.advance(20 * 60_000);
    await view(k1, 'f', { cdnBytes: 4000, startupMs: [900] });
    await server.app.stats.flush();
  });

  it("adds up to the breakdown's row, per hour, for every range and set of keys", async () => {
    const [k1 = ''] = s.hashes;
    const hour = nowSec() - (nowSec() % 3600);
    for (const range of ['live', 'day', 'week', 'month']) {
      for (const keys of [s.hashes, [k1]]) {
        const row = await breakdownRow(s, range, keys);
        const answer = await series(s, range, keys);
        expect(answer.step).toBe(3600);
        expect(answer.data.every((p, i) => p.datePoint === answer.startTimestamp + i * 3600)).toBe(true);
        expect(answer.endTimestamp).toBe(hour);
        const { name: _, ...values } = row ?? { name: '' };
        // The whole window in one: exactly the row (sums, peak viewers, startup quantiles).
        expect(answer.totals).toEqual(values);
        const sum = (f: 'cdnDwSize' | 'p2pDwSize') => answer.data.reduce((t, p) => t + p[f], 0);
        expect(sum('cdnDwSize')).toBe(row?.cdnDwSize);
        expect(sum('p2pDwSize')).toBe(row?.p2pDwSize);
      }
    }
    // Day: this hour and the one before hold the live stream's traffic; the film is not in it.
    const day = await series(s, 'day', s.hashes);
    expect(day.data.slice(-2).map((p) => p.cdnDwSize)).toEqual([5000, 4000]);
    expect(day.data.slice(-2).map((p) => p.usersCount)).toEqual([3, 1]);
    expect(day.totals).toMatchObject({ cdnDwSize: 9000, p2pDwSize: 4000, usersCount: 3, stallMs: 300 });
    // Live: the hour being counted only.
    expect((await series(s, 'live', s.hashes)).data.map((p) => p.cdnDwSize)).toEqual([4000]);
  });

  it("ignores keys of other teams, as the breakdown does; another team's row stays apart", async () => {
    const mixed = await series(s, 'day', [...s.hashes, ...other.hashes]);
    expect(mixed.totals).toMatchObject({ cdnDwSize: 9000, usersCount: 3 });
    const foreign = await series(s, 'day', other.hashes);
    expect(foreign.data.length).toBeGreaterThan(0);
    expect(foreign.data.every((p) => p.cdnDwSize === 0 && p.usersCount === 0)).toBe(true);
    // A name the team never had: zero points, not an error.
    const none = await series(s, 'day', s.hashes, { value: 'cdn.example.com/none.m3u8' });
    expect(none.totals).toMatchObject({ cdnDwSize: 0, usersCount: 0 });
    // A stranger to the team: 404, as for the breakdown.
    const stranger = await other.as.post(PATHS.statistics.breakdownSeries, {
      ...window,
      apiKeys: s.hashes,
      team_id: s.team.id,
      range: 'day',
      by: 'stream',
      value: LIVE_NAME,
    });
    expect(stranger.status).toBe(404);
  });

  it('answers whole UTC days for a window older than the hours kept', async () => {
    const end = nowSec() - 70 * 86_400;
    const answer = await series(s, 'month', s.hashes, {
      startTimestamp: end - 10 * 86_400,
      endTimestamp: end,
    });
    expect(answer.step).toBe(86_400);
    expect(answer.data).toHaveLength(11);
    expect(answer.startTimestamp % 86_400).toBe(0);
  });

  it('refuses a bad by or value with a 400 naming the field', async () => {
    for (const [extra, field] of [
      [{ by: 'planet' }, 'by'],
      [{ value: '' }, 'value'],
      [{ value: 42 }, 'value'],
      [{ value: undefined }, 'value'],
      [{ value: 'x'.repeat(BREAKDOWN_VALUE_MAX + 1) }, 'value'],
      [{ range: 'year' }, 'range'],
    ] as const) {
      const res = await s.as.post(PATHS.statistics.breakdownSeries, {
        ...window,
        apiKeys: s.hashes,
        team_id: s.team.id,
        range: 'day',
        by: 'stream',
        value: LIVE_NAME,
        ...extra,
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
  });
});
