import { randomInt } from 'node:crypto';
import {
  KeyStatus,
  POINT_VALUES,
  SERIES,
  type SeriesDef,
  STORED_COLUMNS,
  type StoredColumn,
} from '@tlprt/contract';
import { type RawBuilder, sql } from 'kysely';
import { type Db, isPostgres } from '../../db/index.js';
import { chunks } from '../../lib/chunks.js';
import type { BlockCache } from './block-cache.js';
import { BLOCK_SPAN_S, MINUTE_BYTES_CAP, PEAK_COLUMNS, type StatsDb, SUM_CAP } from './tables.js';

/** The statistics feature's SQL: the flush, the reads of the ranges, saved lists,
 *  retention and the demo's look-ups. Same statements on SQLite and PostgreSQL unless marked. */

/** The most a stored 4-byte (integer) value holds: PostgreSQL's integer is signed. */
const INT_CAP = 2_147_483_647;
/** The cap of a column's one key-minute (MINUTE_BYTES_CAP for the 8-byte ones) and of its sums. */
export const minuteCap = (c: StoredColumn) => (c.width === 8 ? MINUTE_BYTES_CAP : INT_CAP);
export const sumCap = (c: StoredColumn) => (c.width === 8 ? SUM_CAP : INT_CAP);

/** `least(a, b)`: SQLite's two-argument min() is PostgreSQL's least(). */
export const least = (pg: boolean, a: RawBuilder<unknown>, b: number) =>
  pg ? sql<number>`least(${a}, ${sql.lit(b)})` : sql<number>`min(${a}, ${sql.lit(b)})`;

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
const peakRef = (c: { column: string }) => sql.ref(`peak_${c.column}`);

/** The three levels of points: the per-key table, the team totals of it (the sum of the team's per-key
 *  rows), the per-key blocks of it (refreshBlocks), their time column, the seconds of one point and of
 *  one block. */
const LEVELS = [
  {
    key: 'stats_minute',
    team: 'stats_team_minute',
    blocks: 'stats_minute_blocks',
    time: 'minute',
    size: 60,
    span: BLOCK_SPAN_S.minute,
  },
  {
    key: 'stats_20m',
    team: 'stats_team_20m',
    blocks: 'stats_20m_blocks',
    time: 'bucket',
    size: 1200,
    span: BLOCK_SPAN_S.twenty,
  },
  {
    key: 'stats_hour',
    team: 'stats_team_hour',
    blocks: 'stats_hour_blocks',
    time: 'bucket',
    size: 3600,
    span: BLOCK_SPAN_S.hour,
  },
] as const;
type Level = (typeof LEVELS)[number];
const levelOf = (size: number): Level => LEVELS.find((l) => l.size === size) ?? LEVELS[0];
/** The point sizes derived from the minutes. */
export const ROLLUP_SIZES = [1200, 3600] as const;
/** The sizes of the points the ranges read. */
export const POINT_SIZES = [60, ...ROLLUP_SIZES] as const;

// ---------------------------------------------------------------------------------------------------
// Ingest

/** Keys by hash with what decides whether their reports count (the key, its team and its domain). */
// ---------------------------------------------------------------------------------------------------
// The flush (called inside its transaction, in this order)

/** A PostgreSQL advisory lock id: flushes of every node are serialized, so each recount, rollup and
 *  block statement sees the other nodes' committed minutes. */
const FLUSH_LOCK = 6_060_601;

export async function lockFlushes(db: StatsDb): Promise<void> {
  if (isPostgres(db)) await sql`select pg_advisory_xact_lock(${FLUSH_LOCK})`.execute(db);
}

/** One key-minute as the flush writes it: POINT_VALUES values (the peak series' 0 when counted from
 *  the sessions stored for it). */
export interface MinuteRow {
  keyId: number;
  minute: number;
  values: ArrayLike<number>;
}

/** Adds the sums to the stored minutes (saturating); peak counts keep the larger of the two. */
export async function upsertMinutes(db: StatsDb, rows: readonly MinuteRow[]): Promise<void> {
  const pg = isPostgres(db);
  const update = columnList((c) => {
    const stored = sql.ref(`stats_minute.${c.column}`);
    const fresh = sql.ref(`excluded.${c.column}`);
    return sql`${sql.ref(c.column)} = ${
      c.merge === 'sum'
        ? least(pg, sql`${stored} + ${fresh}`, minuteCap(c))
        : sql`case when ${stored} > ${fresh} then ${stored} else ${fresh} end`
    }`;
  });
  for (const part of chunks(rows, 1000)) {
    const values = part.map(
      (r) =>
        sql`(${sql.join([
          r.keyId,
          r.minute,
          ...STORED_COLUMNS.map((c, i) => Math.min(r.values[i] ?? 0, minuteCap(c))),
        ])})`,
    );
    await sql`
      insert into stats_minute (key_id, minute, ${columnList()}) values ${sql.join(values)}
      on conflict (key_id, minute) do update set ${update}`.execute(db);
  }
}

