import { BREAKDOWN_MAX_ROWS, columnIndex, STORED_COLUMNS, type StoredColumn } from '@tlprt/contract';
import { BREAKDOWN_DAY, BREAKDOWN_HOUR, type BreakdownRow, type BucketScope } from '../breakdown-queries.js';
import { minuteCap, sumCap } from '../sql-parts.js';
import type { BreakdownBuckets, BreakdownRows } from '../store.js';
import { RETENTION_S } from '../tables.js';
import { answerLost, type ClickHouse } from './client.js';
import {
  arraysSummed,
  KEY_GRANULES,
  SUMMED,
  type TableSpec,
  TEAM_GRANULES,
  type ViewSpec,
  valuesColumn,
} from './schema.js';
import { chInt, chInts, chName, chString } from './sql.js';

/**
 * The breakdowns on ClickHouse (docs/DESIGN.md §7), with the answers of the database's
 * (breakdown-queries.ts) to the value:
 *
 *  stats_breakdown_stage  MergeTree: a write's rows as sent (the batch's name on each), capped as the
 *                         database caps a row it inserts; what the writer's statements below read
 *  stats_breakdown_hour   AggregatingMergeTree: a key's hour per dimension and name, sums as sumState
 *                         (ClickHouse adds them up; capped at minuteCap when read, which is the
 *                         database's saturating addition: each row staged is at most minuteCap, so
 *                         the UInt64 sum cannot wrap before 2^14 writes of one key-hour and name at
 *                         the 8-byte cap), peak series as maxState (the larger of the stored count and
 *                         a node's fresh one)
 *  stats_breakdown_day    ReplacingMergeTree(version): a key's UTC day, recomputed by the writer from
 *                         the day's hours (sums summed, capped; peaks the largest hour); `version` its
 *                         completeness (below), the sums and the peaks each also one array (read by
 *                         FINAL)
 *  stats_team_breakdown_day   the same per team: from the team's hours (each the capped sum of its
 *                         keys' hours, peaks too), sums summed, peaks the largest hour
 *
 * A team's hour is not stored: it is the sum of its keys' hours (each row carries its team), read
 * from the same index range. The days are stored, as they outlive the hours (62 days, the days 2
 * years: retention.ts), and a capped day is not the sum of what was inserted. Every value of a day
 * only grows as the hours do (sums and peaks alike, caps included), so of a day's recomputations the
 * one that saw the most rows has the largest values, and the table keeps it by its completeness,
 * whatever the order in which the recomputations of two nodes land; a recomputation done twice
 * changes nothing. (Max states per column would keep the same values, at the cost of a second
 * aggregation on every read.)
 *
 * Every table is partitioned by month (the stage by day, to be dropped after 2 days) and ordered by
 * (team_id, dim, bucket, …): a team's breakdown over a window is one range of the primary index.
 * Only what 18.16 has: aggregate-function states, INSERT … SELECT, UNION ALL, tuple IN subqueries,
 * Decimal128 (for the ordering sum that a UInt64 could overflow). On a current server,
 * SimpleAggregateFunction(sum|max, UInt64) columns would hold the same values as plain numbers, and
 * the `input()` table function could merge a write's rows without the stage table.
 */

const HOUR = 'stats_breakdown_hour';
const DAY = 'stats_breakdown_day';
export const TEAM_DAY = 'stats_team_breakdown_day';
const STAGE = 'stats_breakdown_stage';

/** The peak series, beside SUMMED: a day's sums and peaks are each one array (SUM_VALUES, PEAK_VALUES)
 *  as breakdowns read them, adding up the one and taking the largest of the other (a ForEach over each
 *  half, not both over all: 1.5 ms of the bench's month of 200 streams). */
