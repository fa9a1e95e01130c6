import { type Generated, type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database } from '../../db/schema.js';

/** The statistics tables (migrations 0005, 0006 and 0009). Sizes are bigint: read back as numbers
 *  (db/index.ts). */
interface SeriesColumns {
  cdn_bytes: number;
  p2p_bytes: number;
  nodr_bytes: number;
  cdn_users: number;
  p2p_users: number;
  nodr_users: number;
  /** Distinct sessions with any bytes (0009): not the sum of the series' users, which count a session
   *  fed by both the CDN and peers twice. Defaults to 0, so rows written before 0009 still insert. */
  users: Generated<number>;
}
interface StatsMinuteTable extends SeriesColumns {
  key_id: number;
  minute: number;
}
interface StatsBucketTable extends SeriesColumns {
  key_id: number;
  bucket: number;
}
/** A team total: the sum of the team's per-key rows at that time (migration 0006). */
interface StatsTeamMinuteTable extends SeriesColumns {
  team_id: number;
  minute: number;
}
interface StatsTeamBucketTable extends SeriesColumns {
  team_id: number;
  bucket: number;
}
interface StatsMinuteSessionsTable {
  key_id: number;
  minute: number;
  /** 0 cdn, 1 p2p, 2 nodr, 3 any bytes (SESSION_SETS). */
  series: number;
  session_hash: string;
}
interface StatsSettingsTable {
  user_id: number;
  team_id: number;
  save_json: string;
  updated_at: number;
}
export type StatsTables = {
  stats_minute: StatsMinuteTable;
  stats_20m: StatsBucketTable;
  stats_hour: StatsBucketTable;
  stats_team_minute: StatsTeamMinuteTable;
  stats_team_20m: StatsTeamBucketTable;
  stats_team_hour: StatsTeamBucketTable;
  stats_minute_sessions: StatsMinuteSessionsTable;
  stats_settings: StatsSettingsTable;
};
export type StatsDb = Kysely<Database & StatsTables>;

export const statsDb = (db: Db): StatsDb => db.withTables<StatsTables>();

/** Retention (DESIGN §2): minutes 2 days, 20-minute rollups 62 days, hourly 2 years; sessions 2 hours. */
export const RETENTION_S = {
  minute: 2 * 86_400,
  twenty: 62 * 86_400,
  hour: 730 * 86_400,
  sessions: 2 * 3600,
} as const;

/** The three levels of points: the per-key table, the team totals of it (the sum of the team's per-key
 *  rows), their time column and the seconds of one point. */
export const STATS_LEVELS = [
  { key: 'stats_minute', team: 'stats_team_minute', time: 'minute', size: 60 },
  { key: 'stats_20m', team: 'stats_team_20m', time: 'bucket', size: 1200 },
  { key: 'stats_hour', team: 'stats_team_hour', time: 'bucket', size: 3600 },
] as const;

export const isPostgres = (db: { getExecutor(): { readonly adapter: unknown } }): boolean =>
  db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The most one stored minute of one key holds per series: 2^50 bytes (about 150 Tbit/s for the whole
 * minute), far above any real audience. In-memory and stored additions saturate here, so an hour of
 * them (60 × 2^50 < 2^56) never overflows a 64-bit column, whatever a copied key hash sends.
 */
export const MINUTE_BYTES_CAP = 2 ** 50;
/** Below the 64-bit limit (9.22e18): where sums over many keys saturate instead of failing. */
const SUM_CAP = 9e18;

/** `a + b`, at most MINUTE_BYTES_CAP (both operands are already at most that: the addition cannot
 *  overflow). */
export function cappedAdd(pg: boolean, a: RawBuilder<unknown>, b: RawBuilder<unknown>) {
  return pg
    ? sql<number>`least(${a} + ${b}, ${sql.lit(MINUTE_BYTES_CAP)})`
    : sql<number>`min(${a} + ${b}, ${sql.lit(MINUTE_BYTES_CAP)})`;
}

/** `sum(column)` over any number of keys that saturates instead of failing: PostgreSQL sums bigint as
 *  numeric (no overflow until the cast back), SQLite's sum() raises "integer overflow" where total()
 *  does not (exact below 2^53). */
export function cappedSum(pg: boolean, column: RawBuilder<unknown>) {
  return pg
    ? sql<number>`least(sum(${column}), ${sql.lit(SUM_CAP)})`
    : sql<number>`cast(min(total(${column}), ${sql.lit(SUM_CAP)}) as integer)`;
}
