import { randomBytes } from 'node:crypto';
import { PATHS, ZBreakdownResponse } from '@tlprt/contract';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { clickHouseQuery, dropClickHouseDatabase, TEST_CLICKHOUSE_URL } from './helpers/clickhouse.js';
import { freePort } from './helpers/free-port.js';
import { Api } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { relay } from './helpers/relay.js';
import { startServer, type TestServer } from './helpers/server.js';

/**
 * The nodes' cache of ClickHouse's blocks (clickhouse/block-versions.ts): a chart or a breakdown of
 * days asked again takes the blocks it read before from the node's memory while their versions in the
 * database are the same, and reads again those another node wrote since. The first node reaches ClickHouse through a relay
 * the test cuts: what it answers meanwhile came from its cache.
 */

const now = () => Math.floor(Date.now() / 1000);
const RANGES = [PATHS.statistics.day, PATHS.statistics.week, PATHS.statistics.month];

describe.skipIf(!TEST_CLICKHOUSE_URL)('statistics on ClickHouse: the blocks a node read before', () => {
  const servers: TestServer[] = [];
  let database = '';
  afterAll(async () => {
    for (const s of servers.reverse()) await s.close();
    await dropClickHouseDatabase(`${TEST_CLICKHOUSE_URL}/${database}`);
  });

  it('are read again once another node wrote them, and never while they are unchanged', async () => {
    database = `tlprt_blocks_${randomBytes(5).toString('hex')}`;
    const port = await freePort();
    const link = relay(port, new URL(TEST_CLICKHOUSE_URL ?? ''));
    await link.open();
    const env = (url: string) => ({ STATS_INGEST_FLUSH_MS: '600000', CLICKHOUSE_URL: url });
    const first = await startServer({ env: env(`http://127.0.0.1:${port}/${database}`) });
    servers.push(first);
    const direct = `${TEST_CLICKHOUSE_URL}/${database}`;
    const second = await startServer({ databaseUrl: first.databaseUrl, env: env(direct) });
    servers.push(second);

    const team = await buildTeam(first.app);
    const domain = await buildDomain(first.app, team.id, { promoted: true });
    const key = await buildKey(first.app, team.id, domain.id);
    const send = async (server: TestServer, session: string, cdnBytes: number) => {
      const r = await ingestAsBrowsers(new Api(server.base), [
        { apiKey: key.keyHash, sessionId: session, ts: now(), cdnBytes, p2pBytes: 10 },
      ]);
      expect(r.status).toBe(202);
      await server.app.stats.flush();
    };
    /** The first node's answers of the key's bytes for the day, the week and the month, then its
     *  breakdowns of the month (days) by country and by stream. */
    const answers = async () => {
      const api = new Api(first.base).as(team.owner.token);
      const window = {
        apiKeys: [key.keyHash],
        startTimestamp: 0,
        endTimestamp: now() + 60,
        team_id: team.id,
      };
      const out: number[] = [];
      for (const path of RANGES) {
        const res = await api.post(path, window);
        expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
        out.push(res.body.totals.cdnDwSize as number);
      }
      for (const by of ['country', 'stream']) {
        const res = await api.post(PATHS.statistics.breakdown, { ...window, range: 'month', by });
        expect(res.status, `${by}: ${JSON.stringify(res.body)}`).toBe(200);
        const rows = ZBreakdownResponse.parse(res.body).data;
        out.push(rows.reduce((n, r) => n + (r.cdnDwSize ?? 0), 0));
      }
      return out;
    };

    await send(first, 'a', 1000);
    expect(await answers()).toEqual([1000, 1000, 1000, 1000, 1000]);
    // ClickHouse out of reach: the same charts answer from the node's memory, the blocks unchanged.
    await link.cut();
    expect(await answers()).toEqual([1000, 1000, 1000, 1000, 1000]);
    await link.open();

    // The other node writes the same blocks: their versions change, and the first node reads them again.
    await send(second, 'b', 500);
    expect(await answers()).toEqual([1500, 1500, 1500, 1500, 1500]);
    await link.cut();
    expect(await answers()).toEqual([1500, 1500, 1500, 1500, 1500]);
    await link.open();

    // A ClickHouse database written before the versions were kept: a node starting on it gives its
    // blocks versions (a block without one holds no rows, for a read), and answers the same.
    const db = first.app.ctx.db;
    await sql`delete from stats_clickhouse_blocks`.execute(db);
    await clickHouseQuery(direct, 'drop table stats_blocks_versioned');
    const third = await startServer({ databaseUrl: first.databaseUrl, env: env(direct) });
    servers.push(third);
    const { rows } = await sql<{
      size: number;
    }>`select distinct size from stats_clickhouse_blocks order by size`.execute(db);
    expect(rows.map((r) => Number(r.size))).toEqual([60, 1200, 3600, 86_400]);
    expect(await answers()).toEqual([1500, 1500, 1500, 1500, 1500]);

    // The versions of blocks past their points' retention go with the partitions.
    await first.app.stats.prune(Date.now() + 3 * 365 * 86_400_000);
    const left = await sql<{ n: number }>`select count(*) as n from stats_clickhouse_blocks`.execute(db);
    expect(Number(left.rows[0]?.n)).toBe(0);
  }, 60_000);
});