export const PEAKED = STORED_COLUMNS.filter((c) => c.merge !== 'sum');
/** The names in the days' arrays: the sums', then the peaks'. */
export const DAY_ARRAY_NAMES = [SUMMED, PEAKED].map((columns) => columns.map((c) => c.column));
const DAY_ARRAYS = DAY_ARRAY_NAMES.map((names) => valuesColumn(names));
const [[SUM_VALUES], [PEAK_VALUES]] = DAY_ARRAYS as [readonly [string, string], readonly [string, string]];
/** The order of a read's values: its sums, then its peaks. */
const READ_ORDER = [...SUMMED, ...PEAKED];

const byMonth = "partition by toYYYYMM(toDateTime(bucket, 'UTC'))";
const cols = (f: (c: StoredColumn) => string) => STORED_COLUMNS.map(f).join(', ');
const names = cols((c) => chName(c.column));
const keyOf = (c: StoredColumn) => (c.merge === 'sum' ? 'sum' : 'max');
/** `least(x, cap)` as the UInt64 every state and answer holds (the caps are our own integers; SUM_CAP
 *  is above 2^53, where chInt refuses, but exact as a double). */
const capped = (x: string, cap: number) => {
  if (!Number.isInteger(cap) || cap < 0) throw new TypeError(`not a cap: ${cap}`);
  return `toUInt64(least(${x}, ${BigInt(cap).toString()}))`;
};
const dayOf = (bucket: string) => `intDiv(${bucket}, ${chInt(BREAKDOWN_DAY)}) * ${chInt(BREAKDOWN_DAY)}`;

/** The column's type in each table: the hours' aggregate states, plain numbers elsewhere. */
const columnType = (table: string, c: StoredColumn) =>
  table === HOUR ? `AggregateFunction(${keyOf(c)}, UInt64)` : 'UInt64';

/**
 * A day's completeness: its values added up (each at most 2^59, so 26 and more columns stay below
 * 2^64). Every value of a day only grows as its hours do, so a recomputation that saw more rows has a
 * larger sum, and the ReplacingMergeTree keeps it whatever order two nodes' recomputations land in.
 * Equal sums are equal rows, but for values past 2^59 bytes a day (no traffic of this world).
 */
const completeness = `toUInt64(${STORED_COLUMNS.map((c) => `least(${chName(c.column)}, ${2 ** 59})`).join(' + ')})`;

/** The breakdowns' tables (made in this order by ensureStatsTables, which adds a column they lack). */
export function breakdownTables(): TableSpec[] {
  const columns = (table: string) => STORED_COLUMNS.map((c) => [c.column, columnType(table, c)] as const);
  const keyed = [
    ['team_id', 'UInt32'],
    ['key_id', 'UInt32'],
    ['bucket', 'UInt32'],
    ['dim', 'UInt8'],
    ['name', 'String'],
  ] as const;
  return [
    {
      name: STAGE,
      columns: [['batch', 'String'], ['at', 'UInt32'], ...keyed, ...columns(STAGE)],
      engine: "MergeTree() partition by toYYYYMMDD(toDateTime(at, 'UTC')) order by (batch, team_id, key_id)",
    },
    {
      name: HOUR,
      columns: [...keyed, ...columns(HOUR), ['receipt', 'String']],
      engine: `AggregatingMergeTree() ${byMonth} order by (team_id, dim, bucket, key_id, name) ${KEY_GRANULES}`,
    },
    {
      name: DAY,
      columns: [...keyed, ...columns(DAY), ['version', 'UInt64'], ...DAY_ARRAYS],
      engine: `ReplacingMergeTree(version) ${byMonth} order by (team_id, dim, bucket, key_id, name) ${KEY_GRANULES}`,
    },
    {
      name: TEAM_DAY,
      columns: [
        ...keyed.filter(([n]) => n !== 'key_id'),
        ...columns(TEAM_DAY),
        ['version', 'UInt64'],
        ...DAY_ARRAYS,
      ],
      engine: `ReplacingMergeTree(version) ${byMonth} order by (team_id, dim, bucket, name) ${TEAM_GRANULES}`,
    },
  ];
}

