import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BREAKDOWN_DIMENSIONS, PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillHistory } from '../src/demo/backfill.js';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { Api, type Json } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { manualClock, startServer, type TestServer } from './helpers/server.js';
import { NOW } from './helpers/stats.js';

/**
 * The same reports give the same answers wherever the statistics are kept (issue 42): SQLite always,
 * PostgreSQL in the run of the server tests on PostgreSQL (TEST_DATABASE_URL), ClickHouse in the run on
 * ClickHouse (TEST_CLICKHOUSE_URL): each equal to SQLite's, so all three alike. Each server is fed the same two days of
 * history (the demo's backfill: pre-counted minutes, hourly breakdowns) and the same browsers' reports
 * over several flushes, then every range, key set, window, chart cut, CSV, export and breakdown is
 * asked of each and compared with the first's.
 */

const clock = manualClock(NOW * 1000);
const nowSec = () => Math.floor(clock() / 1000);
const PG = process.env.TEST_DATABASE_URL;
const CH = process.env.TEST_CLICKHOUSE_URL;

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

interface Side {
  name: string;
  server: TestServer;
  api: Api;
  teamId: number;
  otherTeamId: number;
  owner: ReturnType<Api['as']>;
  hashes: string[];
  otherHash: string;
  token: string;
}

const sides: Side[] = [];