/** A session of a key-minute: minute, key id, hashed session id, its series as bits (PEAK_SERIES). */
export type SessionRow = [minute: number, keyId: number, sessionHash: string, series: number];

/**
 * Stores sessions, adding their series to those already stored (another flush or node). The rows go
 * as one JSON parameter per statement: a value list of 4 parameters a row cost more to build and
 * prepare than the database spends inserting them. A row whose series are all stored already is
 * left as it is.
 */
export async function insertSessions(db: StatsDb, rows: readonly SessionRow[]): Promise<void> {
  const source = isPostgres(db)
    ? (json: string) =>
        sql`select (e ->> 0)::bigint, (e ->> 1)::integer, e ->> 2, (e ->> 3)::integer from json_array_elements(${json}::json) e`
    : // `where true`: SQLite's parser otherwise reads the upsert's ON as a join constraint.
      (json: string) =>
        sql`select value ->> 0, value ->> 1, value ->> 2, value ->> 3 from json_each(${json}) where true`;
  for (const part of chunks(rows, 10_000)) {
    await sql`
      insert into stats_minute_sessions (minute, key_id, session_hash, series)
      ${source(JSON.stringify(part))}
      on conflict (minute, key_id, session_hash) do update set series = stats_minute_sessions.series | excluded.series
      where (stats_minute_sessions.series | excluded.series) <> stats_minute_sessions.series`.execute(db);
  }
}

/** Sets the peak counts (viewers) of some keys' minute from their stored sessions. */
export async function recountViewers(db: StatsDb, minute: number, keyIds: readonly number[]): Promise<void> {
  const count = (bit: number) =>
    bit === 0 ? sql`count(*)` : sql`sum((series & ${sql.lit(bit)}) / ${sql.lit(bit)})`;
  const counted = sql.join(PEAK_COLUMNS.map((p) => sql`${count(p.bit)} as ${sql.ref(`n_${p.column}`)}`));
  const set = sql.join(PEAK_COLUMNS.map((p) => sql`${sql.ref(p.column)} = ${sql.ref(`c.n_${p.column}`)}`));
  for (const ids of chunks(keyIds, 1000)) {
    await sql`
      update stats_minute set ${set}
      from (
        select key_id, ${counted}
        from stats_minute_sessions where minute = ${minute} and key_id in (${sql.join(ids)})
        group by key_id
      ) c
      where stats_minute.minute = ${minute} and stats_minute.key_id = c.key_id`.execute(db);
  }
}

/** Recomputes the rollup points of size `size` of some keys between two bucket starts from the
 *  minutes: sums summed, peak series the peak minute. */
export async function refreshRollups(
  db: StatsDb,
  size: (typeof ROLLUP_SIZES)[number],
  keyIds: readonly number[],
  fromBucket: number,
  toBucket: number,
): Promise<void> {
  const pg = isPostgres(db);
  const table = sql.table(levelOf(size).key);
  const bucket = sql`(minute / ${sql.lit(size)}) * ${sql.lit(size)}`;
  const merged = columnList((c) =>
    c.merge === 'sum' ? cappedSum(pg, sql.ref(c.column), sumCap(c)) : sql`max(${sql.ref(c.column)})`,
  );
  const update = columnList((c) => sql`${sql.ref(c.column)} = ${sql.ref(`excluded.${c.column}`)}`);
  for (const ids of chunks(keyIds, 1000)) {
    await sql`
      insert into ${table} (key_id, bucket, ${columnList()})
      select key_id, ${bucket}, ${merged}
      from stats_minute
      where key_id in (${sql.join(ids)}) and minute >= ${fromBucket} and minute < ${toBucket + size}
      group by key_id, ${bucket}
      on conflict (key_id, bucket) do update set ${update}`.execute(db);
  }
}

/** key id → team id; a key missing here went with its team. */
export async function teamsOfKeys(db: StatsDb, keyIds: readonly number[]): Promise<Map<number, number>> {
  const teamOf = new Map<number, number>();
  for (const ids of chunks(keyIds, 1000)) {
    for (const k of await db.selectFrom('keys').select(['id', 'team_id']).where('id', 'in', ids).execute()) {
      teamOf.set(k.id, k.team_id);
    }
  }
  return teamOf;
}