/** How long each table keeps its rows (what the database keeps: retention.ts) and what its partitions
 *  are (a partition is dropped once all of it is older; the stage's rows serve only their write). */
export const BREAKDOWN_TABLES_KEPT: Array<
  [table: string, keepSeconds: number, partitionedBy: 'month' | 'day']
> = [
  [HOUR, RETENTION_S.twenty, 'month'],
  [DAY, RETENTION_S.hour, 'month'],
  [TEAM_DAY, RETENTION_S.hour, 'month'],
  [STAGE, RETENTION_S.minute, 'day'],
];

/** A write's receipt in stats_receipts: its hour insert was stored (settled by the store when the
 *  insert's answer was lost). */
export const breakdownReceipt = (batch: string) => `breakdowns:${batch}`;

/** The hours' receipts: the one row of an insert that carries its write's receipt, to stats_receipts
 *  (a materialized view sees an insert's block whole: the rows and the receipt are stored together). */
export const BREAKDOWN_RECEIPTS: ViewSpec = {
  name: 'stats_breakdown_receipts_mv',
  view: `to stats_receipts as select receipt, toUInt32(now()) as at from ${HOUR} where receipt != ''`,
};

/** A breakdown row's identity: its key, hour, dimension and name. */
const rowId = (r: Pick<BreakdownRow, 'keyId' | 'bucket' | 'dim' | 'name'>) =>
  `${r.keyId}|${r.bucket}|${r.dim}|${r.name}`;

/** The sums of rows as staged, by rowId (STORED_COLUMNS' order, peaks 0): what a write whose answer
 *  was lost stored if it was, and what the rows written again take off. */
export type StagedSums = Map<string, Float64Array>;

/** Adds `more` into `into` (a second write whose answer was lost, stored on top of the first's). */
export function addStagedSums(into: StagedSums, more: StagedSums): void {
  for (const [id, sums] of more) {
    const had = into.get(id);
    if (!had) into.set(id, Float64Array.from(sums));
    else
      sums.forEach((v, i) => {
        had[i] = (had[i] as number) + v;
      });
  }
}

/** A breakdown write whose hour insert failed once ClickHouse may have had it (answerLost): maybe
 *  stored. `sums`: what it staged (what is stored if it was). */
export class BreakdownsAnswerLost extends Error {
  constructor(
    readonly reason: Error,
    readonly sums: StagedSums,
  ) {
    super(reason.message);
  }
}

/**
 * Each key-hour (per dimension and name) of the stored rows matching `where`, merged: sums added and
 * capped at minuteCap, peaks the largest. With `batch`, the stage's rows of that write are merged in as
 * if they were stored already (the database's `on conflict do update`).
 */
function keyHours(where: string, batch?: string): string {
  const merged = cols((c) =>
    c.merge === 'sum' ? `sumMerge(${c.column}) as ${c.column}` : `maxMerge(${c.column}) as ${c.column}`,
  );
  const stored = `select team_id, key_id, bucket, dim, name, ${merged} from ${HOUR} where ${where}
    group by team_id, key_id, bucket, dim, name`;
  const source =
    batch === undefined
      ? stored
      : `${stored} union all select team_id, key_id, bucket, dim, name, ${names} from ${STAGE}
         where batch = ${chString(batch)} and ${where}`;
  const outer = cols(
    (c) =>
      `${c.merge === 'sum' ? capped(`sum(${c.column})`, minuteCap(c)) : `max(${c.column})`} as ${c.column}`,
  );
  return `select team_id, key_id, bucket, dim, name, ${outer} from (${source})
    group by team_id, key_id, bucket, dim, name`;
}

/** Buckets merged into one: sums added (capped at sumCap), peaks the largest bucket's (a day from its
 *  hours, a breakdown's row from its buckets). */
const mergeBuckets = (c: StoredColumn) =>
  c.merge === 'sum' ? capped(`sum(${c.column})`, sumCap(c)) : `max(${c.column})`;
