import { sql } from 'kysely';
import type { Db } from '../../src/db/index.js';
import { PEAK_COLUMNS } from '../../src/features/statistics/tables.js';

/**
 * ClickHouse in the tests: the server the test script started (TEST_CLICKHOUSE_URL, scripts/clickhouse.mjs),
 * a database of its own per test server (helpers/server.ts), and a way to look at its rows.
 */

/** The ClickHouse server of this run (http://127.0.0.1:<port>), when the suite runs on ClickHouse. */
const fromEnv = process.env.TEST_CLICKHOUSE_URL;
export const TEST_CLICKHOUSE_URL = fromEnv ? new URL(fromEnv).origin : undefined;

/** The server's origin and the database named by a URL's path, as CLICKHOUSE_URL names them. */
function parse(url: string): { origin: string; database: string } {
  const u = new URL(url);
  return { origin: u.origin, database: decodeURIComponent(u.pathname.slice(1)) || 'default' };
}

/**
 * Runs one statement over ClickHouse's HTTP interface in the database of `url`'s path and answers the
 * response's text (`FORMAT JSONEachRow` or `TabSeparated` in the SQL say how); throws with ClickHouse's
 * message on an error. For tests that look at the rows (`SELECT count() FROM … FORMAT TabSeparated`).
 */
export async function clickHouseQuery(url: string, sql: string): Promise<string> {
  const { origin, database } = parse(url);
  const res = await fetch(`${origin}/?database=${encodeURIComponent(database)}`, {
    method: 'POST',
    body: sql,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`ClickHouse answered ${res.status}: ${text.trim()}`);
  return text;
}

/** A ClickHouse URL with a database of its own (not created: the app creates it on start). */
export function freshClickHouseUrl(name: string): string {
  return `${TEST_CLICKHOUSE_URL}/${name}`;
}

/** Drops the database of `url`'s path; best effort (a test never fails on its cleanup). */
export async function dropClickHouseDatabase(url: string): Promise<void> {
  const { origin, database } = parse(url);
  if (database === 'default') return;
  await fetch(origin, {
    method: 'POST',
    body: `DROP DATABASE IF EXISTS \`${database}\``,
    signal: AbortSignal.timeout(10_000),
  })
    .then((res) => res.text())
    .catch(() => undefined);
}

// ---------------------------------------------------------------------------------------------------
// The statistics' stored rows, wherever the server keeps them

/** The relational statistics tables a test looks at, each with its ClickHouse twin (same columns). */
const TWIN = {
  stats_minute: 'stats_minute_points', // a key-minute as the ranges read it (the database's stats_minute)
  stats_20m: 'stats_20m',
  stats_hour: 'stats_hour',
  stats_team_minute: 'stats_team_minute',
  stats_team_20m: 'stats_team_20m',
  stats_team_hour: 'stats_team_hour',
} as const;
export type StoredTable = keyof typeof TWIN;

/** A test server: its database, and its ClickHouse database when the statistics are there. */
interface StatsHome {
  app: { ctx: { db: Db } };
  clickhouseUrl: string | undefined;
}

const ints = (values: readonly number[]): string => {
  if (!values.every(Number.isSafeInteger)) throw new Error(`not whole numbers: ${values.join(', ')}`);
  return values.join(', ');
};

/**
 * The rows of a statistics table for some keys (key tables) or a team (team tables), oldest first per
 * key or team, every column a number: from ClickHouse when the server keeps its statistics there (the
 * table's twin read FINAL: the row as last written), else from the database's table.
 */
export async function storedRows<C extends string>(
  server: StatsHome,
  table: StoredTable,
  columns: readonly C[],
  where: { keyIds?: readonly number[]; teamId?: number; minute?: number },
): Promise<Array<Record<C, number>>> {
  const team = table.startsWith('stats_team_');
  const owner = team ? 'team_id' : 'key_id';
  const owners = team ? [where.teamId ?? -1] : (where.keyIds ?? []);
  const time = table.endsWith('minute') ? 'minute' : 'bucket';
  if (!columns.every((c) => /^[a-z_0-9]+$/.test(c))) throw new Error(`bad column in ${columns.join(', ')}`);
  const minute = where.minute === undefined ? '' : ` and minute = ${ints([where.minute])}`;
  const condition = `${owner} in (${ints(owners.length ? owners : [-1])})${minute}`;
  const order = `order by ${owner}, ${time}`;
  let rows: Array<Record<string, unknown>>;
  if (server.clickhouseUrl) {
    const text = await clickHouseQuery(
      server.clickhouseUrl,
      `select ${columns.join(', ')} from ${TWIN[table]} final where ${condition} ${order} format JSONEachRow`,
    );
    rows = text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } else {
    rows = (
      await sql
        .raw<Record<string, unknown>>(
          `select ${columns.join(', ')} from ${table} where ${condition} ${order}`,
        )
        .execute(server.app.ctx.db)
    ).rows;
  }
  return rows.map((r) => Object.fromEntries(columns.map((c) => [c, Number(r[c])])) as Record<C, number>);
}

/**
 * A key's stored sessions: one per minute it made a viewer in (the database's stats_minute_sessions
 * rows; on ClickHouse each minute's distinct sessions of the every-session series, stats_minute_viewers).
 */
export async function storedSessions(server: StatsHome, keyId: number): Promise<number> {
  if (server.clickhouseUrl) {
    const every = PEAK_COLUMNS.findIndex((p) => p.bit === 0);
    const text = await clickHouseQuery(
      server.clickhouseUrl,
      `select sum(n) from (select minute, uniqExactMerge(sessions) as n from stats_minute_viewers
       where key_id = ${ints([keyId])} and peak = ${ints([every])} group by minute) format TabSeparated`,
    );
    return Number(text.trim() || 0);
  }
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from stats_minute_sessions
    where key_id = ${keyId}`.execute(server.app.ctx.db);
  return Number(rows[0]?.n ?? 0);
}
