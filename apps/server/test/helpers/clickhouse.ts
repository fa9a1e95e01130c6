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
