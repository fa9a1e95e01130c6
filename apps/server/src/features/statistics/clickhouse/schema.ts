import { createHash } from 'node:crypto';
import { STORED_COLUMNS, type StoredColumn } from '@tlprt/contract';
import { sumCap } from '../sql-parts.js';
import { PEAK_COLUMNS } from '../tables.js';
import type { ClickHouse } from './client.js';
import { chName, chString } from './sql.js';

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
 *
 * The tables the ranges and breakdowns read also hold their values as one array (`v_<layout>`,
 * valuesColumn): 18.16 pays for every column of every part a read opens, so a month's 721 team rows
 * took 6.8 ms as 30 columns and 2.8 ms as one array (4 parts). The named columns stay the truth the
 * writer's statements and a new series' column work on; the array is MATERIALIZED from them, so an
 * added series is a new array column, computed from the named ones in the parts written before it.
 */

/** The summed columns (the peak series are counted from sessions). */
export const SUMMED = STORED_COLUMNS.filter((c) => c.merge === 'sum');

/** A table: its columns with their types (the statement is made from them, and a column missing from an
 *  existing table is added from them) and the rest of its statement. */
export interface TableSpec {
  name: string;
  columns: ReadonlyArray<readonly [name: string, type: string]>;
  engine: string;
}
/** A materialized view, made after every table and column (it may read a column added to a table). */
export interface ViewSpec {
  name: string;
  view: string;
}
/**
 * The array of `names` (MATERIALIZED: computed on insert, and from the named columns in parts written
 * before it was added), named after them: a changed list is another column, the old one dropped.
 */
export function valuesColumn(names: readonly string[]): readonly [name: string, type: string] {
  const layout = createHash('sha256').update(names.join(',')).digest('hex').slice(0, 10);
  return [`v_${layout}`, `Array(UInt64) MATERIALIZED [${names.map(chName).join(', ')}]`];
}
/** The stored columns' names, in STORED_COLUMNS order (a point's values, a key table's array). */
export const NAMES = STORED_COLUMNS.map((c) => c.column);
/** A team rollup's array: the stored columns, then the team's own peaks. */
export const TEAM_NAMES = [...NAMES, ...PEAK_COLUMNS.map((p) => `peak_${p.column}`)];
/** Each column's cap on a sum of rows (sumCap), as an array literal to take the arrays' sums down to
 *  (SUM_CAP is above 2^53: written as the exact integer its double is). */
const sumCaps = (columns: readonly StoredColumn[]) =>
  `[${columns.map((c) => BigInt(sumCap(c)).toString()).join(', ')}]`;
/** The arrays of `column` (the values of `columns`, STORED_COLUMNS by default) summed over rows, each
 *  value capped at its column's sumCap. */
export const arraysSummed = (column: string, columns: readonly StoredColumn[] = STORED_COLUMNS) =>
  `arrayMap((s, cap) -> least(s, cap), sumForEach(${column}), ${sumCaps(columns)})`;
/** A key table's array column's name, and a team rollup's. */
export const KEY_VALUES = valuesColumn(NAMES)[0];
export const TEAM_VALUES = valuesColumn(TEAM_NAMES)[0];

const u64 = (columns: ReadonlyArray<{ column: string }>, prefix = '') =>
  columns.map((c) => [`${prefix}${c.column}`, 'UInt64'] as const);
const typed = (spec: string) => spec.split(',').map((c) => c.trim().split(' ') as [string, string]);

/**
 * Rows per index mark. 18.16 reads (and a FINAL merges) whole granules: at its 8,192 a month's breakdown
 * of one team read every row of the table in the bench (9.9 ms for a team that had none, 3.6 ms at 256).
 * A team's tables hold few rows per team, finely indexed; a key's many, at a coarser step (the index
 * stays in memory: a row in 1,024 costs 16 bytes or so).
 */
export const TEAM_GRANULES = 'settings index_granularity = 256';
export const KEY_GRANULES = 'settings index_granularity = 1024';

const byDay = "partition by toYYYYMMDD(toDateTime(minute, 'UTC'))";
const byMonth = "partition by toYYYYMM(toDateTime(bucket, 'UTC'))";