/**
 * Recomputes the team totals (migrations 0006, 0011) of `teamIds` from their per-key rows, for every
 * point between two minutes. Each total is the plain sum of the team's per-key rows, users included:
 * the same numbers a query summing those keys gets, so a query may subtract keys from a total. The
 * minute totals are also kept as blocks (TEAM_MINUTE_BLOCKS); the 20-minute and hourly totals also keep
 * the team's own peak minute (`peak_*`), from the team's minute totals, which this refreshes first;
 * where those minutes are gone, the sum of the keys' peaks stands in.
 */
export async function refreshTeamTotals(
  db: StatsDb,
  teamIds: readonly number[],
  fromMinute: number,
  toMinute: number,
): Promise<void> {
  const pg = isPostgres(db);
  for (const part of chunks(teamIds, 500)) await refreshTotalsOf(db, pg, part, fromMinute, toMinute);
}

async function refreshTotalsOf(
  db: StatsDb,
  pg: boolean,
  teamIds: readonly number[],
  fromMinute: number,
  toMinute: number,
): Promise<void> {
  const teams = sql.join(teamIds);
  const summed = columnList(
    (c) => sql`${cappedSum(pg, sql`s.${sql.ref(c.column)}`, sumCap(c))} as ${sql.ref(c.column)}`,
  );
  const update = columnList((c) => sql`${sql.ref(c.column)} = ${sql.ref(`excluded.${c.column}`)}`);
  for (const { team, key, time, size } of LEVELS) {
    const from = fromMinute - (fromMinute % size);
    const t = sql.ref(time);
    const totals = sql`
      select k.team_id, s.${t} as t, ${summed}
      from ${sql.table(key)} s join keys k on k.id = s.key_id
      where k.team_id in (${teams}) and s.${t} >= ${from} and s.${t} <= ${toMinute}
      group by k.team_id, s.${t}`;
    if (size === 60) {
      await sql`
        insert into stats_team_minute (team_id, minute, ${columnList()})
        ${totals}
        on conflict (team_id, minute) do update set ${update}`.execute(db);
      const into = { blocks: TEAM_MINUTE_BLOCKS, source: 'stats_team_minute', id: 'team_id' } as const;
      await writeBlocks(db, levelOf(60), into, teamIds, fromMinute, toMinute);
      continue;
    }
    const bucket = sql`(minute / ${sql.lit(size)}) * ${sql.lit(size)}`;
    const peaks = sql.join(PEAK_COLUMNS.map(peakRef));
    await sql`
      insert into ${sql.table(team)} (team_id, bucket, ${columnList()}, ${peaks})
      select tot.team_id, tot.t, ${columnList((c) => sql.ref(`tot.${c.column}`))},
             ${sql.join(PEAK_COLUMNS.map((c) => sql`coalesce(${sql.ref(`p.${c.column}`)}, ${sql.ref(`tot.${c.column}`)})`))}
      from (${totals}) tot
      left join (
        select team_id, ${bucket} as b, ${sql.join(PEAK_COLUMNS.map((c) => sql`max(${sql.ref(c.column)}) as ${sql.ref(c.column)}`))}
        from stats_team_minute
        where team_id in (${teams}) and minute >= ${from} and minute < ${toMinute - (toMinute % size) + size}
        group by team_id, ${bucket}
      ) p on p.team_id = tot.team_id and p.b = tot.t
      where true
      on conflict (team_id, bucket) do update set ${update},
        ${sql.join(PEAK_COLUMNS.map((c) => sql`${peakRef(c)} = ${sql.ref(`excluded.peak_${c.column}`)}`))}`.execute(
      db,
    );
  }
}

/**
 * A key's points of one span (BLOCK_SPAN_S: an hour of minutes, a day of 20-minute points, 3 days of
 * hourly ones) packed in one value (the *_blocks tables, migration 0011): a day of minutes is read as
 * 25 values per key instead of 1,440 rows, whose grouping was most of a query's time. Each stored point
 * is BLOCK_ENTRY bytes, oldest first: its index in the span (1 byte), then each stored column
 * (STORED_COLUMNS, in order) in its width, big-endian. Built as hex by the database itself. The layout
 * follows the series table: BLOCK_LAYOUT names it, and layout.ts rewrites the blocks when it changes.
 *
 * Beside it each block keeps the chart's cut (`drawn`, migration 0017): the block's sums of the columns
 * the chart shows as the window's totals only (8 bytes each, SUMMED_COLUMNS), then its points with the
 * drawn columns only (DRAWN_COLUMNS, DRAWN_ENTRY bytes a point). A chart reads that cut of every block
 * wholly inside its window and the whole points of the (at most two) blocks at its edges: a day of 25
 * keys reads 2 MB instead of 4.5 MB and decodes a third of the values.
 */
