import { STORED_COLUMNS } from '@tlprt/contract';
import { PEAK_COLUMNS } from '../tables.js';
import type { ClickHouse } from './client.js';
import { chString } from './sql.js';

/**
 * The statistics' tables in ClickHouse (docs/DESIGN.md §7, "On ClickHouse"). Every statement runs on
 * ClickHouse 18.16 (Debian's) and on current releases: engines with their `partition by` / `order by`
 * clauses, Null tables feeding materialized views, aggregate-function states. Nothing newer is used
 * (no TTL, no SimpleAggregateFunction, no query parameters); what a newer server would do better is
 * named where it applies.
 *
 *  stats_minute          SummingMergeTree: a key's minute, every summed column (bytes, refused and
 *                        verification bytes, the histograms' buckets), added up by ClickHouse itself;
 *                        `receipt`, on one row of a write, the journal's mark it carries
 *   └▶ stats_receipts    the marks of the writes ClickHouse took (its materialized view sees each insert
 *                        whole: a write and its receipt are stored together or not at all)
 *  stats_sessions_in     Null: one row per session and peak series it counts in (the writer's input)
 *   └▶ stats_minute_viewers  AggregatingMergeTree: per key, minute and peak series, the distinct
 *                        sessions as a uniqExact state (exact, as the database's count)
 *  stats_minute_presets  ReplacingMergeTree(viewers): a pre-counted minute's viewers (the demo's
 *                        history), the largest kept
 *  stats_minute_points   ReplacingMergeTree(version): a key's minute as the ranges read it, every
 *                        column with its viewers counted, written by the writer for the minutes it
 *                        touched (the database's stats_minute after its recount)
 *  stats_team_minute     the same per team: the sum of its keys' minutes
 *  stats_20m, stats_hour ReplacingMergeTree(version): a key's 20-minute / hourly points, written by
 *                        the writer from the minutes it touched (sums summed, viewers the peak minute)
 *  stats_team_20m, stats_team_hour   the same per team: the keys' sums, the sum of their peaks, and
 *                        the team's own peak minute (`peak_*`)
 *
 * Minutes are partitioned by day (kept 2 days: a day is dropped whole), the rest by month. Every table
 * is ordered by team, key and time: a team's read is one range of the primary index.
 */

/** The summed columns (the peak series are counted from sessions). */
export const SUMMED = STORED_COLUMNS.filter((c) => c.merge === 'sum');
const u64 = (columns: ReadonlyArray<{ column: string }>, prefix = '') =>
  columns.map((c) => `${prefix}${c.column} UInt64`).join(', ');

const byDay = "partition by toYYYYMMDD(toDateTime(minute, 'UTC'))";
const byMonth = "partition by toYYYYMM(toDateTime(bucket, 'UTC'))";

/** Table name → its statement (made in this order). */
export function statsTables(): Array<[name: string, ddl: string]> {
  const rollup = (name: string) =>
    [
      name,
      `create table if not exists ${name} (team_id UInt32, key_id UInt32, bucket UInt32,
        ${u64(STORED_COLUMNS)}, version UInt64)
       engine = ReplacingMergeTree(version) ${byMonth} order by (team_id, key_id, bucket)`,
    ] as [string, string];
  const teamRollup = (name: string) =>
    [
      name,
      `create table if not exists ${name} (team_id UInt32, bucket UInt32,
        ${u64(STORED_COLUMNS)}, ${u64(PEAK_COLUMNS, 'peak_')}, version UInt64)
       engine = ReplacingMergeTree(version) ${byMonth} order by (team_id, bucket)`,
    ] as [string, string];
  return [
    [
      'stats_minute',
      `create table if not exists stats_minute (team_id UInt32, key_id UInt32, minute UInt32, ${u64(SUMMED)},
        receipt String)
       engine = SummingMergeTree() ${byDay} order by (team_id, key_id, minute)`,
    ],
    [
      'stats_receipts',
      `create table if not exists stats_receipts (receipt String, at UInt32)
       engine = MergeTree() partition by toYYYYMMDD(toDateTime(at, 'UTC')) order by receipt`,
    ],
    [
      'stats_receipts_mv',
      `create materialized view if not exists stats_receipts_mv to stats_receipts as
       select receipt, toUInt32(now()) as at from stats_minute where receipt != ''`,
    ],
    [
      'stats_sessions_in',
      `create table if not exists stats_sessions_in
        (team_id UInt32, key_id UInt32, minute UInt32, peak UInt8, session_hash String) engine = Null`,
    ],
    [
      'stats_minute_viewers',
      `create table if not exists stats_minute_viewers (team_id UInt32, key_id UInt32, minute UInt32,
        peak UInt8, sessions AggregateFunction(uniqExact, String))
       engine = AggregatingMergeTree() ${byDay} order by (team_id, key_id, minute, peak)`,
    ],
    [
      'stats_minute_viewers_mv',
      `create materialized view if not exists stats_minute_viewers_mv to stats_minute_viewers as
       select team_id, key_id, minute, peak, uniqExactState(session_hash) as sessions
       from stats_sessions_in group by team_id, key_id, minute, peak`,
    ],
    [
      'stats_minute_presets',
      `create table if not exists stats_minute_presets
        (team_id UInt32, key_id UInt32, minute UInt32, peak UInt8, viewers UInt64)
       engine = ReplacingMergeTree(viewers) ${byDay} order by (team_id, key_id, minute, peak)`,
    ],
    [
      'stats_minute_points',
      `create table if not exists stats_minute_points (team_id UInt32, key_id UInt32, minute UInt32,
        ${u64(STORED_COLUMNS)}, version UInt64)
       engine = ReplacingMergeTree(version) ${byDay} order by (team_id, key_id, minute)`,
    ],
    [
      'stats_team_minute',
      `create table if not exists stats_team_minute (team_id UInt32, minute UInt32, ${u64(STORED_COLUMNS)},
        version UInt64)
       engine = ReplacingMergeTree(version) ${byDay} order by (team_id, minute)`,
    ],
    rollup('stats_20m'),
    rollup('stats_hour'),
    teamRollup('stats_team_20m'),
    teamRollup('stats_team_hour'),
  ];
}

/**
 * Makes the database and the tables that are missing (`extra`: the breakdowns'), then adds the stored
 * columns a table lacks: a series added to the contract's table is a column added here, 0 in the rows
 * before it, as the database's migrations do.
 */
export async function ensureStatsTables(
  ch: ClickHouse,
  extra: ReadonlyArray<[string, string]>,
): Promise<void> {
  await ch.ensureDatabase();
  const tables = [...statsTables(), ...extra];
  for (const [, ddl] of tables) await ch.command(ddl);
  const existing = await ch.rows<{ table: string; name: string }>(
    `select table, name from system.columns where database = ${chString(ch.database)}`,
  );
  const has = new Set(existing.map((c) => `${c.table}.${c.name}`));
  for (const [table, ddl] of tables) {
    if (!/ engine = (Summing|Replacing)MergeTree/.test(ddl)) continue;
    for (const c of STORED_COLUMNS) {
      if (!ddl.includes(` ${c.column} UInt64`) || has.has(`${table}.${c.column}`)) continue;
      await ch.command(`alter table ${table} add column ${c.column} UInt64`);
    }
  }
}