async function side(name: string, env: Record<string, string>, databaseUrl?: string): Promise<Side> {
  const server = await startServer({
    env: { STATS_INGEST_FLUSH_MS: '600000', ...env },
    deps: { now: clock },
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  const api = new Api(server.base);
  const team = await buildTeam(server.app);
  const domain = await buildDomain(server.app, team.id, { promoted: true });
  const keys = [];
  for (let i = 0; i < 3; i++) keys.push(await buildKey(server.app, team.id, domain.id));
  const other = await buildTeam(server.app);
  const otherDomain = await buildDomain(server.app, other.id, { promoted: true });
  const otherKey = await buildKey(server.app, other.id, otherDomain.id);
  const owner = api.as(team.owner.token);
  const made = await owner.post(PATHS.teamTokens.list(team.id), { name: 'Exporter', scope: 'statistics' });
  expect(made.status).toBe(201);
  // Two days of history through the store, as the demo writes it: pre-counted minutes, breakdowns.
  await backfillHistory(
    server.app.ctx.statsStore,
    [...keys, otherKey].map((k, i) => ({ id: k.id, peak: 40 + 25 * i })),
    2,
    clock(),
    7,
    30,
  );
  return {
    name,
    server,
    api,
    teamId: team.id,
    otherTeamId: other.id,
    owner,
    hashes: keys.map((k) => k.keyHash),
    otherHash: otherKey.keyHash,
    token: made.body.data.token as string,
  };
}

/** One browser's report on key `k` (an index; 3: the other team's key). */
function report(s: Side, k: number, session: string, extra: Json = {}): Json {
  return {
    apiKey: k === 3 ? s.otherHash : s.hashes[k],
    sessionId: session,
    ts: nowSec() - 20,
    cdnBytes: 1000,
    p2pBytes: 0,
    playMs: 9000,
    stream: 'https://cdn.example.com/live/master.m3u8',
    ...extra,
  };
}

/** The same reports to every side, as browsers send them, then a flush. */
async function feed(reports: Array<[k: number, session: string, extra: Json, agent: string]>) {
  for (const s of sides) {
    for (const [k, session, extra, agent] of reports) {
      const res = await ingestAsBrowsers(s.api, [report(s, k, session, extra)], { 'user-agent': agent });
      expect(res.status).toBe(202);
    }
    await s.server.app.stats.flush();
  }
}

beforeAll(async () => {
  if (!PG && !CH) return;
  const sqlite = `sqlite:${join(mkdtempSync(join(tmpdir(), 'tlprt-parity-')), 'p.db')}`;
  // The database sides keep their statistics in the database, whatever the run's ClickHouse.
  sides.push(await side('sqlite', { CLICKHOUSE_URL: '' }, sqlite));
  if (PG) sides.push(await side('postgresql', { CLICKHOUSE_URL: '' }));
  if (CH) sides.push(await side('clickhouse', {}));
  // Three flushes in two minutes: sessions seen again with other series, several keys, refused and
  // cross-network bytes, startups for the histograms, two streams and two browsers for the breakdowns.
  await feed([
    [0, 'a', { startupMs: [400], plays: 1 }, CHROME],
    [0, 'b', { p2pBytes: 3000, cdnBytes: 200 }, FIREFOX],
    [1, 'c', { stream: 'https://cdn.example.com/vod/film "x".m3u8', cdnBytes: 9000 }, CHROME],
    [2, 'd', { p2pBytes: 2500, p2pCrossBytes: 700, startupMs: [1800], stallMs: 300 }, CHROME],
    [3, 'e', { cdnBytes: 777_000 }, CHROME],
  ]);
  await feed([
    [0, 'a', { p2pBytes: 800, ts: nowSec() - 10 }, CHROME],
    [1, 'f', { rejectedBytes: 512, p2pBytes: 100 }, FIREFOX],
  ]);
  clock.advance(60_000);
  await feed([
    [0, 'b', { p2pBytes: 100 }, FIREFOX],
    [2, 'g', { cdnBytes: 5, startupMs: [90, 12_000] }, CHROME],
  ]);
}, 120_000);

afterAll(async () => {
  for (const s of sides) await s.server.close();
});

const RANGES = ['live', 'day', 'week', 'month'] as const;
type Range = (typeof RANGES)[number];
const rangePath = (s: Side, range: Range) =>
  range === 'live' ? PATHS.statistics.live(s.teamId) : PATHS.statistics[range];
/** The key sets asked: all of the team's, two, one, and the team's with another team's hash. */
const KEY_SETS: Array<(s: Side) => string[]> = [
  (s) => s.hashes,
  (s) => s.hashes.slice(0, 2),
  (s) => [s.hashes[2] ?? ''],
  (s) => [...s.hashes, s.otherHash],
];
/** Windows: the rolling one, and custom ones cutting the history. */
const WINDOWS = [
  { startTimestamp: 0, endTimestamp: 4_000_000_000 },
  { startTimestamp: NOW - 86_400 - 1234, endTimestamp: NOW - 3 * 3600 },
  { startTimestamp: NOW - 600, endTimestamp: NOW + 120 },
];

/** Every side's answer to the same question, compared with the first's. */
async function same(ask: (s: Side) => Promise<{ status: number; body: unknown }>, what: string) {
  const answers = [];
  for (const s of sides) answers.push(await ask(s));
  const [first] = answers;
  expect(first?.status, what).toBe(200);
  answers.forEach((a, i) => {
    expect({ side: sides[i]?.name, status: a.status, body: a.body }, what).toEqual({
      side: sides[i]?.name,
      status: first?.status,
      body: first?.body,
    });
  });
  return first?.body;
}

// With SQLite alone there is nothing to compare (the server-sqlite run).
describe.skipIf(!PG && !CH)('statistics parity between the stores', () => {
  it('runs on every store this run has', () => {
    expect(sides.map((s) => s.name)).toEqual([
      'sqlite',
      ...(PG ? ['postgresql'] : []),
      ...(CH ? ['clickhouse'] : []),
    ]);
  });

  it('answers every range, key set, window and chart cut alike, as JSON and as CSV', async () => {
    for (const range of RANGES) {
      for (const [k, keys] of KEY_SETS.entries()) {
        for (const [w, window] of WINDOWS.entries()) {
          for (const points of ['all', 'drawn'] as const) {
            const body = (s: Side) => ({ apiKeys: keys(s), ...window, team_id: s.teamId, points });
            const what = `${range}, keys ${k}, window ${w}, ${points}`;
            const json = (await same((s) => s.owner.post(rangePath(s, range), body(s)), what)) as {
              totals?: Record<string, number>;
            };
            if (range !== 'live' && k === 0 && w === 0)
              expect(json.totals?.cdnDwSize, what).toBeGreaterThan(0);
            await same((s) => s.owner.post(`${rangePath(s, range)}?format=csv`, body(s)), `${what}, csv`);
          }
        }
      }
    }
  }, 120_000);

  it('answers the export alike, as JSON and as CSV', async () => {
    for (const range of RANGES) {
      for (const format of ['json', 'csv']) {
        await same(
          (s) =>
            s.api
              .as(s.token)
              .get(
                `${PATHS.statistics.export}?${new URLSearchParams({ range, keys: s.hashes.join(','), format })}`,
              ),
          `export ${range} ${format}`,
        );
      }
    }
  });

  it('answers every breakdown and its drill-down series alike', async () => {
    // Live and day read the same hourly rows, week and month the same daily ones.
    for (const range of ['day', 'month']) {
      for (const by of BREAKDOWN_DIMENSIONS) {
        for (const [k, keys] of KEY_SETS.slice(0, 3).entries()) {
          const body = (s: Side) => ({ apiKeys: keys(s), ...WINDOWS[0], team_id: s.teamId, range, by });
          const what = `breakdown ${range} ${by} keys ${k}`;
          const rows = (await same((s) => s.owner.post(PATHS.statistics.breakdown, body(s)), what)) as {
            data: Array<{ name: string }>;
          };
          await same(
            (s) => s.owner.post(`${PATHS.statistics.breakdown}?format=csv`, body(s)),
            `${what}, csv`,
          );
          for (const row of rows.data.slice(0, 2)) {
            await same(
              (s) => s.owner.post(PATHS.statistics.breakdownSeries, { ...body(s), value: row.name }),
              `${what}, series of ${row.name}`,
            );
          }
        }
      }
    }
  }, 180_000);

  it("answers the alerts' minutes and the deleted keys' history alike", async () => {
    await same(async (s) => {
      const sums = await s.server.app.ctx.statsStore.minuteSums(
        (
          await s.server.app.ctx.db.selectFrom('keys').select('id').where('team_id', '=', s.teamId).execute()
        ).map((k) => k.id),
        nowSec() - 3600,
        nowSec(),
      );
      return { status: 200, body: [...sums].sort(([a], [b]) => a - b).map(([m, v]) => [m, [...v]]) };
    }, 'alert minutes');
  });
});