const bucketsMerged = cols((c) => `${mergeBuckets(c)} as ${c.column}`);
/** A column summed over keys and capped at sumCap (a team's hour: peaks too). */
const keySum = (c: StoredColumn) => capped(`sum(${c.column})`, sumCap(c));
const keysSummed = cols((c) => `${keySum(c)} as ${c.column}`);

/**
 * Recomputes the days the batch touches (per key, and per team from all of the team's keys) from the
 * stored hours, with the stage's rows of `batch` merged in when `withStage` (before they are stored).
 * Only the (key or team, dimension, name, day) the batch has rows of: the others did not change.
 */
async function recomputeDays(
  ch: ClickHouse,
  batch: string,
  withStage: boolean,
  teams: readonly number[],
  keys: readonly number[],
  dayFrom: number,
  dayTo: number,
): Promise<void> {
  const span = `bucket >= ${chInt(dayFrom)} and bucket < ${chInt(dayTo)}`;
  const staged = (id: string) =>
    `(${id}, dim, name, ${dayOf('bucket')}) in (select ${id}, dim, name, ${dayOf('bucket')} from ${STAGE}
       where batch = ${chString(batch)})`;
  const extra = withStage ? batch : undefined;
  const keyWhere = `team_id in (${chInts(teams)}) and key_id in (${chInts(keys)}) and ${span} and ${staged('key_id')}`;
  await ch.command(`insert into ${DAY} (team_id, key_id, bucket, dim, name, ${names}, version)
    select team_id, key_id, day, dim, name, ${names}, ${completeness} from (
      select team_id, key_id, ${dayOf('bucket')} as day, dim, name, ${bucketsMerged}
      from (${keyHours(keyWhere, extra)}) group by team_id, key_id, day, dim, name
    )`);
  const teamWhere = `team_id in (${chInts(teams)}) and ${span} and ${staged('team_id')}`;
  await ch.command(`insert into ${TEAM_DAY} (team_id, bucket, dim, name, ${names}, version)
    select team_id, day, dim, name, ${names}, ${completeness} from (
      select team_id, ${dayOf('bucket')} as day, dim, name, ${bucketsMerged} from (
        select team_id, bucket, dim, name, ${keysSummed} from (${keyHours(teamWhere, extra)})
        group by team_id, bucket, dim, name
      ) group by team_id, day, dim, name
    )`);
}

/**
 * Adds a flush's rows to the keys' hours and recomputes the days they touch (writeBreakdowns).
 * `batch`: the write's name (newWriteId); `stored`: sums of these rows already stored (step 3). Rows of
 * keys not in `teamOf` are skipped (their team is gone: no read would find them).
 *
 * Order, for retries (the caller writes the rows again when this throws with ClickHouse away):
 *  1. the rows go to the stage under this write's name; a failure loses nothing (a retry stages them
 *     again under a new name; the orphans are read by no one and go with their partition);
 *  2. the days are recomputed from the stored hours with the staged rows merged in: the most complete
 *     recomputation wins (`completeness`), so a retry that does it again changes nothing (its rows are
 *     the same or more: the aggregator gives a failed write's sums back to the next one). A node that dies between 2 and 3 leaves days that
 *     count rows the hours never got;
 *  3. the sums: one INSERT … SELECT of the staged rows into the hours, the only statement that is not
 *     idempotent and the last one that can fail the write. One of its rows carries the write's receipt
 *     (BREAKDOWN_RECEIPTS): an insert whose answer was lost throws BreakdownsAnswerLost, and the store
 *     looks for the receipt before its next write; if the insert was stored, its sums come as `stored`
 *     and are taken off the rows written again (which hold them: the aggregator gives a failed write's
 *     rows back). What remains: an insert split in two parts (rows of two months) could be half
 *     applied if the server dies in between;
 *  4. the days again from the hours as now stored, with any other node's rows written meanwhile: two
 *     nodes writing at once each recomputed without the other's rows in step 2. Best effort: a failure
 *     here is not the write's (its rows are in the hours and, from step 2, in the days), so it is
 *     swallowed rather than make the caller store the sums again.
 */
