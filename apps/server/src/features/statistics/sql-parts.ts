import { STORED_COLUMNS, type StoredColumn } from '@tlprt/contract';
import { type RawBuilder, sql } from 'kysely';
import { MINUTE_BYTES_CAP, SUM_CAP } from './tables.js';

/** Pieces of the statistics statements shared by queries.ts, block-queries.ts and breakdown-queries.ts,
 *  with what differs between SQLite and PostgreSQL. */

/** The most a stored 4-byte (integer) value holds: PostgreSQL's integer is signed. */
const INT_CAP = 2_147_483_647;
/** The cap of a column's one key-minute (MINUTE_BYTES_CAP for the 8-byte ones) and of its sums. */
export const minuteCap = (c: StoredColumn) => (c.width === 8 ? MINUTE_BYTES_CAP : INT_CAP);
export const sumCap = (c: StoredColumn) => (c.width === 8 ? SUM_CAP : INT_CAP);

/** `least(a, b)`: SQLite's two-argument min() is PostgreSQL's least(). */
export const least = (pg: boolean, a: RawBuilder<unknown>, b: number) =>
  pg ? sql<number>`least(${a}, ${sql.lit(b)})` : sql<number>`min(${a}, ${sql.lit(b)})`;

/** A stored value plus a fresh one, saturating at `cap`. On PostgreSQL the addition is in bigint: two
 *  values of a 4-byte (integer) column can add up past it, which failed the whole write. */
export const addCapped = (
  pg: boolean,
  stored: RawBuilder<unknown>,
  fresh: RawBuilder<unknown>,
  cap: number,
) => least(pg, pg ? sql`${stored}::bigint + ${fresh}` : sql`${stored} + ${fresh}`, cap);

/** `sum(column)` over any number of rows that saturates at `cap` instead of failing: PostgreSQL sums
 *  bigint as numeric (no overflow until the cast back), SQLite's sum() raises "integer overflow" where
 *  total() does not (exact below 2^53). */
export function cappedSum(pg: boolean, column: RawBuilder<unknown>, cap: number) {
  return pg
    ? sql<number>`least(sum(${column}), ${sql.lit(cap)})`
    : sql<number>`cast(min(total(${column}), ${sql.lit(cap)}) as integer)`;
}

/** The stored columns (STORED_COLUMNS) as a column list, each through `f` when given. */
export const columnList = (f: (c: StoredColumn) => RawBuilder<unknown> = (c) => sql.ref(c.column)) =>
  sql.join(STORED_COLUMNS.map(f));
/** The `peak_*` columns of the team's 20-minute and hourly totals, one per peak series. */
export const peakRef = (c: { column: string }) => sql.ref(`peak_${c.column}`);
