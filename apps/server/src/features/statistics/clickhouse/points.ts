import { POINT_VALUES, STORED_COLUMNS, type StoredColumn } from '@tlprt/contract';
import { type JournalMark, type MinuteAgg, sessionHash } from '../aggregator.js';
import { VIEWERS } from '../block-format.js';
import { levelOf, ROLLUP_SIZES } from '../levels.js';
import type { PointReads } from '../queries.js';
import { minuteCap, sumCap } from '../sql-parts.js';
import type { PointsQuery } from '../store.js';
import { PEAK_COLUMNS } from '../tables.js';
import { type VersionedBlocks, versionedRows } from './block-versions.js';
import { answerLost, type ClickHouse } from './client.js';
import { arraysSummed, KEY_VALUES, NAMES, SUMMED, TEAM_NAMES, TEAM_VALUES } from './schema.js';
import { chInt, chInts, chName } from './sql.js';

/** The statistics points on ClickHouse: the flush's writes and the ranges' reads (schema.ts). */

type Row = Record<string, string | number>;

const cols = (f: (c: StoredColumn) => string) => STORED_COLUMNS.map(f).join(', ');
const scope = (teamIds: Iterable<number>, keyIds: Iterable<number> | null) =>
  `team_id in (${chInts(teamIds)})${keyIds ? ` and key_id in (${chInts(keyIds)})` : ''}`;

/** Per key and minute of `where`: the summed columns, each key-minute capped as the database caps it. */
const minuteSumsOf = (where: string) => `
  select team_id, key_id, minute, ${SUMMED.map((c) => `least(sum(${c.column}), ${minuteCap(c)}) as ${c.column}`).join(', ')}
  from stats_minute where ${where} group by team_id, key_id, minute`;

/** Per key and minute of `where`: each peak series' distinct sessions (or the pre-counted viewers). */
const minuteViewersOf = (where: string) => `
  select team_id, key_id, minute, ${PEAK_COLUMNS.map((p, j) => `max(if(peak = ${j}, n, 0)) as ${p.column}`).join(', ')}
  from (
    select team_id, key_id, minute, peak, uniqExactMerge(sessions) as n from stats_minute_viewers
    where ${where} group by team_id, key_id, minute, peak
    union all
    select team_id, key_id, minute, peak, max(viewers) as n from stats_minute_presets
    where ${where} group by team_id, key_id, minute, peak
  ) group by team_id, key_id, minute`;

/** Per key and minute of `where`: every stored column (STORED_COLUMNS), as the database's stats_minute. */
const keyMinutesOf = (where: string) => `
  select * from (${minuteSumsOf(where)}) any left join (${minuteViewersOf(where)}) using (team_id, key_id, minute)`;

/** A stored column summed over rows, saturating as the database's sums do. */
const capped = (c: StoredColumn) => `least(sum(${c.column}), ${sumCap(c)})`;

// ---------------------------------------------------------------------------------------------------
// The flush

/** Each summed column with its index in a key-minute's values. */
const SUMMED_AT = SUMMED.map((c) => [c, STORED_COLUMNS.indexOf(c)] as const);

/** A key-minute's place in a write's sums (Stored). */
const minuteKey = (r: Row) => `${r.key_id}:${r.minute}`;

/** Sums rows by key-minute: what inserts whose answer was lost stored after all (whole key-minutes). */
export type StoredSums = Map<string, Row>;

/**
 * The rows of a batch: the sums of each key-minute, its sessions per peak series, pre-counted viewers.
 * `stored`: sums already in ClickHouse from a write whose answer was lost, which the aggregator gave
 * back with this batch: taken off, so they count once.
 */
function batchRows(teamOf: ReadonlyMap<number, number>, batch: readonly MinuteAgg[], stored?: StoredSums) {
  const whole: StoredSums = new Map();
  const sums: Row[] = [];
  const sessions: Row[] = [];
  const presets: Row[] = [];
  for (const a of batch) {
    const team_id = teamOf.get(a.keyId);
    // A key whose team is gone: nobody can read its statistics any more.
    if (team_id === undefined) continue;
    const at = { team_id, key_id: a.keyId, minute: a.minute };
    const row: Row = { ...at };
    const all: Row = { ...at };
    const already = stored?.get(minuteKey(row));
    for (const [c, i] of SUMMED_AT) {
      const value = Math.min(Math.max(0, Math.round(a.values[i] ?? 0)), minuteCap(c));
      all[c.column] = value;
      row[c.column] = Math.max(0, value - Number(already?.[c.column] ?? 0));
    }
    whole.set(minuteKey(row), all);
    sums.push(row);
    if (!a.sessions) {
      PEAK_COLUMNS.forEach((p, peak) => {
        const viewers = a.values[p.index] ?? 0;
        if (viewers > 0) presets.push({ ...at, peak, viewers });
      });
      continue;
    }
    for (const [id, bits] of a.sessions) {
      const session_hash = sessionHash(id);
      PEAK_COLUMNS.forEach((p, peak) => {
        if (p.bit === 0 || (bits & p.bit) !== 0) sessions.push({ ...at, peak, session_hash });
      });
    }
  }
  return { whole, sums, sessions, presets };
}

