import { PEAK_SERIES } from '@tlprt/contract';
import type { Generated, Kysely } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database } from '../../db/schema.js';

/** The statistics tables (migrations 0005, 0006, 0009, 0011, 0012, 0015, 0019 and 0024). Sizes are bigint: read back
 *  as numbers (db/index.ts). The statements on them are built from the contract's series table
 *  (STORED_COLUMNS: one column per series, a histogram's per bucket); the columns typed here are those
 *  the code names itself. */
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
  /** Peer bytes refused by the plugin's verification (0012): summed like the sizes, but no series of
   *  its own (no users: refused bytes do not make a viewer). */
  rejected_bytes: Generated<number>;
  /** Bytes the integrity service fetched from the key's origins (0019): counted by the server, never
   *  reported, and no viewer. */
  verify_bytes: Generated<number>;
  /** Of p2p_bytes, those from peers of other networks (0024): summed like the sizes, no viewer. */
  p2p_cross_bytes: Generated<number>;
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
/** The `*_users` columns hold the sum of the keys' peaks, like every team total; the `peak_*` ones
 *  (0011) the team's own peak minute of the bucket. */
interface StatsTeamBucketTable extends SeriesColumns {
  team_id: number;
  bucket: number;
  peak_cdn_users: Generated<number>;
  peak_p2p_users: Generated<number>;
  peak_nodr_users: Generated<number>;
  peak_users: Generated<number>;
}
/** One session of one key-minute (0011): `series` holds its series as bits (PEAK_SERIES); the row
 *  itself makes it a viewer. */
interface StatsMinuteSessionsTable {
  minute: number;
  key_id: number;
  session_hash: string;
  series: number;
}
/** A key's points of one span packed in one value (0011, block-format.ts, block-queries.ts packPoints): what the ranges read;
 *  `drawn` is the chart's cut of them, `version` changes with every write (0017, BlockCache). */
interface StatsBlocksTable {
  key_id: number;
  start: number;
  version: Generated<number>;
  drawn: Buffer;
  points: Buffer;
}
interface StatsTeamBlocksTable {
  team_id: number;
  start: number;
  version: Generated<number>;
  drawn: Buffer;
  points: Buffer;
}
interface StatsSettingsTable {
  user_id: number;
  team_id: number;
  save_json: string;
  updated_at: number;
}
/** The layout the packed blocks were written in (0015; layout.ts). */
interface StatsLayoutTable {
  name: string;
  signature: string;
}
export type StatsTables = {
  stats_layout: StatsLayoutTable;
  stats_minute: StatsMinuteTable;
  stats_20m: StatsBucketTable;
  stats_hour: StatsBucketTable;
  stats_team_minute: StatsTeamMinuteTable;
  stats_team_20m: StatsTeamBucketTable;
  stats_team_hour: StatsTeamBucketTable;
  stats_minute_sessions: StatsMinuteSessionsTable;
  stats_minute_blocks: StatsBlocksTable;
  stats_team_minute_blocks: StatsTeamBlocksTable;
  stats_20m_blocks: StatsBlocksTable;
  stats_hour_blocks: StatsBlocksTable;
  stats_settings: StatsSettingsTable;
};
export type StatsDb = Kysely<Database & StatsTables>;

export const statsDb = (db: Db): StatsDb => db.withTables<StatsTables>();

/** Retention (docs/DESIGN.md §2): minutes 2 days, 20-minute rollups 62 days, hourly 2 years; sessions 2 hours. */
export const RETENTION_S = {
  minute: 2 * 86_400,
  twenty: 62 * 86_400,
  hour: 730 * 86_400,
  sessions: 2 * 3600,
} as const;

/** The most the decoded blocks kept for the charts take (BlockCache): a day of 25 keys is 2.5 MB. */
export const BLOCK_CACHE_BYTES = 64 * 2 ** 20;

/** The seconds of points one block packs per level (block-queries.ts packPoints): at most 72 points. */
export const BLOCK_SPAN_S = { minute: 3600, twenty: 86_400, hour: 3 * 86_400 } as const;

/** The peak series (viewers), each with its bit in a stored session's `series` (0: every session). */
export const PEAK_COLUMNS = PEAK_SERIES;

/**
 * The most one stored minute of one key holds per series: 2^50 bytes (about 150 Tbit/s for the whole
 * minute), far above any real audience. In-memory and stored additions saturate here, so an hour of
 * them (60 × 2^50 < 2^56) never overflows a 64-bit column, whatever a copied key hash sends.
 */
export const MINUTE_BYTES_CAP = 2 ** 50;
/** Below the 64-bit limit (9.22e18): where sums over many keys saturate instead of failing. */
export const SUM_CAP = 9e18;