export async function writeBreakdownsCh(
  ch: ClickHouse,
  teamOf: ReadonlyMap<number, number>,
  rows: readonly BreakdownRow[],
  batch: string,
  stored?: StagedSums,
): Promise<void> {
  const at = Math.floor(Date.now() / 1000);
  const staged: object[] = [];
  const sums: StagedSums = new Map();
  const teams = new Set<number>();
  const keys = new Set<number>();
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const r of rows) {
    const teamId = teamOf.get(r.keyId);
    if (teamId === undefined) continue;
    const row: Record<string, string | number> = {
      batch,
      at,
      team_id: teamId,
      key_id: r.keyId,
      bucket: r.bucket,
      dim: r.dim,
      name: r.name,
    };
    const id = rowId(r);
    const before = stored?.get(id);
    const rowSums = new Float64Array(STORED_COLUMNS.length);
    STORED_COLUMNS.forEach((c, i) => {
      const less = c.merge === 'sum' ? (before?.[i] ?? 0) : 0;
      // Whole and capped as the database's insert caps a row (its sum saturates at the same cap).
      const value = Math.max(0, Math.min(Math.round(r.values[i] ?? 0) - less, minuteCap(c)));
      row[c.column] = value;
      if (c.merge === 'sum') rowSums[i] = value;
    });
    sums.set(id, rowSums);
    staged.push(row);
    teams.add(teamId);
    keys.add(r.keyId);
    from = Math.min(from, r.bucket);
    to = Math.max(to, r.bucket);
  }
  if (staged.length === 0) return;
  const dayFrom = from - (from % BREAKDOWN_DAY);
  const dayTo = to - (to % BREAKDOWN_DAY) + BREAKDOWN_DAY;
  const teamIds = [...teams];
  const keyIds = [...keys];
  await ch.insert(STAGE, staged);
  await recomputeDays(ch, batch, true, teamIds, keyIds, dayFrom, dayTo);
  const states = cols((c) => `${keyOf(c)}State(${c.column})`);
  try {
    await ch.command(
      `insert into ${HOUR} (team_id, key_id, bucket, dim, name, ${names}, receipt)
       select team_id, key_id, bucket, dim, name, ${states},
         if(rowNumberInAllBlocks() = 0, ${chString(breakdownReceipt(batch))}, '')
       from ${STAGE} where batch = ${chString(batch)} group by team_id, key_id, bucket, dim, name`,
      batch,
    );
  } catch (err) {
    throw answerLost(err) ? new BreakdownsAnswerLost(err as Error, sums) : err;
  }
  // Step 4: nothing to retry on failure (see above).
  await recomputeDays(ch, batch, false, teamIds, keyIds, dayFrom, dayTo).catch(() => undefined);
}

/**
 * Where each bucket's row per name of `q` comes from (only `name`'s when given): a FROM clause, and
 * the expressions of the row's sums and peaks in it, each one array (SUMMED, PEAKED). The keys' rows
 * summed per bucket (a team's hour; sums capped at sumCap, peaks too), or with every key of the team
 * at day size the team's own days, read with no subquery (18.16 spent up to 0.6 ms of the bench's
 * 5 on one). As breakdown-queries.ts bucketRows.
 */
