import { POINT_VALUES, STORED_COLUMNS, type StoredColumn } from '@tlprt/contract';
import { sql } from 'kysely';
import { type Db, isPostgres } from '../../db/index.js';
import { chunks } from '../../lib/chunks.js';
import type { BlockCache } from './block-cache.js';
import { addBlock, type BlockRead, decodeBlock, VIEWERS } from './block-format.js';
import { blockStart, packPoints, writeBlocks } from './block-queries.js';
import { LEVELS, levelOf, type ROLLUP_SIZES, TEAM_MINUTE_BLOCKS } from './levels.js';
import { blockRead, packedRead, planRead, type ReadPlan, readsCut, type StoredBlocks } from './read-plan.js';
import { addCapped, cappedSum, columnList, minuteCap, peakRef, sumCap } from './sql-parts.js';
import { PEAK_COLUMNS, type StatsDb } from './tables.js';

/** The statistics points' SQL: the flush and the reads of the ranges (the blocks' packing and writes:
 *  block-queries.ts; saved settings, retention: settings-, retention-queries.ts; demo look-ups: src/demo/).
 *  Same statements on SQLite and PostgreSQL unless marked. */

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
        ? addCapped(pg, stored, fresh, minuteCap(c))
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

/** Those of the keys with hourly points (history kept: the hourly rows live longest). */
export async function keysWithHourlyPoints(db: StatsDb, keyIds: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (const ids of chunks(keyIds, 1000)) {
    const rows = await db
      .selectFrom('stats_hour')
      .select('key_id')
      .distinct()
      .where('key_id', 'in', ids)
      .execute();
    for (const r of rows) found.add(Number(r.key_id));
  }
  return found;
}

/** Unix s of a minute's start → its columns summed over the keys (STORED_COLUMNS order); minutes
 *  without a row are absent (the alerts' reads of the stored minutes, kept 2 days). */