const entryLayout = (columns: readonly StoredColumn[]) => {
  const offsets = new Int32Array(columns.length);
  let at = 1;
  for (let i = 0; i < columns.length; i++) {
    offsets[i] = at;
    at += (columns[i] as StoredColumn).width;
  }
  return { size: at, offsets, wide: Uint8Array.from(columns, (c) => (c.width === 8 ? 1 : 0)) };
};
const isDrawn = (c: StoredColumn) => (SERIES[c.series] as SeriesDef).drawn === true;
const DRAWN_COLUMNS = STORED_COLUMNS.filter(isDrawn);
const SUMMED_COLUMNS = STORED_COLUMNS.filter((c) => !isDrawn(c));
// A block's sum of a peak series over its span is not the window's peak over several keys.
for (const c of SUMMED_COLUMNS) {
  if (c.merge !== 'sum')
    throw new Error(`series column ${c.column}: a column the chart does not draw must be a sum`);
}
/** Each drawn and summed column's index among a point's values. */
const DRAWN_INDEX = Int32Array.from(DRAWN_COLUMNS, (c) => STORED_COLUMNS.indexOf(c));
const SUMMED_INDEX = Int32Array.from(SUMMED_COLUMNS, (c) => STORED_COLUMNS.indexOf(c));
const FULL = entryLayout(STORED_COLUMNS);
const DRAWN = entryLayout(DRAWN_COLUMNS);
export const BLOCK_ENTRY = FULL.size;
/** The bytes of a chart cut's head: the block's sums of the columns not drawn. */
const SUMS_HEAD = SUMMED_COLUMNS.length * 8;
export const BLOCK_LAYOUT = [
  STORED_COLUMNS.map((c) => `${c.column}:${c.width}`).join(','),
  `drawn ${DRAWN_COLUMNS.map((c) => c.column).join(',')}`,
].join(';');

/** The start of the block a row of `level` packs into (what packPoints groups by). */
const blockStart = ({ time, span }: Level) => sql`(${sql.ref(time)} / ${sql.lit(span)}) * ${sql.lit(span)}`;

/**
 * The aggregate packing the rows of one block (grouped by blockStart): the whole points, or (`cut`)
 * the chart's cut of them. `columnOf` names the column each stored value is read from (a team's own
 * peaks: `peak_*`).
 */
function packPoints(
  pg: boolean,
  { time, size, span }: Level,
  columnOf = (c: StoredColumn) => c.column,
  cut = false,
) {
  const t = sql.ref(time);
  const columns = cut ? DRAWN_COLUMNS : STORED_COLUMNS;
  const value = (c: StoredColumn) =>
    c.width === 8 ? sql.ref(columnOf(c)) : least(pg, sql.ref(columnOf(c)), 4_294_967_295);
  const index = sql`(${t} % ${sql.lit(span)}) / ${sql.lit(size)}`;
  const sums = SUMMED_COLUMNS.map((c) => cappedSum(pg, sql.ref(c.column), SUM_CAP));
  if (pg) {
    const hex = (v: RawBuilder<unknown>, digits: number) => sql`lpad(to_hex(${v}), ${sql.lit(digits)}, '0')`;
    const parts = [hex(index, 2), ...columns.map((c) => hex(value(c), c.width * 2))];
    const entries = sql`string_agg(${sql.join(parts, sql` || `)}, '' order by ${t})`;
    if (!cut || sums.length === 0) return sql`decode(${entries}, 'hex')`;
    const head = sql.join(
      sums.map((v) => hex(sql`(${v})::bigint`, 16)),
      sql` || `,
    );
    return sql`decode(${head} || ${entries}, 'hex')`;
  }
  const format = `%02x${columns.map((c) => (c.width === 8 ? '%016x' : '%08x')).join('')}`;
  const entries = sql`group_concat(printf(${sql.lit(format)}, ${index}, ${sql.join(columns.map(value))}), '' order by ${t})`;
  if (!cut || sums.length === 0) return sql`unhex(${entries})`;
  const head = sql`printf(${sql.lit('%016x'.repeat(sums.length))}, ${sql.join(sums)})`;
  return sql`unhex(${head} || ${entries})`;
}

/** A block's version as written (BlockCache): random, so that a block written again, by any node or
 *  after the blocks were emptied and refilled, is not taken for one decoded before. */
const newVersion = () => randomInt(2 ** 47);

/** The blocks of the team minute totals: a day of all of a team's keys read as 25 values. */
const TEAM_MINUTE_BLOCKS = 'stats_team_minute_blocks';

/** Rewrites the blocks of `ids` (keys or teams: `id` names the column) for the spans between two times
 *  (whole spans), from the rows of `source`. */