/** Time spans a batch touched, per level: the keys and teams, the first and last bucket. */
export interface Touched {
  teamIds: number[];
  keyIds: number[];
  from: number;
  to: number;
}

/**
 * The receipt a write's sums carry into stats_receipts: the journal's mark (`journal:segment`) when it
 * has one, then `#` and the write's own id (how a write whose answer was lost is found).
 */
export const receiptOf = (write: string, mark?: JournalMark) =>
  `${mark ? `${mark.journal}:${mark.segment}` : ''}#${write}`;
/** The journal segment of a receipt of `journal`'s (0 when it has none). */
export const segmentOf = (receipt: string, journal: string) =>
  Number(receipt.slice(journal.length + 1).split('#')[0]) || 0;

/** A sums insert that failed once ClickHouse may have had it (answerLost): maybe stored. `whole`: its
 *  key-minutes' sums before those already stored were taken off (what is stored if it was). */
export class SumsAnswerLost extends Error {
  constructor(
    readonly reason: Error,
    readonly whole: StoredSums,
  ) {
    super(reason.message);
  }
}

/**
 * Writes a batch's key-minutes. The sessions and pre-counted viewers go first: written twice they
 * count once (a set of sessions, a largest value). Then the sums, the one insert that would count twice
 * if repeated: a failure before it loses nothing (the aggregator keeps the batch), and nothing after it
 * throws (the rollups, refreshRollups, are the store's to retry). The sums carry their receipt
 * (`receipt`, one row of the insert): with the journal's mark in it, a node killed after the insert
 * replays nothing of it (the store reads the receipts at start); an insert whose answer was lost throws
 * SumsAnswerLost, and the store looks for its receipt before the next write (`stored`: the sums it
 * found stored, taken off here and forgotten once written). Answers what the rollups must cover.
 */
export async function insertMinutes(
  ch: ClickHouse,
  teamOf: ReadonlyMap<number, number>,
  batch: readonly MinuteAgg[],
  write: { id: string; mark?: JournalMark | undefined; stored?: StoredSums | undefined },
): Promise<Touched | null> {
  const { whole, sums, sessions, presets } = batchRows(teamOf, batch, write.stored);
  if (sums.length === 0) return null;
  (sums[0] as Row).receipt = receiptOf(write.id, write.mark);
  for (let i = 0; i < sessions.length; i += 200_000)
    await ch.insert('stats_sessions_in', sessions.slice(i, i + 200_000));
  await ch.insert('stats_minute_presets', presets);
  try {
    await ch.insert('stats_minute', sums, write.id);
  } catch (err) {
    throw answerLost(err) ? new SumsAnswerLost(err as Error, whole) : err;
  }
  for (const k of whole.keys()) write.stored?.delete(k);
  const minutes = sums.map((r) => Number(r.minute));
  return {
    teamIds: [...new Set(sums.map((r) => Number(r.team_id)))],
    keyIds: [...new Set(sums.map((r) => Number(r.key_id)))],
    from: Math.min(...minutes),
    to: Math.max(...minutes),
  };
}

/**
 * Recomputes what the touched minutes feed, as the database's flush does after its recount: the keys'
 * minute points (viewers counted from the sessions), the teams' minute totals, then the 20-minute and
 * hourly points of those keys and teams (sums summed, viewers the peak minute; a team's own peak
 * minute beside the sum of its keys' peaks). Written again, a point replaces the one before
 * (ReplacingMergeTree by `version`): run twice, it answers the same.
 */
