import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BREAKDOWN_DIMENSIONS, MSG, PATHS, ZBreakdownResponse } from '@tlprt/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { clickHouseQuery, dropClickHouseDatabase, TEST_CLICKHOUSE_URL } from './helpers/clickhouse.js';
import { freePort } from './helpers/free-port.js';
import { Api } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { relay } from './helpers/relay.js';
import { freshDatabaseUrl, startServer, type TestServer } from './helpers/server.js';

/**
 * The statistics on ClickHouse survive ClickHouse going away (issue 42, with the rules of the faults
 * issue): the node's connection to ClickHouse runs through a TCP relay the test cuts and restores, so
 * ClickHouse really is unreachable meanwhile. Every report accepted during the cut is stored once it is
 * back, and counted once; the rows are in ClickHouse, not in the database.
 */

const now = () => Math.floor(Date.now() / 1000);

/**
 * Sends 1,000 bytes, then twice in a row has the relay lose the answer of the insert whose text holds
 * `insert` (the second write, which takes the first one's off, loses its answer too), sending 200 and
 * then 30 bytes after each: what the lost answers stored is 1,200 (`stored`), and the next flush makes
 * it 1,230, each counted once.
 */
async function twoAnswersLost(
  s: {
    link: ReturnType<typeof relay>;
    lines: string[];
    server: TestServer;
    send: (session: string, cdnBytes: number) => Promise<void>;
  },
  insert: string,
  stored: () => Promise<number>,
) {
  await s.send('a', 1000);
  for (const [session, bytes] of [
    ['b', 200],
    ['c', 30],
  ] as const) {
    s.link.loseAnswerTo(insert);
    await expect(s.server.app.stats.flush()).rejects.toThrow(/statistics cannot be written/);
    await s.send(session, bytes);
  }
  expect(s.link.lost()).toBe(2);
  expect(await stored()).toBe(1200);
  await s.server.app.stats.flush();
  expect(await stored()).toBe(1230);
  expect(s.lines.filter((l) => l.includes('answer was lost had been stored'))).toHaveLength(2);
}