async function writeBlocks(
  db: StatsDb,
  level: Level,
  into: { blocks: string; source: string; id: 'key_id' | 'team_id' },
  ids: readonly number[],
  fromTime: number,
  toTime: number,
): Promise<void> {
  const { span } = level;
  const t = sql.ref(level.time);
  const id = sql.ref(into.id);
  const pg = isPostgres(db);
  const start = blockStart(level);
  for (const part of chunks(ids, 1000)) {
    await sql`
      insert into ${sql.table(into.blocks)} (${id}, start, version, drawn, points)
      select ${id}, ${start}, ${newVersion()}, ${packPoints(pg, level, undefined, true)}, ${packPoints(pg, level)}
      from ${sql.table(into.source)}
      where ${id} in (${sql.join(part)}) and ${t} >= ${fromTime - (fromTime % span)}
        and ${t} < ${toTime - (toTime % span) + span}
      group by ${id}, ${start}
      on conflict (${id}, start) do update
      set version = excluded.version, drawn = excluded.drawn, points = excluded.points`.execute(db);
  }
}

/** Rewrites the blocks of points of size `size` of some keys for the spans between two times. */
export function refreshBlocks(
  db: StatsDb,
  size: number,
  keyIds: readonly number[],
  fromTime: number,
  toTime: number,
): Promise<void> {
  const level = levelOf(size);
  return writeBlocks(
    db,
    level,
    { blocks: level.blocks, source: level.key, id: 'key_id' },
    keyIds,
    fromTime,
    toTime,
  );
}

/** Rewrites every block of every level from the rows it packs (a new layout: layout.ts). What a block
 *  held beyond its rows is older than the rows' retention, which no range reads. */
export async function rewriteAllBlocks(db: StatsDb): Promise<void> {
  const pg = isPostgres(db);
  const all = [
    ...LEVELS.map((l) => ({ level: l, blocks: l.blocks, source: l.key, id: 'key_id' })),
    { level: levelOf(60), blocks: TEAM_MINUTE_BLOCKS, source: 'stats_team_minute', id: 'team_id' },
  ];
  for (const { level, blocks, source, id } of all) {
    const start = blockStart(level);
    await sql`delete from ${sql.table(blocks)}`.execute(db);
    await sql`
      insert into ${sql.table(blocks)} (${sql.ref(id)}, start, version, drawn, points)
      select ${sql.ref(id)}, ${start}, ${newVersion()}, ${packPoints(pg, level, undefined, true)}, ${packPoints(pg, level)}
      from ${sql.table(source)}
      group by ${sql.ref(id)}, ${start}`.execute(db);
  }
}

