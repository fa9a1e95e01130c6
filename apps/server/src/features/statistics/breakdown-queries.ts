import { BREAKDOWN_MAX_ROWS, columnIndex, STORED_COLUMNS } from '@tlprt/contract';
import { sql } from 'kysely';
import { isPostgres } from '../../db/index.js';
import { chunks } from '../../lib/chunks.js';
import { lockFlushes } from './queries.js';
import { addCapped, cappedSum, columnList, minuteCap, sumCap } from './sql-parts.js';
import type { StatsDb } from './tables.js';

/** The breakdowns' SQL (migration 0016): per key and hour, rolled up per key and day, and the team
 *  totals of both. Same statements on SQLite and PostgreSQL. */

export const BREAKDOWN_HOUR = 3600;
export const BREAKDOWN_DAY = 86_400;

/** One row of a key's hour as a flush writes it: POINT_VALUES values (peak series: this node's count
 *  of the hour's sessions so far; the larger of the stored and this one is kept). */
export interface BreakdownRow {
  keyId: number;
  bucket: number;
  dim: number;
  name: string;
  values: ArrayLike<number>;
}

const larger = (table: string, column: string) =>
  sql`case when ${sql.ref(`${table}.${column}`)} > ${sql.ref(`excluded.${column}`)} then ${sql.ref(`${table}.${column}`)} else ${sql.ref(`excluded.${column}`)} end`;

/** Adds the rows to the keys' hours, then recomputes the keys' days, the teams' hours and days they
 *  touch. In the caller's transaction. */
export async function writeBreakdowns(db: StatsDb, rows: readonly BreakdownRow[]): Promise<void> {
  if (rows.length === 0) return;
  const pg = isPostgres(db);
  const update = columnList((c) => {
    const stored = sql.ref(`stats_breakdown_hour.${c.column}`);
    return sql`${sql.ref(c.column)} = ${
      c.merge === 'sum'
        ? addCapped(pg, stored, sql.ref(`excluded.${c.column}`), minuteCap(c))
        : larger('stats_breakdown_hour', c.column)
    }`;
  });
  for (const part of chunks(rows, 500)) {
    const values = part.map(
      (r) =>
        sql`(${sql.join([
          r.keyId,
          r.bucket,
          r.dim,
          r.name,
          ...STORED_COLUMNS.map((c, i) => Math.min(r.values[i] ?? 0, minuteCap(c))),
        ])})`,
    );
    await sql`
      insert into stats_breakdown_hour (key_id, bucket, dim, name, ${columnList()}) values ${sql.join(values)}
      on conflict (key_id, bucket, dim, name) do update set ${update}`.execute(db);
  }
  const keyIds = [...new Set(rows.map((r) => r.keyId))];
  const hours = rows.map((r) => r.bucket);
  const from = Math.min(...hours);
  const to = Math.max(...hours);
  const dayFrom = from - (from % BREAKDOWN_DAY);
  const dayTo = to - (to % BREAKDOWN_DAY) + BREAKDOWN_DAY;
  const merged = (prefix: string) =>
    columnList((c) =>
      c.merge === 'sum'
        ? cappedSum(pg, sql.ref(`${prefix}${c.column}`), sumCap(c))
        : sql`max(${sql.ref(`${prefix}${c.column}`)})`,
    );
  const summed = columnList((c) => cappedSum(pg, sql.ref(`h.${c.column}`), sumCap(c)));
  const replace = columnList((c) => sql`${sql.ref(c.column)} = ${sql.ref(`excluded.${c.column}`)}`);
  const day = sql`(bucket / ${sql.lit(BREAKDOWN_DAY)}) * ${sql.lit(BREAKDOWN_DAY)}`;
  for (const ids of chunks(keyIds, 500)) {
    const keys = sql.join(ids);
    await sql`
      insert into stats_breakdown_day (key_id, bucket, dim, name, ${columnList()})
      select key_id, ${day}, dim, name, ${merged('')} from stats_breakdown_hour
      where key_id in (${keys}) and bucket >= ${dayFrom} and bucket < ${dayTo}
      group by key_id, ${day}, dim, name
      on conflict (key_id, bucket, dim, name) do update set ${replace}`.execute(db);
    // The teams of these keys, every key of theirs: a team total is the plain sum of its keys' rows.
    const teams = sql`select distinct team_id from keys where id in (${keys})`;
    await sql`
      insert into stats_team_breakdown_hour (team_id, bucket, dim, name, ${columnList()})
      select k.team_id, h.bucket, h.dim, h.name, ${summed} from stats_breakdown_hour h join keys k on k.id = h.key_id
      where k.team_id in (${teams}) and h.bucket >= ${from} and h.bucket <= ${to}
      group by k.team_id, h.bucket, h.dim, h.name
      on conflict (team_id, bucket, dim, name) do update set ${replace}`.execute(db);
    await sql`
      insert into stats_team_breakdown_day (team_id, bucket, dim, name, ${columnList()})
      select team_id, ${day}, dim, name, ${merged('')} from stats_team_breakdown_hour
      where team_id in (${teams}) and bucket >= ${dayFrom} and bucket < ${dayTo}
      group by team_id, ${day}, dim, name
      on conflict (team_id, bucket, dim, name) do update set ${replace}`.execute(db);
  }
}

