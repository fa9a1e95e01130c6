import { POINT_VALUES, STORED_COLUMNS } from '@tlprt/contract';
import { sql } from 'kysely';
import { type Db, isPostgres } from '../../db/index.js';

/**
 * The alerts' reads of the statistics: a team's stored minutes (stats_minute, keyed by key id and
 * minute, kept 2 days), every stored column summed over the watched keys, per minute. Keys are named by
 * hash and looked up inside the team, so another team's key adds nothing.
 */

/** Unix s of a minute's start → its columns summed over the keys (STORED_COLUMNS order); minutes
 *  without a row are absent. `keys` empty: every key of the team (deleted ones keep their history). */
export async function minuteSums(
  db: Db,
  teamId: number,
  keys: readonly string[],
  fromMinute: number,
  toMinute: number,
): Promise<Map<number, Float64Array>> {
  const out = new Map<number, Float64Array>();
  if (toMinute < fromMinute) return out;
  // Sums as doubles on both databases: PostgreSQL sums bigint as numeric (read back as text), SQLite's
  // sum() may overflow where total() does not; an alert needs no exactness past 2^53.
  const pg = isPostgres(db);
  const total = (column: string) =>
    pg ? sql`cast(sum(${sql.ref(column)}) as double precision)` : sql`total(${sql.ref(column)})`;
  const only = keys.length ? sql`and key_hash in (${sql.join(keys)})` : sql``;
  const { rows } = await sql<Record<string, number | string>>`
    select minute, ${sql.join(STORED_COLUMNS.map((c) => sql`${total(c.column)} as ${sql.ref(c.column)}`))}
    from stats_minute
    where key_id in (select id from keys where team_id = ${teamId} ${only})
      and minute >= ${fromMinute} and minute <= ${toMinute}
    group by minute`.execute(db);
  for (const r of rows) {
    const values = new Float64Array(POINT_VALUES);
    STORED_COLUMNS.forEach((c, i) => {
      values[i] = Number(r[c.column] ?? 0);
    });
    out.set(Number(r.minute), values);
  }
  return out;
}

/** The hashes among `keys` that are not keys of the team. */
export async function foreignKeys(db: Db, teamId: number, keys: readonly string[]): Promise<string[]> {
  if (!keys.length) return [];
  const rows = await db
    .selectFrom('keys')
    .select('key_hash')
    .where('team_id', '=', teamId)
    .where('key_hash', 'in', [...keys])
    .execute();
  const own = new Set(rows.map((r) => r.key_hash));
  return keys.filter((k) => !own.has(k));
}