/** Whether the database answers at all (a failed flush is only split when it does). */
export async function databaseAnswers(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------
// Reads of the ranges

/** What a team's answer needs of the team: its time zone and version (the nodr series). */
export function findTeamFacts(db: Db, teamId: number) {
  return db
    .selectFrom('teams')
    .select(['id', 'time_zone_id', 'version'])
    .where('id', '=', teamId)
    .executeTakeFirst();
}

/** The team's keys (every status: deleted keys keep their history). */
export function listTeamKeys(db: Db, teamId: number) {
  return db.selectFrom('keys').select(['id', 'key_hash']).where('team_id', '=', teamId).execute();
}

/** The index of the viewers (every session) among a point's values. */
const VIEWERS = (PEAK_COLUMNS.find((p) => p.bit === 0) as (typeof PEAK_COLUMNS)[number]).index;
const ALL_INDEX = Int32Array.from(STORED_COLUMNS, (_, i) => i);
/** The two ways a block is read: its whole points, or the chart's cut (the block's sums of the columns
 *  not drawn, then the drawn ones a point). */
const READ = {
  whole: { ...FULL, index: ALL_INDEX, head: 0, viewersColumn: VIEWERS },
  cut: { ...DRAWN, index: DRAWN_INDEX, head: SUMS_HEAD, viewersColumn: DRAWN_INDEX.indexOf(VIEWERS) },
} as const;
if (READ.cut.viewersColumn < 0) throw new Error('the viewers series must be drawn');

/** A block's values decoded: for the chart's cut first its sums (SUMMED_COLUMNS), then for each slot of
 *  the span (a point's place in it: span / size of them) the read's columns, 0 where no row was. */
function decodeBlock(
  points: Uint8Array,
  read: (typeof READ)[keyof typeof READ],
  slots: number,
): Float64Array {
  // The hottest loop of a cold chart (a day of 25 keys: 36,000 entries): plain indexes, no look-ups.
  const v = new DataView(points.buffer, points.byteOffset, points.byteLength);
  const { size, offsets, wide, head } = read;
  const columns = offsets.length;
  const sums = head / 8;
  const out = new Float64Array(sums + slots * columns);
  for (let j = 0; j < sums; j++) out[j] = v.getUint32(j * 8) * 4_294_967_296 + v.getUint32(j * 8 + 4);
  for (let o = head; o + size <= points.byteLength; o += size) {
    const base = sums + v.getUint8(o) * columns;
    for (let c = 0; c < columns; c++) {
      const at = o + (offsets[c] as number);
      out[base + c] = wide[c] === 1 ? v.getUint32(at) * 4_294_967_296 + v.getUint32(at + 4) : v.getUint32(at);
    }
  }
  return out;
}

/** Adds (sign 1) or subtracts (sign -1) a decoded block's points within the `n` points of size `step`
 *  from `from` into `out`, and the sums of a chart's cut into `summed`; answers the viewers it added up
 *  (before the sign). */
function addBlock(
  out: Float64Array,
  summed: Float64Array,
  from: number,
  step: number,
  n: number,
  start: number,
  values: Float64Array,
  sign: number,
  read: (typeof READ)[keyof typeof READ],
): number {
  const { index, head, viewersColumn } = read;
  const sums = head / 8;
  for (let j = 0; j < sums; j++) {
    const c = SUMMED_INDEX[j] as number;
    summed[c] = (summed[c] as number) + sign * (values[j] as number);
  }
  const columns = index.length;
  const first = (start - from) / step;
  let viewers = 0;
  for (let base = sums, i = first; base < values.length; base += columns, i++) {
    if (i < 0 || i >= n) continue;
    const p = i * POINT_VALUES;
    viewers += values[base + viewersColumn] as number;
    for (let c = 0; c < columns; c++) {
      const value = values[base + c] as number;
      if (value !== 0) {
        const k = p + (index[c] as number);
        out[k] = (out[k] as number) + sign * value;
      }
    }
  }
  return viewers;
}

/** What a read of points answers. */
export interface PointReads {
  /** POINT_VALUES per point: the asked keys' rows summed (20-minute and hourly peak series: the sum of
   *  each key's peak, or the team's own peak when every key of the team is asked). A chart's read
   *  (`drawnOnly`) fills the drawn columns only, and of the others what `summed` does not hold. */
  sums: Float64Array;
  /** POINT_VALUES: the window's sums of the columns not drawn that a chart's read took from the blocks'
   *  sums instead of `sums` (0 for every column otherwise). */
  summed: Float64Array;
  /** 20-minute and hourly points of some of the team's keys: PEAK_COLUMNS.length per point, the team's
   *  own peak minute of each peak series; -1 where the team has no total (not refreshed yet). */
  teamPeaks: Float64Array | null;
  /** The viewers (users) of the team's keys not asked, summed over the window's points: 0 when they had
   *  none, and the team's own peaks are then the asked keys' own. */
  othersViewers: number;
}

/** A team's point with its viewers and own peaks (`points` null), or its sums packed (kind 1). */
type TeamRow = { t: number; kind: number; points: Uint8Array | null; viewers: number } & Record<
  string,
  number
>;

/** Stored blocks a read adds (sign 1) or subtracts (-1): of some keys, or of a team's minute totals. */
interface StoredBlocks {
  table: string;
  id: 'key_id' | 'team_id';
  ids: readonly number[];
  sign: number;
}

/**
 * The stored points of size `step` of some of a team's keys in [from, to] (step-aligned). Most of a
 * team's keys (the "Active traffic" list, usually all of them) are read as the team total less the
 * blocks of the keys left out, fewer keys as their own blocks: both give the same numbers, a team total
 * being the plain sum of its per-key rows. 20-minute and hourly reads take the team's rows (not blocks)
 * in either case, for its own peaks. In one transaction, so one snapshot (PostgreSQL: repeatable read).
 * `drawnOnly`: the chart's read, whose points need the drawn columns only (PointReads.summed).
 * `cache`: blocks decoded before, used again while their version holds.
 */
export async function readPoints(
  db: StatsDb,
  step: number,
  teamId: number,
  keyIds: readonly number[],
  leftOut: readonly number[],
  from: number,
  to: number,
  drawnOnly = false,
  cache?: BlockCache,
): Promise<PointReads> {
  if (!db.isTransaction) {
    const read = (trx: StatsDb) => readPoints(trx, step, teamId, keyIds, leftOut, from, to, drawnOnly, cache);
    // One snapshot for every table read; read only, so on SQLite it never waits for another writer.
    return isPostgres(db)
      ? db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read)
      : db.transaction().setAccessMode('read only').execute(read);
  }
  const pg = isPostgres(db);
  const level = levelOf(step);
  const slots = level.span / level.size;
  const n = (to - from) / step + 1;
  const sums = new Float64Array(n * POINT_VALUES);
  const summed = new Float64Array(POINT_VALUES);
  const direct = leftOut.length >= keyIds.length;
  const add = (start: number, values: Float64Array, sign: number, read: (typeof READ)[keyof typeof READ]) =>
    addBlock(sums, summed, from, step, n, start, values, sign, read);
  // A block lies wholly in the window when it starts in it and its last point does not end after it:
  // a chart reads its cut, and the whole points of those at the edges.
  const lastInside = to - (level.span - level.size);
  const inside = (start: number) => drawnOnly && start >= from && start <= lastInside;
  /** The stored blocks' viewers in the window (before the sign). */
  const addStored = async (...sources: StoredBlocks[]): Promise<number> => {
    // Their versions first: the blocks decoded before at the same version are not read again.
    const versions = sql.join(
      sources.map(
        (b, i) => sql`select ${sql.lit(i)} as source, ${sql.ref(b.id)} as id, start, version
          from ${sql.table(b.table)} where ${sql.ref(b.id)} in (${sql.join(b.ids)})
            and start >= ${from - (from % level.span)} and start <= ${to}`,
      ),
      sql` union all `,
    );
    const keyOf = (i: number, id: number, start: number) =>
      `${(sources[i] as StoredBlocks).table}:${id}:${start}:${inside(start) ? 1 : 0}`;
    /** Per source, the blocks to read (keyOf), with the ids and starts that select them. */
    const missing = sources.map(() => ({
      keys: new Set<string>(),
      ids: new Set<number>(),
      starts: new Set<number>(),
    }));
    let viewers = 0;
    for (const r of (
      await sql<{ source: number; id: number; start: number; version: number }>`${versions}`.execute(db)
    ).rows) {
      const i = Number(r.source);
      const start = Number(r.start);
      const key = keyOf(i, Number(r.id), start);
      const values = cache?.get(key, Number(r.version));
      if (values) {
        viewers += add(
          start,
          values,
          (sources[i] as StoredBlocks).sign,
          inside(start) ? READ.cut : READ.whole,
        );
        continue;
      }
      const m = missing[i] as (typeof missing)[number];
      m.keys.add(key);
      m.ids.add(Number(r.id));
      m.starts.add(start);
    }
    // The others read and decoded. Their ids and starts select the blocks to read and maybe some of those
    // added above (one key's new hour, another's old one): only the blocks to read are taken.
    const blob = drawnOnly
      ? sql`case when start >= ${from} and start <= ${lastInside} then drawn else points end`
      : sql`points`;
    for (const [i, b] of sources.entries()) {
      const m = missing[i] as (typeof missing)[number];
      if (m.keys.size === 0) continue;
      const rows = await sql<{ id: number; start: number; version: number; points: Uint8Array }>`
        select ${sql.ref(b.id)} as id, start, version, ${blob} as points from ${sql.table(b.table)}
        where ${sql.ref(b.id)} in (${sql.join([...m.ids])}) and start in (${sql.join([...m.starts])})`.execute(
        db,
      );
      for (const r of rows.rows) {
        const start = Number(r.start);
        const key = keyOf(i, Number(r.id), start);
        if (!m.keys.has(key)) continue;
        const read = inside(start) ? READ.cut : READ.whole;
        const values = decodeBlock(r.points, read, slots);
        cache?.set(key, Number(r.version), values);
        viewers += add(start, values, b.sign, read);
      }
    }
    return viewers;
  };
  /** Rows of the team's packed from the window's rows only: a cut is the window's own. */
  const packed = (columnOf?: (c: StoredColumn) => string) => packPoints(pg, level, columnOf, drawnOnly);
  const readOfPacked = drawnOnly ? READ.cut : READ.whole;

  if (step === 60) {
    const keys = {
      table: level.blocks,
      id: 'key_id',
      ids: direct ? keyIds : leftOut,
      sign: direct ? 1 : -1,
    } as const;
    const team = { table: TEAM_MINUTE_BLOCKS, id: 'team_id', ids: [teamId], sign: 1 } as const;
    await (direct ? addStored(keys) : leftOut.length > 0 ? addStored(team, keys) : addStored(team));
    return { sums, summed, teamPeaks: null, othersViewers: 0 };
  }
  const t = sql.ref(level.time);
  const start = blockStart(level);
  const peaks = PEAK_COLUMNS.length;
  if (leftOut.length === 0) {
    // Every key of the team: its totals with its own peaks, nothing else to read. Packed by the
    // database as the blocks are (a month's 721 rows of 30 columns took 11 ms to become objects).
    const own = (c: StoredColumn) => (c.merge === 'peak' ? `peak_${c.column}` : c.column);
    const rows = await sql<{ t: number; points: Uint8Array }>`
      select ${start} as t, ${packed(own)} as points
      from ${sql.table(level.team)} where team_id = ${teamId} and ${t} >= ${from} and ${t} <= ${to}
      group by ${start}`.execute(db);
    for (const r of rows.rows) add(Number(r.t), decodeBlock(r.points, readOfPacked, slots), 1, readOfPacked);
    return { sums, summed, teamPeaks: null, othersViewers: 0 };
  }
  const teamPeaks = new Float64Array(n * peaks).fill(-1);
  // In one result: the team's viewers and own peaks a point (kind 2) and its sums packed by the
  // database as the blocks are when they are needed (kind 1). Rows of 30 columns as objects cost a
  // month's 721 points 10 ms; these are narrow.
  const teamRows = sql`from ${sql.table(level.team)}
    where team_id = ${teamId} and ${t} >= ${from} and ${t} <= ${to}`;
  const viewersColumn = sql.ref(STORED_COLUMNS[VIEWERS]?.column ?? '');
  const zeros = (k: number) => sql.join(Array.from({ length: k }, () => sql`0`));
  const blob = pg ? sql`null::bytea` : sql`null`;
  const peakRows = sql`
    select ${t} as t, 2 as kind, ${blob} as points, ${viewersColumn} as viewers,
           ${sql.join(PEAK_COLUMNS.map((c) => peakRef(c)))} ${teamRows}`;
  const sumRows = sql`
    select ${start}, 1, ${packed()}, ${zeros(1 + peaks)} ${teamRows}
    group by ${start}`;
  let teamViewers = 0;
  for (const r of (
    await sql<TeamRow>`${direct ? peakRows : sql`${peakRows} union all ${sumRows}`}`.execute(db)
  ).rows) {
    const time = Number(r.t);
    if (r.points) {
      add(time, decodeBlock(r.points, readOfPacked, slots), 1, readOfPacked);
      continue;
    }
    const i = (time - from) / step;
    teamViewers += Number(r.viewers);
    PEAK_COLUMNS.forEach((c, j) => {
      teamPeaks[i * peaks + j] = Number(r[`peak_${c.column}`]);
    });
  }
  const blockViewers = await addStored({
    table: level.blocks,
    id: 'key_id',
    ids: direct ? keyIds : leftOut,
    sign: direct ? 1 : -1,
  });
  return { sums, summed, teamPeaks, othersViewers: direct ? teamViewers - blockViewers : blockViewers };
}