export function bucketSource(q: BucketScope, name?: string): { from: string; s: string; p: string } {
  const where = [
    `team_id = ${chInt(q.teamId)}`,
    `dim = ${chInt(q.dim)}`,
    `bucket >= ${chInt(q.from)}`,
    `bucket <= ${chInt(q.to)}`,
    ...(name === undefined ? [] : [`name = ${chString(name)}`]),
  ];
  if (q.size === BREAKDOWN_HOUR) {
    if (!q.allKeys) where.push(`key_id in (${chInts(q.keyIds)})`);
    const summed = (columns: readonly StoredColumn[]) => `[${columns.map(keySum).join(', ')}]`;
    return {
      from: `(select bucket, name, ${summed(SUMMED)} as bucket_sums, ${summed(PEAKED)} as bucket_peaks
        from (${keyHours(where.join(' and '))}) group by bucket, name)`,
      s: 'bucket_sums',
      p: 'bucket_peaks',
    };
  }
  if (q.allKeys)
    return { from: `${TEAM_DAY} final where ${where.join(' and ')}`, s: SUM_VALUES, p: PEAK_VALUES };
  where.push(`key_id in (${chInts(q.keyIds)})`);
  return {
    from: `(select bucket, name, ${arraysSummed(SUM_VALUES, SUMMED)} as bucket_sums, ${arraysSummed(PEAK_VALUES, PEAKED)} as bucket_peaks
      from ${DAY} final where ${where.join(' and ')} group by bucket, name)`,
    s: 'bucket_sums',
    p: 'bucket_peaks',
  };
}

/** Each row's stored columns by name, from numbers that hold `lead` values, then SUMMED's and
 *  PEAKED's, a row; with `capSums`, each sum taken down to its column's sumCap (a double's rounding
 *  is monotonic and every cap one exactly: the same number as the capped UInt64's). */
function storedRows(values: Float64Array, lead: number, capSums = false): Array<Record<string, number>> {
  const width = lead + READ_ORDER.length;
  const out: Array<Record<string, number>> = [];
  for (let at = 0; at < values.length; at += width) {
    const row: Record<string, number> = {};
    READ_ORDER.forEach((c, j) => {
      const value = values[at + lead + j] as number;
      row[c.column] = capSums && c.merge === 'sum' ? Math.min(value, sumCap(c)) : value;
    });
    out.push(row);
  }
  return out;
}

/** The traffic bytes a row is ordered by, each sum capped at sumCap (as the row's answer is), exact
 *  (three UInt64 can overflow one), from its `sums`. */
const ORDER = (['cdnBytes', 'p2pBytes', 'nodrBytes'] as const)
  .map((series) => {
    const column = STORED_COLUMNS[columnIndex(series)] as StoredColumn;
    return `toDecimal128(${capped(`sums[${SUMMED.indexOf(column) + 1}]`, sumCap(column))}, 0)`;
  })
  .join(' + ');

/**
 * readBreakdown on ClickHouse: the rows of one dimension over [from, to], largest traffic first; a
 * name's buckets merged: sums added (capped at sumCap), peaks the largest bucket's. The sums are
 * capped here, but for the ordering's three: capping the arrays in SQL took 0.5 ms of the bench's 5.
 */
export async function readBreakdownCh(ch: ClickHouse, q: BucketScope): Promise<BreakdownRows> {
  const source = bucketSource(q);
  const read = await ch.binary(
    `select name, sumForEach(${source.s}) as sums, maxForEach(${source.p}) as peaks from ${source.from}
     group by name order by ${ORDER} desc, name limit ${chInt(BREAKDOWN_MAX_ROWS)}`,
    ['string', SUMMED.length, PEAKED.length],
  );
  // A name beside numbers: the database's row type (a string key among numeric ones).
  return storedRows(read.values, 0, true).map(
    (r, i) => ({ ...r, name: read.names[i] }) as BreakdownRows[number],
  );
}

/** readBreakdownSeries on ClickHouse: one name's buckets over [from, to], oldest first. */
export async function readBreakdownSeriesCh(
  ch: ClickHouse,
  q: BucketScope & { name: string },
): Promise<BreakdownBuckets> {
  const source = bucketSource(q, q.name);
  const read = await ch.binary(
    `select toFloat64(bucket), ${source.s}, ${source.p} from ${source.from} order by bucket`,
    ['double', SUMMED.length, PEAKED.length],
  );
  return storedRows(read.values, 1).map((r, i) => ({
    ...r,
    bucket: read.values[i * (READ_ORDER.length + 1)] as number,
  }));
}