describe.skipIf(!TEST_CLICKHOUSE_URL)('statistics on ClickHouse while ClickHouse is unreachable', () => {
  const servers: TestServer[] = [];
  const databases: string[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const d of databases) await dropClickHouseDatabase(d);
  });

  /** A server whose ClickHouse is behind a relay, with a team, a key, and a way to send its reports. */
  async function behindRelay(name: string) {
    const port = await freePort();
    const link = relay(port, new URL(TEST_CLICKHOUSE_URL ?? ''));
    await link.open();
    const clickhouse = `http://127.0.0.1:${port}/tlprt_${name}_${randomBytes(5).toString('hex')}`;
    databases.push(`${TEST_CLICKHOUSE_URL}/${new URL(clickhouse).pathname.slice(1)}`);
    const lines: string[] = [];
    const server = await startServer({
      env: { STATS_INGEST_FLUSH_MS: '600000', CLICKHOUSE_URL: clickhouse },
      deps: { logger: { level: 'info', stream: { write: (l: string) => void lines.push(l) } } },
    });
    servers.push(server);
    const team = await buildTeam(server.app);
    const domain = await buildDomain(server.app, team.id, { promoted: true });
    const key = await buildKey(server.app, team.id, domain.id);
    const api = new Api(server.base);
    const send = async (session: string, cdnBytes: number) => {
      const r = await ingestAsBrowsers(api, [
        { apiKey: key.keyHash, sessionId: session, ts: now(), cdnBytes, p2pBytes: 10 },
      ]);
      expect(r.status).toBe(202);
    };
    /** The team owner's day chart of the key. */
    const askDay = () =>
      api.as(team.owner.token).post(PATHS.statistics.day, {
        apiKeys: [key.keyHash],
        startTimestamp: 0,
        endTimestamp: now() + 60,
        team_id: team.id,
      });
    /** The day's answer of the key's bytes. */
    const answered = async () => {
      const day = await askDay();
      expect(day.status).toBe(200);
      return day.body.totals.cdnDwSize as number;
    };
    /** The breakdown by country of the day's answer: its one row's bytes. */
    const brokenDown = async () => {
      const res = await api.as(team.owner.token).post(PATHS.statistics.breakdown, {
        apiKeys: [key.keyHash],
        startTimestamp: 0,
        endTimestamp: now() + 60,
        team_id: team.id,
        range: 'day',
        by: 'country',
      });
      expect(res.status).toBe(200);
      return ZBreakdownResponse.parse(res.body).data.map((r) => r.cdnDwSize);
    };
    return { link, clickhouse, lines, server, key, send, answered, brokenDown, askDay };
  }

  it('keeps every accepted report through the cut, then stores each once', async () => {
    const { link, clickhouse, lines, server, key, send, answered, askDay } = await behindRelay('cut');
    let sent = 0;
    for (let i = 0; i < 5; i++) {
      await send(`before-${i}`, 1000 + i);
      sent += 1000 + i;
    }
    await server.app.stats.flush();

    await link.cut();
    for (let i = 0; i < 5; i++) {
      await send(`during-${i}`, 2000 + i);
      sent += 2000 + i;
      await expect(server.app.stats.flush()).rejects.toThrow(/statistics cannot be written/);
    }
    expect(server.app.stats.aggregator.pendingCount).toBeGreaterThan(0);
    expect(lines.filter((l) => l.includes('statistics cannot be stored'))).toHaveLength(1);
    // A chart asked meanwhile is refused for the time being, not an unexpected error.
    const refused = await askDay();
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ message: MSG.cantPerformText });
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(lines.filter((l) => l.includes('unexpected error'))).toHaveLength(0);

    await link.open();
    await server.app.stats.flush();
    expect(server.app.stats.aggregator.pendingCount).toBe(0);
    expect(lines.filter((l) => l.includes('statistics stored again'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('dropped'))).toHaveLength(0);

    // Counted once: the bytes stored, the viewers of the minutes, the day's answer.
    const stored = await clickHouseQuery(
      clickhouse,
      `select sum(cdn_bytes) from stats_minute where key_id = ${key.id} format TabSeparated`,
    );
    expect(Number(stored.trim())).toBe(sent);
    expect(await answered()).toBe(sent);
    // The rows are in ClickHouse; the database holds no statistics.
    const relational = await server.app.ctx.db
      .selectFrom('stats_minute' as never)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(relational.n)).toBe(0);
  }, 60_000);

  it('counts a write once when ClickHouse stored it but its answer was lost', async () => {
    const { link, clickhouse, lines, server, key, send, answered } = await behindRelay('lost');
    const stored = async () =>
      Number(
        (
          await clickHouseQuery(
            clickhouse,
            `select sum(cdn_bytes) from stats_minute where key_id = ${key.id} format TabSeparated`,
          )
        ).trim(),
      );
    await twoAnswersLost({ link, lines, server, send }, 'insert into stats_minute format', stored);
    expect(server.app.stats.aggregator.pendingCount).toBe(0);
    expect(await answered()).toBe(1230);
  }, 60_000);

  it("starts while ClickHouse does not answer, and counts the last run's journal once it does", async () => {
    const port = await freePort();
    const link = relay(port, new URL(TEST_CLICKHOUSE_URL ?? ''));
    await link.open();
    const clickhouse = `http://127.0.0.1:${port}/tlprt_start_${randomBytes(5).toString('hex')}`;
    databases.push(`${TEST_CLICKHOUSE_URL}/${new URL(clickhouse).pathname.slice(1)}`);
    const databaseUrl = await freshDatabaseUrl();
    const journal = mkdtempSync(join(tmpdir(), 'tlprt-journal-'));
    const lines: string[] = [];
    const start = () =>
      startServer({
        databaseUrl,
        env: {
          STATS_INGEST_FLUSH_MS: '600000',
          STATS_JOURNAL_DIR: journal,
          SHUTDOWN_TIMEOUT_MS: '1000',
          CLICKHOUSE_URL: clickhouse,
        },
        deps: { logger: { level: 'info', stream: { write: (l: string) => void lines.push(l) } } },
      });
    const first = await start();
    const team = await buildTeam(first.app);
    const key = await buildKey(first.app, team.id, null);
    const report = (sessionId: string, cdnBytes: number) => ({
      apiKey: key.keyHash,
      sessionId,
      seq: 1,
      ts: now(),
      cdnBytes,
      p2pBytes: 0,
    });
    const send = async (server: TestServer, r: ReturnType<typeof report>) =>
      expect((await ingestAsBrowsers(new Api(server.base), [r])).status).toBe(202);
    await send(first, report('a', 1000));
    await send(first, report('b', 200));
    // ClickHouse goes away with the first run's reports in its journal only.
    await link.cut();
    await first.app.close();

    const second = await start();
    servers.push(second);
    expect(lines.filter((l) => l.includes('journal not counted yet'))).toHaveLength(1);
    await send(second, report('c', 30));
    // Sent again by a player whose answer was lost: the journal's replay memory refuses it to count.
    await send(second, report('a', 1000));
    await expect(second.app.stats.flush()).rejects.toThrow(/statistics cannot be written/);

    await link.open();
    await second.app.stats.flush();
    const stored = await clickHouseQuery(
      clickhouse,
      `select sum(cdn_bytes) from stats_minute where key_id = ${key.id} format TabSeparated`,
    );
    expect(Number(stored.trim())).toBe(1230);
    expect(lines.filter((l) => l.includes('statistics journal replayed'))).toHaveLength(1);
  }, 60_000);

  it('counts a breakdown write once when ClickHouse stored its hours but their answer was lost', async () => {
    const { link, clickhouse, lines, server, key, send, brokenDown } = await behindRelay('lostbd');
    const country = BREAKDOWN_DIMENSIONS.indexOf('country');
    const stored = async () =>
      Number(
        (
          await clickHouseQuery(
            clickhouse,
            `select sumMerge(cdn_bytes) from stats_breakdown_hour
             where key_id = ${key.id} and dim = ${country} format TabSeparated`,
          )
        ).trim(),
      );
    await twoAnswersLost({ link, lines, server, send }, 'insert into stats_breakdown_hour', stored);
    expect(await brokenDown()).toEqual([1230]);
    // Each stored write left its receipt (a write and its receipt are one insert's).
    const receipts = await clickHouseQuery(
      clickhouse,
      `select count() from stats_receipts where startsWith(receipt, 'breakdowns:') format TabSeparated`,
    );
    expect(Number(receipts.trim())).toBe(3);
  }, 60_000);
});