/** writeBreakdowns in a transaction of its own, after every other node's flush (lockFlushes). */
export function writeBreakdownsLocked(db: StatsDb, rows: readonly BreakdownRow[]): Promise<void> {
  return db.transaction().execute(async (trx) => {
    await lockFlushes(trx);
    await writeBreakdowns(trx, rows);
  });
}

/** The traffic bytes a row is ordered by. */
const ORDER = sql.join(
  [columnIndex('cdnBytes'), columnIndex('p2pBytes'), columnIndex('nodrBytes')].map((i) =>
    sql.ref(STORED_COLUMNS[i]?.column ?? ''),
  ),
  sql` + `,
);

/** Which buckets of one dimension a breakdown reads: a team's, some of its keys (all of them: the
 *  team totals), bucket starts in [from, to]. */
export interface BucketScope {
  teamId: number;
  keyIds: readonly number[];
  allKeys: boolean;
  size: number;
  dim: number;
  from: number;
  to: number;
}

/**
 * Each bucket's row per name of `scope` (only `name`'s when given), its values summed over the asked
 * keys: the team totals when they are every key of the team, else the keys' own rows added up.
 */
function bucketRows(pg: boolean, scope: BucketScope, name?: string) {
  const level = scope.size === BREAKDOWN_HOUR ? 'hour' : 'day';
  const named = name === undefined ? sql`` : sql` and name = ${name}`;
  return scope.allKeys
    ? sql`select * from ${sql.table(`stats_team_breakdown_${level}`)}
          where team_id = ${scope.teamId} and dim = ${scope.dim}${named}
            and bucket >= ${scope.from} and bucket <= ${scope.to}`
    : sql`select bucket, name, ${columnList((c) => sql`${cappedSum(pg, sql.ref(c.column), sumCap(c))} as ${sql.ref(c.column)}`)}
          from ${sql.table(`stats_breakdown_${level}`)}
          where key_id in (${sql.join(scope.keyIds)}) and dim = ${scope.dim}${named}
            and bucket >= ${scope.from} and bucket <= ${scope.to}
          group by bucket, name`;
}

/**
 * The rows of one dimension over [from, to] (bucket starts) for some keys of a team, largest first:
 * sums added, peak series the largest bucket's (summed over the keys of that bucket). Every key of the
 * team reads the team totals; fewer keys their own rows.
 */
export async function readBreakdown(
  db: StatsDb,
  q: BucketScope,
): Promise<Array<{ name: string } & Record<string, number>>> {
  const pg = isPostgres(db);
  const outer = columnList(
    (c) =>
      sql`${c.merge === 'sum' ? cappedSum(pg, sql.ref(`b.${c.column}`), sumCap(c)) : sql`max(${sql.ref(`b.${c.column}`)})`} as ${sql.ref(c.column)}`,
  );
  const rows = await sql<{ name: string } & Record<string, number>>`
    select * from (select b.name, ${outer} from (${bucketRows(pg, q)}) b group by b.name) r
    order by ${ORDER} desc, name limit ${BREAKDOWN_MAX_ROWS}`.execute(db);
  return rows.rows;
}

/**
 * One name's buckets over [from, to] (bucket starts) of one dimension, oldest first, for some keys of a
 * team: each bucket's values summed over the keys (peak series too, as readBreakdown sums a bucket), so
 * the buckets merged as readBreakdown merges them give its row of that name. Every key of the team
 * reads the team totals.
 */
export async function readBreakdownSeries(
  db: StatsDb,
  q: BucketScope & { name: string },
): Promise<Array<{ bucket: number } & Record<string, number>>> {
  const rows = await sql<{ bucket: number } & Record<string, number>>`
    select bucket, ${columnList()} from (${bucketRows(isPostgres(db), q, q.name)}) b
    order by bucket`.execute(db);
  return rows.rows;
}