export async function minuteSums(
  db: Db,
  keyIds: readonly number[],
  fromMinute: number,
  toMinute: number,
): Promise<Map<number, Float64Array>> {
  const out = new Map<number, Float64Array>();
  if (toMinute < fromMinute || keyIds.length === 0) return out;
  // Sums as doubles on both databases: PostgreSQL sums bigint as numeric (read back as text), SQLite's
  // sum() may overflow where total() does not; an alert needs no exactness past 2^53.
  const pg = isPostgres(db);
  const total = (column: string) =>
    pg ? sql`cast(sum(${sql.ref(column)}) as double precision)` : sql`total(${sql.ref(column)})`;
  const { rows } = await sql<Record<string, number | string>>`
    select minute, ${sql.join(STORED_COLUMNS.map((c) => sql`${total(c.column)} as ${sql.ref(c.column)}`))}
    from stats_minute
    where key_id in (${sql.join(keyIds)}) and minute >= ${fromMinute} and minute <= ${toMinute}
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

/** Adds a decoded block's points to the read's (addBlock); answers its viewers (before the sign). */
type AddBlock = (start: number, values: Float64Array, sign: number, read: BlockRead) => number;

/**
 * The stored points of size `step` of some of a team's keys in [from, to] (step-aligned), as planned by
 * read-plan.ts planRead (which blocks, their sign, the team's rows, the chart's cut). In one
 * transaction, so one snapshot (PostgreSQL: repeatable read). `drawnOnly`: the chart's read, whose
 * points need the drawn columns only (PointReads.summed). `cache`: blocks decoded before, used again
 * while their version holds.
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
  const plan = planRead(step, teamId, keyIds, leftOut, from, to, drawnOnly);
  const sums = new Float64Array(plan.n * POINT_VALUES);
  const summed = new Float64Array(POINT_VALUES);
  const add: AddBlock = (start, values, sign, read) =>
    addBlock(sums, summed, from, step, plan.n, start, values, sign, read);
  if (plan.teamRows === 'none') {
    await addStoredBlocks(db, plan, add, cache);
    return { sums, summed, teamPeaks: null, othersViewers: 0 };
  }
  if (plan.teamRows === 'totals') {
    await addTeamTotals(db, plan, teamId, add);
    return { sums, summed, teamPeaks: null, othersViewers: 0 };
  }
  const teamPeaks = new Float64Array(plan.n * PEAK_COLUMNS.length).fill(-1);
  const teamViewers = await addTeamRows(db, plan, teamId, add, teamPeaks);
  const blockViewers = await addStoredBlocks(db, plan, add, cache);
  return {
    sums,
    summed,
    teamPeaks,
    othersViewers: plan.direct ? teamViewers - blockViewers : blockViewers,
  };
}

/** Adds the plan's stored blocks (ReadPlan.blocks, each with its sign); answers their viewers in the
 *  window (before the sign). */
async function addStoredBlocks(db: StatsDb, plan: ReadPlan, add: AddBlock, cache?: BlockCache) {
  const sources = plan.blocks;
  // Their versions first: the blocks decoded before at the same version are not read again.
  const versions = sql.join(
    sources.map(
      (b, i) => sql`select ${sql.lit(i)} as source, ${sql.ref(b.id)} as id, start, version
        from ${sql.table(b.table)} where ${sql.ref(b.id)} in (${sql.join(b.ids)})
          and start >= ${plan.firstStart} and start <= ${plan.to}`,
    ),
    sql` union all `,
  );
  const keyOf = (i: number, id: number, start: number) =>
    `${(sources[i] as StoredBlocks).table}:${id}:${start}:${readsCut(plan, start) ? 1 : 0}`;
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
      viewers += add(start, values, (sources[i] as StoredBlocks).sign, blockRead(plan, start));
      continue;
    }
    const m = missing[i] as (typeof missing)[number];
    m.keys.add(key);
    m.ids.add(Number(r.id));
    m.starts.add(start);
  }
  // The others read and decoded. Their ids and starts select the blocks to read and maybe some of those
  // added above (one key's new hour, another's old one): only the blocks to read are taken.
  const blob = plan.drawnOnly
    ? sql`case when start >= ${plan.from} and start <= ${plan.lastInside} then drawn else points end`
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
      const read = blockRead(plan, start);
      const values = decodeBlock(r.points, read, plan.slots);
      cache?.set(key, Number(r.version), values);
      viewers += add(start, values, b.sign, read);
    }
  }
  return viewers;
}

/** Every key of the team: its 20-minute or hourly totals with its own peaks, nothing else to read.
 *  Packed by the database as the blocks are (rows of 30 columns as objects cost more). */
async function addTeamTotals(db: StatsDb, plan: ReadPlan, teamId: number, add: AddBlock): Promise<void> {
  const { level, from, to } = plan;
  const t = sql.ref(level.time);
  const start = blockStart(level);
  const own = (c: StoredColumn) => (c.merge === 'peak' ? `peak_${c.column}` : c.column);
  const read = packedRead(plan);
  const rows = await sql<{ t: number; points: Uint8Array }>`
    select ${start} as t, ${packPoints(isPostgres(db), level, own, plan.drawnOnly)} as points
    from ${sql.table(level.team)} where team_id = ${teamId} and ${t} >= ${from} and ${t} <= ${to}
    group by ${start}`.execute(db);
  for (const r of rows.rows) add(Number(r.t), decodeBlock(r.points, read, plan.slots), 1, read);
}

/**
 * Some of the team's keys, 20-minute or hourly: in one result the team's viewers and own peaks a point
 * (kind 2, into `teamPeaks`) and, when the plan subtracts the keys left out from them, its sums packed
 * by the database as the blocks are (kind 1). Answers the team's viewers in the window.
 */
async function addTeamRows(
  db: StatsDb,
  plan: ReadPlan,
  teamId: number,
  add: AddBlock,
  teamPeaks: Float64Array,
): Promise<number> {
  const { level, from, to, step } = plan;
  const pg = isPostgres(db);
  const t = sql.ref(level.time);
  const start = blockStart(level);
  const peaks = PEAK_COLUMNS.length;
  const read = packedRead(plan);
  const teamRows = sql`from ${sql.table(level.team)}
    where team_id = ${teamId} and ${t} >= ${from} and ${t} <= ${to}`;
  const viewersColumn = sql.ref(STORED_COLUMNS[VIEWERS]?.column ?? '');
  const zeros = (k: number) => sql.join(Array.from({ length: k }, () => sql`0`));
  const blob = pg ? sql`null::bytea` : sql`null`;
  const peakRows = sql`
    select ${t} as t, 2 as kind, ${blob} as points, ${viewersColumn} as viewers,
           ${sql.join(PEAK_COLUMNS.map((c) => peakRef(c)))} ${teamRows}`;
  const sumRows = sql`
    select ${start}, 1, ${packPoints(pg, level, undefined, plan.drawnOnly)}, ${zeros(1 + peaks)} ${teamRows}
    group by ${start}`;
  const withSums = plan.teamRows === 'peaks-and-sums';
  let teamViewers = 0;
  for (const r of (
    await sql<TeamRow>`${withSums ? sql`${peakRows} union all ${sumRows}` : peakRows}`.execute(db)
  ).rows) {
    const time = Number(r.t);
    if (r.points) {
      add(time, decodeBlock(r.points, read, plan.slots), 1, read);
      continue;
    }
    const i = (time - from) / step;
    teamViewers += Number(r.viewers);
    PEAK_COLUMNS.forEach((c, j) => {
      teamPeaks[i * peaks + j] = Number(r[`peak_${c.column}`]);
    });
  }
  return teamViewers;
}