/** The tables and views (the tables made in this order, then their missing columns, then the views). */
function statsTables(): Array<TableSpec | ViewSpec> {
  const rollup = (name: string): TableSpec => ({
    name,
    columns: [
      ...typed('team_id UInt32, key_id UInt32, bucket UInt32'),
      ...u64(STORED_COLUMNS),
      ['version', 'UInt64'],
      valuesColumn(NAMES),
    ],
    engine: `ReplacingMergeTree(version) ${byMonth} order by (team_id, key_id, bucket) ${KEY_GRANULES}`,
  });
  const teamRollup = (name: string): TableSpec => ({
    name,
    columns: [
      ...typed('team_id UInt32, bucket UInt32'),
      ...u64(STORED_COLUMNS),
      ...u64(PEAK_COLUMNS, 'peak_'),
      ['version', 'UInt64'],
      valuesColumn(TEAM_NAMES),
    ],
    engine: `ReplacingMergeTree(version) ${byMonth} order by (team_id, bucket) ${TEAM_GRANULES}`,
  });
  const keyMinute = typed('team_id UInt32, key_id UInt32, minute UInt32');
  return [
    {
      name: 'stats_minute',
      columns: [...keyMinute, ...u64(SUMMED), ['receipt', 'String']],
      engine: `SummingMergeTree() ${byDay} order by (team_id, key_id, minute)`,
    },
    {
      name: 'stats_receipts',
      columns: typed('receipt String, at UInt32'),
      engine: "MergeTree() partition by toYYYYMMDD(toDateTime(at, 'UTC')) order by receipt",
    },
    {
      name: 'stats_receipts_mv',
      view: `to stats_receipts as
       select receipt, toUInt32(now()) as at from stats_minute where receipt != ''`,
    },
    {
      name: 'stats_sessions_in',
      columns: [...keyMinute, ...typed('peak UInt8, session_hash String')],
      engine: 'Null',
    },
    {
      name: 'stats_minute_viewers',
      columns: [...keyMinute, ['peak', 'UInt8'], ['sessions', 'AggregateFunction(uniqExact, String)']],
      engine: `AggregatingMergeTree() ${byDay} order by (team_id, key_id, minute, peak)`,
    },
    {
      name: 'stats_minute_viewers_mv',
      view: `to stats_minute_viewers as
       select team_id, key_id, minute, peak, uniqExactState(session_hash) as sessions
       from stats_sessions_in group by team_id, key_id, minute, peak`,
    },
    {
      name: 'stats_minute_presets',
      columns: [...keyMinute, ...typed('peak UInt8, viewers UInt64')],
      engine: `ReplacingMergeTree(viewers) ${byDay} order by (team_id, key_id, minute, peak)`,
    },
    {
      name: 'stats_minute_points',
      columns: [...keyMinute, ...u64(STORED_COLUMNS), ['version', 'UInt64'], valuesColumn(NAMES)],
      engine: `ReplacingMergeTree(version) ${byDay} order by (team_id, key_id, minute) ${KEY_GRANULES}`,
    },
    {
      name: 'stats_team_minute',
      columns: [
        ...typed('team_id UInt32, minute UInt32'),
        ...u64(STORED_COLUMNS),
        ['version', 'UInt64'],
        valuesColumn(NAMES),
      ],
      engine: `ReplacingMergeTree(version) ${byDay} order by (team_id, minute) ${TEAM_GRANULES}`,
    },
    rollup('stats_20m'),
    rollup('stats_hour'),
    teamRollup('stats_team_20m'),
    teamRollup('stats_team_hour'),
  ];
}

/**
 * Makes the database and the tables that are missing (`extra`: the breakdowns' tables and view), then
 * adds every column a table lacks, with its type: a series added to the contract's table is a column
 * added here (0, or an empty state, in the rows before it), as the database's migrations do, and the
 * table's array of another layout (valuesColumn) is dropped; then the views that are missing, last as
 * one may read an added column. 18.16 has no `add column if not exists`, hence one look at
 * system.columns.
 */
export async function ensureStatsTables(
  ch: ClickHouse,
  extra: ReadonlyArray<TableSpec | ViewSpec>,
): Promise<void> {
  await ch.ensureDatabase();
  const specs = [...statsTables(), ...extra];
  for (const t of specs) {
    if ('view' in t) continue;
    await ch.command(
      `create table if not exists ${chName(t.name)} (${t.columns.map(([n, type]) => `${chName(n)} ${type}`).join(', ')})
       engine = ${t.engine}`,
    );
  }
  const existing = await ch.rows<{ table: string; name: string }>(
    `select table, name from system.columns where database = ${chString(ch.database)}`,
  );
  const has = new Set(existing.map((c) => `${c.table}.${c.name}`));
  for (const t of specs) {
    if ('view' in t) continue;
    for (const [name, type] of t.columns)
      if (!has.has(`${t.name}.${name}`))
        await ch.command(`alter table ${chName(t.name)} add column ${chName(name)} ${type}`);
    const current = new Set(t.columns.map(([name]) => name));
    for (const c of existing)
      if (c.table === t.name && /^v_[0-9a-f]{10}$/.test(c.name) && !current.has(c.name))
        await ch.command(`alter table ${chName(t.name)} drop column ${chName(c.name)}`);
  }
  for (const t of specs)
    if ('view' in t) await ch.command(`create materialized view if not exists ${chName(t.name)} ${t.view}`);
}