export async function refreshRollups(ch: ClickHouse, t: Touched, version: number): Promise<void> {
  const v = chInt(version);
  const touched = `${scope(t.teamIds, t.keyIds)} and minute >= ${chInt(t.from)} and minute <= ${chInt(t.to)}`;
  await ch.command(`
    insert into stats_minute_points (team_id, key_id, minute, ${cols((c) => c.column)}, version)
    select team_id, key_id, minute, ${cols((c) => c.column)}, ${v} from (${keyMinutesOf(touched)})`);
  // A team total is the plain sum of the team's key minutes (every key of it, not only the touched).
  const teamMinutes = `${scope(t.teamIds, null)} and minute >= ${chInt(t.from)} and minute <= ${chInt(t.to)}`;
  await ch.command(`
    insert into stats_team_minute (team_id, minute, ${cols((c) => c.column)}, version)
    select team_id, minute, ${cols((c) => capped(c))}, ${v}
    from stats_minute_points final where ${teamMinutes} group by team_id, minute`);
  for (const size of ROLLUP_SIZES) {
    const level = levelOf(size);
    const from = t.from - (t.from % size);
    const to = t.to - (t.to % size) + size;
    const bucket = `toUInt32(intDiv(minute, ${size}) * ${size})`;
    const span = (time: string) => `${time} >= ${chInt(from)} and ${time} < ${chInt(to)}`;
    await ch.command(`
      insert into ${chName(level.key)} (team_id, key_id, bucket, ${cols((c) => c.column)}, version)
      select team_id, key_id, ${bucket} as bucket,
        ${cols((c) => (c.merge === 'sum' ? capped(c) : `max(${c.column})`))}, ${v}
      from stats_minute_points final where ${scope(t.teamIds, t.keyIds)} and ${span('minute')}
      group by team_id, key_id, bucket`);
    await ch.command(`
      insert into ${chName(level.team)} (team_id, bucket, ${cols((c) => c.column)},
        ${PEAK_COLUMNS.map((p) => `peak_${p.column}`).join(', ')}, version)
      select team_id, bucket, ${cols((c) => c.column)},
        ${PEAK_COLUMNS.map((p) => `if(own = 1, own_${p.column}, ${p.column})`).join(', ')}, ${v}
      from (
        select team_id, bucket, ${cols((c) => `${capped(c)} as ${c.column}`)}
        from ${chName(level.key)} final where ${scope(t.teamIds, null)} and ${span('bucket')}
        group by team_id, bucket
      ) any left join (
        select team_id, ${bucket} as bucket, 1 as own,
          ${PEAK_COLUMNS.map((p) => `max(${p.column}) as own_${p.column}`).join(', ')}
        from stats_team_minute final where ${scope(t.teamIds, null)} and ${span('minute')}
        group by team_id, bucket
      ) using (team_id, bucket)`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Reads

const numbers = (r: Row, names: readonly string[]) => names.map((n) => Number(r[n] ?? 0));

/** Where each point value is in a team rollup's array when every key is asked: the team's own peak
 *  for a peak series, else the column. */
const OWN_AT = Int32Array.from(STORED_COLUMNS, (c, i) =>
  c.merge === 'peak' ? TEAM_NAMES.indexOf(`peak_${c.column}`) : i,
);
const SAME_AT = Int32Array.from(STORED_COLUMNS, (_, i) => i);
const PEAKS_AT = Int32Array.from(PEAK_COLUMNS, (p) => TEAM_NAMES.indexOf(`peak_${p.column}`));

/**
 * The points of a read as the database's readPoints answers them (PointReads), planned as its
 * read-plan.ts plans them: most of a team's keys are the team's rows less the keys left out, fewer keys
 * their own rows summed (the same numbers: a team's row is the plain sum of its keys'). Every column of
 * every point is in `sums` (a chart's read too: `summed` stays 0, the totals add up the same). A read's
 * statements go at once, each answering its rows' arrays as doubles (ClickHouse.binary). With `blocks`,
 * the blocks read before at their current version come from the cache (versionedRows), and a
 * statement reads only the others.
 */
export async function readPointsCh(
  ch: ClickHouse,
  q: PointsQuery,
  blocks?: VersionedBlocks,
): Promise<PointReads> {
  const { step, teamId, keyIds, leftOut, from, to } = q;
  const n = (to - from) / step + 1;
  const sums = new Float64Array(n * POINT_VALUES);
  const summed = new Float64Array(POINT_VALUES);
  /** The point index of a row's time, or -1 outside the read. */
  const pointOf = (t: number) => {
    const i = (t - from) / step;
    return i >= 0 && i < n && Number.isInteger(i) ? i : -1;
  };
  /** The viewers of rows of [time, …width values] (a stored column's place in both kinds of array). */
  const viewersOf = (parts: readonly Float64Array[], width: number) => {
    let viewers = 0;
    for (const values of parts)
      for (let r = 0; r < values.length; r += width + 1)
        if (pointOf(values[r] as number) >= 0) viewers += values[r + 1 + VIEWERS] as number;
    return viewers;
  };
  /** Adds (sign 1) or subtracts rows of [time, …width values] into the points, each point value from
   *  its place `at` in the row; answers the rows' viewers. */
  const add = (parts: readonly Float64Array[], width: number, at: Int32Array, sign: number) => {
    for (const values of parts)
      for (let r = 0; r < values.length; r += width + 1) {
        const i = pointOf(values[r] as number);
        if (i < 0) continue;
        for (let c = 0, p = i * POINT_VALUES; c < POINT_VALUES; c++, p++)
          sums[p] = (sums[p] as number) + sign * (values[r + 1 + (at[c] as number)] as number);
      }
    return viewersOf(parts, width);
  };
  const level = step === 60 ? null : levelOf(step);
  const time = level ? 'bucket' : 'minute';
  const teamWidth = level ? TEAM_NAMES.length : POINT_VALUES;
  /** The rows of `tag`'s statement over the read's window, with the cached blocks when versioned. */
  const rowsOf = async (tag: string, width: number, statement: (window: string) => string) => {
    const read = async (first: number, end: number) => ({
      values: (
        await ch.binary(statement(`${time} >= ${chInt(first)} and ${time} < ${chInt(end)}`), [
          'double',
          width,
        ])
      ).values,
      names: [],
    });
    if (!blocks) return [(await read(from, to + 1)).values];
    const parts = await versionedRows(
      blocks,
      `ch:${teamId}:${step}:${tag}`,
      { size: step, from, to, width },
      read,
    );
    return parts.map((b) => b.values);
  };
  const teamRows = () =>
    rowsOf(
      'team',
      teamWidth,
      (window) =>
        `select toFloat64(${time}), ${level ? TEAM_VALUES : KEY_VALUES}
         from ${level ? chName(level.team) : 'stats_team_minute'} final
         where team_id = ${chInt(teamId)} and ${window}`,
    );
  /** The keys' rows summed per point: the asked ones, or those left out to subtract. */
  const keyRows = (ids: readonly number[]) =>
    rowsOf(
      `keys:${[...ids].sort((a, b) => a - b).join(',')}`,
      POINT_VALUES,
      (window) =>
        `select toFloat64(${time}), ${arraysSummed(KEY_VALUES)}
         from ${level ? chName(level.key) : 'stats_minute_points'} final
         where ${scope([teamId], ids)} and ${window} group by ${time}`,
    );
  const done = (teamPeaks: Float64Array | null = null, othersViewers = 0): PointReads => ({
    sums,
    summed,
    teamPeaks,
    othersViewers,
  });
  if (leftOut.length === 0) {
    // Every key: the team's own rows (20-minute and hourly: its own peaks).
    add(await teamRows(), teamWidth, level ? OWN_AT : SAME_AT, 1);
    return done();
  }
  const direct = leftOut.length >= keyIds.length;
  if (!level) {
    if (direct) add(await keyRows(keyIds), POINT_VALUES, SAME_AT, 1);
    else {
      const [team, others] = await Promise.all([teamRows(), keyRows(leftOut)]);
      add(team, teamWidth, SAME_AT, 1);
      add(others, POINT_VALUES, SAME_AT, -1);
    }
    return done();
  }
  // Some keys, 20-minute and hourly: the sums of their peaks, and the team's own peaks beside them.
  const [team, keys] = await Promise.all([teamRows(), keyRows(direct ? keyIds : leftOut)]);
  const peaks = PEAK_COLUMNS.length;
  const teamPeaks = new Float64Array(n * peaks).fill(-1);
  for (const values of team)
    for (let r = 0; r < values.length; r += teamWidth + 1) {
      const i = pointOf(values[r] as number);
      if (i >= 0)
        for (let j = 0; j < peaks; j++)
          teamPeaks[i * peaks + j] = values[r + 1 + (PEAKS_AT[j] as number)] as number;
    }
  if (direct) {
    return done(teamPeaks, viewersOf(team, teamWidth) - add(keys, POINT_VALUES, SAME_AT, 1));
  }
  add(team, teamWidth, SAME_AT, 1);
  return done(teamPeaks, add(keys, POINT_VALUES, SAME_AT, -1));
}

/** Unix s of a minute → the stored columns summed over the keys (the alerts' reads). */
export async function minuteSumsCh(
  ch: ClickHouse,
  teamIds: readonly number[],
  keyIds: readonly number[],
  from: number,
  to: number,
): Promise<Map<number, Float64Array>> {
  const out = new Map<number, Float64Array>();
  if (keyIds.length === 0 || to < from) return out;
  const where = `${scope(teamIds, keyIds)} and minute >= ${chInt(from)} and minute <= ${chInt(to)}`;
  for (const r of await ch.rows<Row>(`
    select minute, ${cols((c) => `sum(${c.column}) as ${c.column}`)} from stats_minute_points final
    where ${where} group by minute`))
    out.set(Number(r.minute), Float64Array.from(numbers(r, NAMES)));
  return out;
}
