import {
  BREAKDOWN_NAMES_PER_BUCKET,
  BREAKDOWN_OTHER,
  BREAKDOWN_UNKNOWN,
  PATHS,
  STORED_COLUMNS,
  ZBreakdownResponse,
} from '@tlprt/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { clickHouseQuery } from './helpers/clickhouse.js';
import type { Json } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { onClickHouse } from './helpers/server.js';
import { M, NOW, statsServer, statsTeam } from './helpers/stats.js';

/**
 * Breakdowns (docs/DESIGN.md §7): by stream, country, network, browser and system. The server sits behind a
 * proxy the test plays (TRUST_PROXY, X-Forwarded-For): country and network come from the IP databases
 * shipped in npm packages, read from disk; a private address, or one the databases lack, is Unknown.
 */

const stats = statsServer({ TRUST_PROXY: '127.0.0.1/8' });
// The databases load on the first public address (about a second): the tests wait for them.
beforeAll(() => stats.server.app.stats.viewerFacts.ready());

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const setup = (n = 1) => statsTeam(stats, n);
type Setup = Awaited<ReturnType<typeof setup>>;

/** One viewer's report sent from `address` with `ua`, as its browser would through the proxy. */
async function view(key: string, session: string, address: string, ua: string, extra: Json = {}) {
  const res = await ingestAsBrowsers(
    stats.api,
    [{ apiKey: key, sessionId: session, ts: M, cdnBytes: 1000, p2pBytes: 500, playMs: 9000, ...extra }],
    { 'x-forwarded-for': address, 'user-agent': ua },
  );
  expect(res.status).toBe(202);
  expect(res.body.accepted).toBe(1);
}
async function breakdown(s: Setup, by: string, range = 'day', apiKeys = s.hashes) {
  const res = await s.as.post(PATHS.statistics.breakdown, {
    apiKeys,
    startTimestamp: 0,
    endTimestamp: NOW,
    team_id: s.team.id,
    range,
    by,
  });
  expect(res.status).toBe(200);
  return ZBreakdownResponse.parse(res.body).data;
}
const names = (rows: Array<{ name: string }>) => rows.map((r) => r.name);

