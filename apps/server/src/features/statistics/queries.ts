import { KeyStatus } from '@tlprt/contract';
import { PostgresAdapter, type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { chunks } from '../../lib/chunks.js';
import {
  BLOCK_SPAN_S,
  MINUTE_BYTES_CAP,
  type MinuteRow,
  SERIES_BITS,
  type StatsDb,
  SUM_CAP,
} from './tables.js';

/** The statistics feature's SQL: the flush, the reads of the ranges, saved lists,
 *  retention and the demo's look-ups. Same statements on SQLite and PostgreSQL unless marked. */

const isPostgres = (db: { getExecutor(): { readonly adapter: unknown } }): boolean =>
  db.getExecutor().adapter instanceof PostgresAdapter;

/** `a + b`, at most MINUTE_BYTES_CAP (both operands are already at most that: the addition cannot
 *  overflow). */
function cappedAdd(pg: boolean, a: RawBuilder<unknown>, b: RawBuilder<unknown>) {
  return pg
    ? sql<number>`least(${a} + ${b}, ${sql.lit(MINUTE_BYTES_CAP)})`
    : sql<number>`min(${a} + ${b}, ${sql.lit(MINUTE_BYTES_CAP)})`;
}

/** `sum(column)` over any number of keys that saturates instead of failing: PostgreSQL sums bigint as
 *  numeric (no overflow until the cast back), SQLite's sum() raises "integer overflow" where total()
 *  does not (exact below 2^53). */
function cappedSum(pg: boolean, column: RawBuilder<unknown>) {
  return pg
    ? sql<number>`least(sum(${column}), ${sql.lit(SUM_CAP)})`
    : sql<number>`cast(min(total(${column}), ${sql.lit(SUM_CAP)}) as integer)`;
}

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

/** Adds the bytes to the stored minutes (saturating); user counts keep the larger of the two. */
export async function upsertMinutes(db: StatsDb, rows: readonly MinuteRow[]): Promise<void> {
  const pg = isPostgres(db);
  const larger = (c: 'cdn_users' | 'p2p_users' | 'nodr_users' | 'users') =>
    sql<number>`case when ${sql.ref(`stats_minute.${c}`)} > ${sql.ref(`excluded.${c}`)} then ${sql.ref(`stats_minute.${c}`)} else ${sql.ref(`excluded.${c}`)} end`;
  for (const part of chunks(rows, 1000)) {
    await db
      .insertInto('stats_minute')
      .values(part)
      .onConflict((oc) =>
        oc.columns(['key_id', 'minute']).doUpdateSet({
          cdn_bytes: cappedAdd(pg, sql`stats_minute.cdn_bytes`, sql`excluded.cdn_bytes`),
          p2p_bytes: cappedAdd(pg, sql`stats_minute.p2p_bytes`, sql`excluded.p2p_bytes`),
          nodr_bytes: cappedAdd(pg, sql`stats_minute.nodr_bytes`, sql`excluded.nodr_bytes`),
          rejected_bytes: cappedAdd(pg, sql`stats_minute.rejected_bytes`, sql`excluded.rejected_bytes`),
          cdn_users: larger('cdn_users'),
          p2p_users: larger('p2p_users'),
          nodr_users: larger('nodr_users'),
          users: larger('users'),
        }),
      )
      .execute();
  }
}

/** A session of a key-minute: minute, key id, hashed session id, its series as SERIES_BITS. */
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

/** Sets the user counts of some keys' minute from their stored sessions. */
export async function recountViewers(db: StatsDb, minute: number, keyIds: readonly number[]): Promise<void> {
  const has = (bit: number) => sql`sum((series & ${sql.lit(bit)}) / ${sql.lit(bit)})`;
  for (const ids of chunks(keyIds, 1000)) {
    await sql`
      update stats_minute set cdn_users = c.cu, p2p_users = c.pu, nodr_users = c.nu, users = c.n
      from (
        select key_id, count(*) as n, ${has(SERIES_BITS.cdn)} as cu, ${has(SERIES_BITS.p2p)} as pu,
               ${has(SERIES_BITS.nodr)} as nu
        from stats_minute_sessions where minute = ${minute} and key_id in (${sql.join(ids)})
        group by key_id
      ) c
      where stats_minute.minute = ${minute} and stats_minute.key_id = c.key_id`.execute(db);
  }
}

/** Recomputes the rollup points of size `size` of some keys between two bucket starts from the
 *  minutes: sizes summed, users the peak minute. */
export async function refreshRollups(
  db: StatsDb,
  size: (typeof ROLLUP_SIZES)[number],
  keyIds: readonly number[],
  fromBucket: number,
  toBucket: number,
): Promise<void> {
  const table = sql.table(levelOf(size).key);
  const bucket = sql`(minute / ${sql.lit(size)}) * ${sql.lit(size)}`;
  for (const ids of chunks(keyIds, 1000)) {
    await sql`
      insert into ${table} (key_id, bucket, cdn_bytes, p2p_bytes, nodr_bytes, cdn_users, p2p_users, nodr_users, users,
                            rejected_bytes)
      select key_id, ${bucket}, sum(cdn_bytes), sum(p2p_bytes), sum(nodr_bytes),
             max(cdn_users), max(p2p_users), max(nodr_users), max(users), sum(rejected_bytes)
      from stats_minute
      where key_id in (${sql.join(ids)}) and minute >= ${fromBucket} and minute < ${toBucket + size}
      group by key_id, ${bucket}
      on conflict (key_id, bucket) do update set
        cdn_bytes = excluded.cdn_bytes, p2p_bytes = excluded.p2p_bytes, nodr_bytes = excluded.nodr_bytes,
        cdn_users = excluded.cdn_users, p2p_users = excluded.p2p_users, nodr_users = excluded.nodr_users,
        users = excluded.users, rejected_bytes = excluded.rejected_bytes`.execute(db);
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
  const sums = (time: RawBuilder<unknown>) => sql`
    select k.team_id, s.${time} as t, ${cappedSum(pg, sql`s.cdn_bytes`)} as cb, ${cappedSum(pg, sql`s.p2p_bytes`)} as pb,
           ${cappedSum(pg, sql`s.nodr_bytes`)} as nb, sum(s.cdn_users) as cu, sum(s.p2p_users) as pu,
           sum(s.nodr_users) as nu, sum(s.users) as u, ${cappedSum(pg, sql`s.rejected_bytes`)} as rb`;
  const update = sql`
    cdn_bytes = excluded.cdn_bytes, p2p_bytes = excluded.p2p_bytes, nodr_bytes = excluded.nodr_bytes,
    cdn_users = excluded.cdn_users, p2p_users = excluded.p2p_users, nodr_users = excluded.nodr_users,
    users = excluded.users, rejected_bytes = excluded.rejected_bytes`;
  for (const { team, key, time, size } of LEVELS) {
    const from = fromMinute - (fromMinute % size);
    const t = sql.ref(time);
    const totals = sql`
      ${sums(t)}
      from ${sql.table(key)} s join keys k on k.id = s.key_id
      where k.team_id in (${teams}) and s.${t} >= ${from} and s.${t} <= ${toMinute}
      group by k.team_id, s.${t}`;
    if (size === 60) {
      await sql`
        insert into stats_team_minute (team_id, minute, cdn_bytes, p2p_bytes, nodr_bytes, cdn_users, p2p_users, nodr_users, users,
                                       rejected_bytes)
        ${totals}
        on conflict (team_id, minute) do update set ${update}`.execute(db);
      const into = { blocks: TEAM_MINUTE_BLOCKS, source: 'stats_team_minute', id: 'team_id' } as const;
      await writeBlocks(db, levelOf(60), into, teamIds, fromMinute, toMinute);
      continue;
    }
    const bucket = sql`(minute / ${sql.lit(size)}) * ${sql.lit(size)}`;
    await sql`
      insert into ${sql.table(team)} (team_id, bucket, cdn_bytes, p2p_bytes, nodr_bytes, cdn_users, p2p_users, nodr_users, users,
                                      rejected_bytes, peak_cdn_users, peak_p2p_users, peak_nodr_users, peak_users)
      select tot.team_id, tot.t, tot.cb, tot.pb, tot.nb, tot.cu, tot.pu, tot.nu, tot.u, tot.rb,
             coalesce(p.cu, tot.cu), coalesce(p.pu, tot.pu), coalesce(p.nu, tot.nu), coalesce(p.u, tot.u)
      from (${totals}) tot
      left join (
        select team_id, ${bucket} as b, max(cdn_users) as cu, max(p2p_users) as pu, max(nodr_users) as nu, max(users) as u
        from stats_team_minute
        where team_id in (${teams}) and minute >= ${from} and minute < ${toMinute - (toMinute % size) + size}
        group by team_id, ${bucket}
      ) p on p.team_id = tot.team_id and p.b = tot.t
      where true
      on conflict (team_id, bucket) do update set ${update},
        peak_cdn_users = excluded.peak_cdn_users, peak_p2p_users = excluded.peak_p2p_users,
        peak_nodr_users = excluded.peak_nodr_users, peak_users = excluded.peak_users`.execute(db);
  }
}

/**
 * A key's points of one span (BLOCK_SPAN_S: an hour of minutes, a day of 20-minute points, 3 days of
 * hourly ones) packed in one value (the *_blocks tables, migration 0011): a day of minutes is read as
 * 25 values per key instead of 1,440 rows, whose grouping was most of a query's time. Each stored point
 * is BLOCK_ENTRY bytes, oldest first: its index in the span (1 byte); cdn, p2p and nodr bytes (8 bytes
 * each); cdn, p2p and nodr users and users (4 bytes each); refused bytes (8 bytes, 0012); big-endian.
 * Built as hex by the database itself, as migrations 0011 and 0012 do.
 */
const BLOCK_ENTRY = 49;
function packPoints(pg: boolean, { time, size, span }: Level) {
  const t = sql.ref(time);
  const users = (c: string) =>
    pg ? sql`least(${sql.ref(c)}, 4294967295)` : sql`min(${sql.ref(c)}, 4294967295)`;
  const index = sql`(${t} % ${sql.lit(span)}) / ${sql.lit(size)}`;
  if (pg) {
    const hex = (v: RawBuilder<unknown>, digits: number) => sql`lpad(to_hex(${v}), ${sql.lit(digits)}, '0')`;
    return sql`decode(string_agg(
      ${hex(index, 2)} || ${hex(sql`cdn_bytes`, 16)} || ${hex(sql`p2p_bytes`, 16)} || ${hex(sql`nodr_bytes`, 16)}
      || ${hex(users('cdn_users'), 8)} || ${hex(users('p2p_users'), 8)} || ${hex(users('nodr_users'), 8)} || ${hex(users('users'), 8)}
      || ${hex(sql`rejected_bytes`, 16)},
      '' order by ${t}), 'hex')`;
  }
  return sql`unhex(group_concat(printf('%02x%016x%016x%016x%08x%08x%08x%08x%016x', ${index},
    cdn_bytes, p2p_bytes, nodr_bytes, ${users('cdn_users')}, ${users('p2p_users')}, ${users('nodr_users')}, ${users('users')},
    rejected_bytes),
    '' order by ${t}))`;
}

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
  const pack = packPoints(isPostgres(db), level);
  const start = sql`(${t} / ${sql.lit(span)}) * ${sql.lit(span)}`;
  for (const part of chunks(ids, 1000)) {
    await sql`
      insert into ${sql.table(into.blocks)} (${id}, start, points)
      select ${id}, ${start}, ${pack} from ${sql.table(into.source)}
      where ${id} in (${sql.join(part)}) and ${t} >= ${fromTime - (fromTime % span)}
        and ${t} < ${toTime - (toTime % span) + span}
      group by ${id}, ${start}
      on conflict (${id}, start) do update set points = excluded.points`.execute(db);
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

/** The team's keys (every status: deleted keys keep their history). */
export function listTeamKeys(db: Db, teamId: number) {
  return db.selectFrom('keys').select(['id', 'key_hash']).where('team_id', '=', teamId).execute();
}

/** Values per point in the arrays the reads answer: cdn, p2p, nodr bytes; cdn, p2p, nodr users and
 *  users (the distinct viewers); refused bytes (REJECTED). */
export const POINT_VALUES = 8;
/** The index of the refused bytes in a point's values. */
export const REJECTED = 7;

const add = (out: Float64Array, i: number, v: number) => {
  out[i] = (out[i] ?? 0) + v;
};

/** Adds (sign 1) or subtracts (sign -1) a block's points within the `n` points of size `step` from
 *  `from` into `out`; answers the users it added up (before the sign). */
function addBlock(
  out: Float64Array,
  from: number,
  step: number,
  n: number,
  start: number,
  points: Uint8Array,
  sign: number,
): number {
  const v = new DataView(points.buffer, points.byteOffset, points.byteLength);
  const u64 = (o: number) => v.getUint32(o) * 4_294_967_296 + v.getUint32(o + 4);
  const first = (start - from) / step;
  let users = 0;
  for (let o = 0; o + BLOCK_ENTRY <= points.byteLength; o += BLOCK_ENTRY) {
    const i = first + v.getUint8(o);
    if (i < 0 || i >= n) continue;
    const p = i * POINT_VALUES;
    add(out, p, sign * u64(o + 1));
    add(out, p + 1, sign * u64(o + 9));
    add(out, p + 2, sign * u64(o + 17));
    add(out, p + 3, sign * v.getUint32(o + 25));
    add(out, p + 4, sign * v.getUint32(o + 29));
    add(out, p + 5, sign * v.getUint32(o + 33));
    const u = v.getUint32(o + 37);
    add(out, p + 6, sign * u);
    add(out, p + REJECTED, sign * u64(o + 41));
    users += u;
  }
  return users;
}

/** What a read of points answers. */
export interface PointReads {
  /** POINT_VALUES per point: the asked keys' rows summed (20-minute and hourly users: the sum of each
   *  key's peak, or the team's own peak when every key of the team is asked). */
  sums: Float64Array;
  /** 20-minute and hourly points of some of the team's keys: 4 per point, the team's own peak minute
   *  of cdn, p2p and nodr users and users; -1 where the team has no total (not refreshed yet). */
  teamPeaks: Float64Array | null;
  /** The viewers (users) of the team's keys not asked, summed over the window's points: 0 when they had
   *  none, and the team's own peaks are then the asked keys' own. */
  othersViewers: number;
}

/** One point of a team (or a key) as read: time, bytes, users and refused bytes (POINT_VALUES). */
interface PointRow {
  t: number;
  cb: number;
  pb: number;
  nb: number;
  cu: number;
  pu: number;
  nu: number;
  u: number;
  rb: number;
}
/** A team's point with its own peaks, or a block of a key's points. */
interface ReadRow extends PointRow {
  pcu: number;
  ppu: number;
  pnu: number;
  pu2: number;
  points: Uint8Array | null;
}

/**
 * The stored points of size `step` of some of a team's keys in [from, to] (step-aligned). Most of a
 * team's keys (the "Active traffic" list, usually all of them) are read as the team total less the
 * blocks of the keys left out, fewer keys as their own blocks: both give the same numbers, a team total
 * being the plain sum of its per-key rows. 20-minute and hourly reads take the team's rows (not blocks)
 * in either case, for its own peaks. One statement, so one snapshot on PostgreSQL.
 */
export async function readPoints(
  db: StatsDb,
  step: number,
  teamId: number,
  keyIds: readonly number[],
  leftOut: readonly number[],
  from: number,
  to: number,
): Promise<PointReads> {
  const level = levelOf(step);
  const n = (to - from) / step + 1;
  const sums = new Float64Array(n * POINT_VALUES);
  const direct = leftOut.length >= keyIds.length;
  if (step === 60) {
    const keyBlocks = (ids: readonly number[]) => sql`
      select start as t, 0 as team, points from ${sql.table(level.blocks)}
      where key_id in (${sql.join(ids)}) and start >= ${from - (from % level.span)} and start <= ${to}`;
    const teamBlocks = sql`
      select start as t, 1 as team, points from ${sql.table(TEAM_MINUTE_BLOCKS)}
      where team_id = ${teamId} and start >= ${from - (from % level.span)} and start <= ${to}`;
    const statement = direct
      ? keyBlocks(keyIds)
      : leftOut.length > 0
        ? sql`${teamBlocks} union all ${keyBlocks(leftOut)}`
        : teamBlocks;
    for (const r of (await sql<{ t: number; team: number; points: Uint8Array }>`${statement}`.execute(db))
      .rows) {
      addBlock(sums, from, step, n, Number(r.t), r.points, direct || r.team === 1 ? 1 : -1);
    }
    return { sums, teamPeaks: null, othersViewers: 0 };
  }
  const t = sql.ref(level.time);
  if (leftOut.length === 0) {
    // Every key of the team: its totals with its own peaks, nothing else to read.
    const rows = await sql<PointRow>`
      select ${t} as t, cdn_bytes as cb, p2p_bytes as pb, nodr_bytes as nb, peak_cdn_users as cu,
             peak_p2p_users as pu, peak_nodr_users as nu, peak_users as u, rejected_bytes as rb
      from ${sql.table(level.team)} where team_id = ${teamId} and ${t} >= ${from} and ${t} <= ${to}`.execute(
      db,
    );
    for (const r of rows.rows) {
      const p = ((Number(r.t) - from) / step) * POINT_VALUES;
      sums.set([Number(r.cb), Number(r.pb), Number(r.nb), r.cu, r.pu, r.nu, r.u, Number(r.rb)], p);
    }
    return { sums, teamPeaks: null, othersViewers: 0 };
  }
  const teamPeaks = new Float64Array(n * 4).fill(-1);
  // The team's rows and the keys' blocks in one result: a row with points is a block.
  const team = sql`
    select ${t} as t, cdn_bytes as cb, p2p_bytes as pb, nodr_bytes as nb, cdn_users as cu, p2p_users as pu,
           nodr_users as nu, users as u, rejected_bytes as rb, peak_cdn_users as pcu, peak_p2p_users as ppu,
           peak_nodr_users as pnu, peak_users as pu2, ${isPostgres(db) ? sql`null::bytea` : sql`null`} as points
    from ${sql.table(level.team)} where team_id = ${teamId} and ${t} >= ${from} and ${t} <= ${to}`;
  const blocks = (ids: readonly number[]) => sql`
    select start, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, points from ${sql.table(level.blocks)}
    where key_id in (${sql.join(ids)}) and start >= ${from - (from % level.span)} and start <= ${to}`;
  const statement = sql`${team} union all ${blocks(direct ? keyIds : leftOut)}`;
  let teamViewers = 0;
  let blockViewers = 0;
  for (const r of (await sql<ReadRow>`${statement}`.execute(db)).rows) {
    const time = Number(r.t);
    if (r.points) {
      blockViewers += addBlock(sums, from, step, n, time, r.points, direct ? 1 : -1);
      continue;
    }
    const i = (time - from) / step;
    teamViewers += Number(r.u);
    if (!direct) {
      const p = i * POINT_VALUES;
      add(sums, p, Number(r.cb));
      add(sums, p + 1, Number(r.pb));
      add(sums, p + 2, Number(r.nb));
      add(sums, p + 3, Number(r.cu));
      add(sums, p + 4, Number(r.pu));
      add(sums, p + 5, Number(r.nu));
      add(sums, p + 6, Number(r.u));
      add(sums, p + REJECTED, Number(r.rb));
    }
    teamPeaks.set([Number(r.pcu), Number(r.ppu), Number(r.pnu), Number(r.pu2)], i * 4);
  }
  return { sums, teamPeaks, othersViewers: direct ? teamViewers - blockViewers : blockViewers };
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