// ---------------------------------------------------------------------------------------------------
// Saved lists

export async function findSettingsJson(db: StatsDb, userId: number, teamId: number) {
  const row = await db
    .selectFrom('stats_settings')
    .select('save_json')
    .where('user_id', '=', userId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return row?.save_json;
}

export async function saveSettingsJson(
  db: StatsDb,
  userId: number,
  teamId: number,
  json: string,
  at: number,
): Promise<void> {
  await db
    .insertInto('stats_settings')
    .values({ user_id: userId, team_id: teamId, save_json: json, updated_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'team_id']).doUpdateSet({ save_json: json, updated_at: at }))
    .execute();
}

// ---------------------------------------------------------------------------------------------------
// Retention

/** Deletes a statistics table's rows older than `before` (seconds); answers how many. */
export async function deleteRowsBefore(db: Db, table: string, timeColumn: string, before: number) {
  const r = await sql`delete from ${sql.table(table)} where ${sql.ref(timeColumn)} < ${before}`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

// ---------------------------------------------------------------------------------------------------
// Demo traffic

/** The team named `teamName` that `email` is a member of. */
export async function findMembersTeam(db: Db, email: string, teamName: string) {
  const row = await db
    .selectFrom('teams as t')
    .innerJoin('team_members as m', 'm.team_id', 't.id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('t.id')
    .where('u.email', '=', email)
    .where('t.name', '=', teamName)
    .executeTakeFirst();
  return row?.id;
}

/** The team's active keys but the one named `exceptName`, oldest first. */
export function listActiveKeysExcept(db: Db, teamId: number, exceptName: string) {
  return db
    .selectFrom('keys')
    .select(['id', 'key_hash'])
    .where('team_id', '=', teamId)
    .where('status', '=', KeyStatus.Active)
    .where('name', '!=', exceptName)
    .orderBy('id')
    .execute();
}

/** Whether any of the keys has hourly points (history written before). */
export async function hasHourlyPoints(db: StatsDb, keyIds: readonly number[]): Promise<boolean> {
  if (keyIds.length === 0) return false;
  const row = await db
    .selectFrom('stats_hour')
    .select('key_id')
    .where('key_id', 'in', keyIds)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