describe('breakdowns', () => {
  it('by country and network of the address, browser and system of the user agent; the address is not stored', async () => {
    const s = await setup();
    const [k = ''] = s.hashes;
    await view(k, 'us-1', '8.8.8.8', CHROME);
    await view(k, 'us-2', '8.8.4.4', CHROME);
    await view(k, 'gb', '81.2.69.160', FIREFOX);
    // A private address (a test set-up, a misconfigured proxy) has no place.
    await view(k, 'lan', '10.1.2.3', SAFARI_IOS);
    await stats.server.app.stats.flush();

    const countries = await breakdown(s, 'country');
    expect(names(countries)).toEqual(['US', 'GB', BREAKDOWN_UNKNOWN]);
    expect(countries[0]).toMatchObject({ cdnDwSize: 2000, p2pDwSize: 1000, usersCount: 2, playMs: 18_000 });
    const networks = names(await breakdown(s, 'network'));
    expect(networks[0]).toMatch(/^AS15169 Google/);
    expect(networks).toContain(BREAKDOWN_UNKNOWN);
    expect(names(await breakdown(s, 'browser'))).toEqual(['Chrome', 'Firefox', 'Safari']);
    expect(names(await breakdown(s, 'os'))).toEqual(['Linux', 'Windows', 'iOS']);
    // Week and month read whole days: the same rows.
    expect(names(await breakdown(s, 'country', 'month'))).toEqual(['US', 'GB', BREAKDOWN_UNKNOWN]);

    const tables = ['stats_breakdown_hour', 'stats_breakdown_day', 'stats_team_breakdown_hour'];
    for (const table of tables) {
      const text = JSON.stringify(
        await stats.server.app.ctx.db
          .selectFrom(table as never)
          .selectAll()
          .execute(),
      );
      for (const address of ['8.8.8.8', '8.8.4.4', '81.2.69.160', '10.1.2.3'])
        expect(text).not.toContain(address);
    }
  });

  it('by stream: host and path without the query; a report without a stream is Unknown; CSV too', async () => {
    const s = await setup();
    const [k = ''] = s.hashes;
    await view(k, 'a', '8.8.8.8', CHROME, {
      stream: 'https://cdn.example.com/live/master.m3u8?token=secret',
    });
    await view(k, 'b', '8.8.8.8', CHROME, { stream: 'https://cdn.example.com/live/master.m3u8?token=other' });
    await view(k, 'c', '8.8.8.8', CHROME, {
      stream: 'https://cdn.example.com/vod/film.m3u8',
      cdnBytes: 5000,
    });
    await view(k, 'd', '8.8.8.8', CHROME);
    await stats.server.app.stats.flush();
    const rows = await breakdown(s, 'stream');
    expect(names(rows)).toEqual([
      'cdn.example.com/vod/film.m3u8',
      'cdn.example.com/live/master.m3u8',
      BREAKDOWN_UNKNOWN,
    ]);
    expect(rows[1]).toMatchObject({ usersCount: 2, cdnDwSize: 2000 });
    const csv = await s.as.post(`${PATHS.statistics.breakdown}?format=csv`, {
      apiKeys: s.hashes,
      startTimestamp: 0,
      endTimestamp: NOW,
      team_id: s.team.id,
      range: 'day',
      by: 'stream',
    });
    expect(csv.status).toBe(200);
    const lines = String(csv.body).trim().split('\r\n');
    expect(lines[0]).toMatch(/^name,cdnDwSize,p2pDwSize,/);
    expect(lines[1]).toMatch(/^cdn\.example\.com\/vod\/film\.m3u8,5000,500,/);
    expect(String(csv.body)).not.toContain('secret');
  });

  it(`keeps at most ${BREAKDOWN_NAMES_PER_BUCKET} names per key, hour and dimension; the rest are Other`, async () => {
    const s = await setup();
    const [k = ''] = s.hashes;
    const reports = Array.from({ length: BREAKDOWN_NAMES_PER_BUCKET + 5 }, (_, i) => ({
      apiKey: k,
      sessionId: `s${i}`,
      ts: M,
      cdnBytes: 10,
      p2pBytes: 0,
      stream: `https://cdn.example.com/s${i}.m3u8`,
    }));
    for (let i = 0; i < reports.length; i += 10) await ingestAsBrowsers(stats.api, reports.slice(i, i + 10));
    await stats.server.app.stats.flush();
    const rows = await breakdown(s, 'stream');
    expect(rows).toHaveLength(BREAKDOWN_NAMES_PER_BUCKET + 1);
    expect(rows.find((r) => r.name === BREAKDOWN_OTHER)).toMatchObject({ cdnDwSize: 50, usersCount: 5 });
  });

  it('names the streams of the most traffic, not the first: made-up names reported first end in Other', async () => {
    // Key hashes are public: anyone can report made-up streams at the start of an hour. Here many more
    // than are followed (2 × 50), a byte each, then three real streams with real traffic.
    const s = await setup();
    const [k = ''] = s.hashes;
    const junk = Array.from({ length: 3 * BREAKDOWN_NAMES_PER_BUCKET }, (_, i) => ({
      apiKey: k,
      sessionId: `j${i}`,
      ts: M,
      cdnBytes: 1,
      p2pBytes: 0,
      stream: `https://junk.example/${i}.m3u8`,
    }));
    for (let i = 0; i < junk.length; i += 10) await ingestAsBrowsers(stats.api, junk.slice(i, i + 10));
    // A flush in between: made-up names written once stay, but no longer crowd out the real ones.
    await stats.server.app.stats.flush();
    const real = ['live', 'film', 'news'].flatMap((name, n) =>
      Array.from({ length: 3 }, (_, i) => ({
        apiKey: k,
        sessionId: `${name}${i}`,
        ts: M + 10 + i,
        cdnBytes: 100_000 * (n + 1),
        p2pBytes: 50_000,
        stream: `https://cdn.example.com/${name}.m3u8`,
      })),
    );
    await ingestAsBrowsers(stats.api, real);
    await stats.server.app.stats.flush();
    const rows = await breakdown(s, 'stream');
    for (const [name, cdn] of [
      ['live', 300_000],
      ['film', 600_000],
      ['news', 900_000],
    ] as const)
      expect(rows.find((r) => r.name === `cdn.example.com/${name}.m3u8`)).toMatchObject({
        cdnDwSize: cdn,
        p2pDwSize: 150_000,
        usersCount: 3,
      });
    // Every byte is somewhere, and no more names than one bucket writes, twice (the flush before).
    const total = rows.reduce((sum, r) => sum + r.cdnDwSize, 0);
    expect(total).toBe(junk.length + 1_800_000);
    expect(rows.length).toBeLessThanOrEqual(2 * BREAKDOWN_NAMES_PER_BUCKET + 1);
    expect(rows.some((r) => r.name === BREAKDOWN_OTHER)).toBe(true);
  });

  it("sums several keys (the team's total when all are asked); other teams' keys are ignored", async () => {
    const s = await setup(2);
    const other = await setup(1);
    const [k1 = '', k2 = ''] = s.hashes;
    await view(k1, 'a', '8.8.8.8', CHROME);
    await view(k2, 'b', '8.8.8.8', FIREFOX);
    await view(other.hashes[0] ?? '', 'c', '8.8.8.8', CHROME);
    await stats.server.app.stats.flush();
    const all = await breakdown(s, 'country', 'day', [...s.hashes, ...other.hashes]);
    expect(all).toEqual([expect.objectContaining({ name: 'US', cdnDwSize: 2000, usersCount: 2 })]);
    const one = await breakdown(s, 'browser', 'day', [k2]);
    expect(one).toEqual([expect.objectContaining({ name: 'Firefox', cdnDwSize: 1000, usersCount: 1 })]);
    // A stranger to the team: 404, as for the charts.
    const stranger = await other.as.post(PATHS.statistics.breakdown, {
      apiKeys: s.hashes,
      startTimestamp: 0,
      endTimestamp: NOW,
      team_id: s.team.id,
      range: 'day',
      by: 'country',
    });
    expect(stranger.status).toBe(404);
  });

  it('validates the query (400 naming by and range)', async () => {
    const s = await setup();
    for (const [body, field] of [
      [{ by: 'planet', range: 'day' }, 'by'],
      [{ by: 'country', range: 'year' }, 'range'],
    ] as const) {
      const res = await s.as.post(PATHS.statistics.breakdown, {
        apiKeys: s.hashes,
        startTimestamp: 0,
        endTimestamp: NOW,
        team_id: s.team.id,
        ...body,
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
  });

  // ClickHouse drops the breakdowns' partitions (by UTC month) once wholly past their retention: a key's
  // hours after 62 days, the keys' and the team's days after 2 years (docs/DESIGN.md §2). Written through
  // the store as a flush writes them: hours, and the days recomputed from them.
  it.skipIf(!onClickHouse)(
    'on ClickHouse drops the months of breakdown hours older than 62 days and of days older than 2 years',
    async () => {
      const s = await setup();
      const keyId = s.keys[0]?.id ?? 0;
      const day = 86_400;
      const floor = (t: number, step: number) => Math.floor(t / step) * step;
      const monthStart = (t: number) => {
        const d = new Date(t * 1000);
        return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
      };
      // At each edge: the last hour of the last month that ended before it, and the first hour after it.
      const at = {
        recent: floor(NOW, 3600),
        hourGone: monthStart(NOW - 62 * day) - 3600,
        hourKept: floor(NOW - 62 * day, 3600) + 3600,
        dayGone: monthStart(NOW - 730 * day) - 3600,
        dayKept: floor(NOW - 730 * day, 3600) + 3600,
      };
      const values = new Float64Array(STORED_COLUMNS.length).fill(1);
      await stats.server.app.ctx.statsStore.writeBreakdowns(
        Object.values(at).map((bucket) => ({ keyId, bucket, dim: 0, name: 'x', values })),
      );
      const buckets = async (table: string, owner: string) =>
        (
          await clickHouseQuery(
            stats.server.clickhouseUrl ?? '',
            `select distinct bucket from ${table} where ${owner} order by bucket format TabSeparated`,
          )
        )
          .split('\n')
          .filter(Boolean)
          .map(Number);
      const days = (...hours: number[]) =>
        [...new Set(hours.map((h) => floor(h, day)))].sort((a, b) => a - b);
      const tables = async () => ({
        hours: await buckets('stats_breakdown_hour', `key_id = ${keyId}`),
        keyDays: await buckets('stats_breakdown_day', `key_id = ${keyId}`),
        teamDays: await buckets('stats_team_breakdown_day', `team_id = ${s.team.id}`),
      });
      const all = Object.values(at);
      expect(await tables()).toEqual({
        hours: [...all].sort((a, b) => a - b),
        keyDays: days(...all),
        teamDays: days(...all),
      });

      const dropped = await stats.server.app.stats.prune(NOW * 1000);
      expect(dropped.stats_breakdown_hour).toBeGreaterThanOrEqual(2);
      const kept = days(at.hourGone, at.hourKept, at.dayKept, at.recent);
      expect(await tables()).toEqual({ hours: [at.hourKept, at.recent], keyDays: kept, teamDays: kept });
    },
  );
});
