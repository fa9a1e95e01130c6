import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import {
  cappedAdd,
  cappedSum,
  isPostgres,
  MINUTE_BYTES_CAP,
  STATS_LEVELS,
  type StatsDb,
  statsDb,
} from './tables.js';

/** The series' indexes, typed so tuple access needs no assertion. */
const IDX = [0, 1, 2] as const;
/** The session sets of a key-minute: the three series, then 3, the sessions with any bytes (the
 *  audience, `usersCount`). Stored under these numbers in stats_minute_sessions. */
const SESSION_SETS = [0, 1, 2, 3] as const;
const ANY = 3;

type Quad<T> = [T, T, T, T];
const emptySets = (): Quad<Set<string>> => [new Set(), new Set(), new Set(), new Set()];

/** One (key, minute) of not-yet-written traffic. */
export interface MinuteAgg {
  keyId: number;
  minute: number;
  bytes: [number, number, number];
  /** Distinct sessions per SESSION_SETS entry (ingest), or null for pre-aggregated minutes. */
  sessions: Quad<Set<string>> | null;
  /** Pre-aggregated user counts per SESSION_SETS entry (backfill); written as the minute's counts. */
  users: Quad<number>;
  /** Flushes this key-minute failed in while others were written (isolated, then dropped). */
  failures?: number;
}

/** Writes key-minutes in one transaction (writeBatch; tests pass one that fails for chosen keys). */
export type BatchWriter = (batch: MinuteAgg[]) => Promise<void>;
/** What the aggregator reports when it gives up on a key-minute. */
interface FlushLog {
  error(obj: object, msg: string): void;
}
/** A key-minute whose write fails while the rest of its flush succeeds is tried this many times. */
const MAX_FAILURES = 3;

/** Saturating addition of byte counts: see MINUTE_BYTES_CAP. */
const addBytes = (a: number, b: number) => Math.min(a + b, MINUTE_BYTES_CAP);

const aggKey = (keyId: number, minute: number) => `${keyId}:${minute}`;
/** Session ids are stored hashed and short (ids may be up to 200 characters). */
export const sessionHash = (id: string) => createHash('sha256').update(id).digest('base64url').slice(0, 22);

function chunks<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/** Each id's span (earliest to latest time it appears with), and the ids grouped by identical span:
 *  one ranged statement per group instead of one per id. */
function groupBySpan(pairs: ReadonlyArray<readonly [id: number, time: number]>) {
  const span = new Map<number, { from: number; to: number }>();
  for (const [id, t] of pairs) {
    const s = span.get(id);
    if (!s) span.set(id, { from: t, to: t });
    else {
      s.from = Math.min(s.from, t);
      s.to = Math.max(s.to, t);
    }
  }
  const groups = new Map<string, { ids: number[]; from: number; to: number }>();
  for (const [id, s] of span) {
    const g = groups.get(`${s.from}:${s.to}`) ?? { ids: [], ...s };
    g.ids.push(id);
    groups.set(`${s.from}:${s.to}`, g);
  }
  return [...groups.values()];
}

/** A PostgreSQL advisory lock id: flushes of every node are serialized, so each recount and rollup
 *  statement sees the other nodes' committed minutes. */
const FLUSH_LOCK = 6_060_601;

/**
 * In-memory per-(key, minute) aggregation of ingest reports, flushed into stats_minute (bytes added,
 * distinct users recounted from stats_minute_sessions) and the touched 20-minute and hourly rollups,
 * all in one transaction. A failed write keeps its key-minutes and merges them into the next flush:
 * nothing of a failed transaction was written, so nothing is counted twice. When the database answers
 * but the batch fails, the failing key-minutes are isolated (halves, down to one) so the rest is written;
 * one that keeps failing is logged at error level and dropped, never retried forever (DESIGN §7).
 */
export class StatsAggregator {
  private current = new Map<string, MinuteAgg>();
  /** Key-minutes whose write failed, retried with the next flush. */
  private failed = new Map<string, MinuteAgg>();
  /** Sessions already written per recent (key, minute, series): the live merge counts only new ones. */
  private written = new Map<string, Quad<Set<string>>>();
  private chain: Promise<unknown> = Promise.resolve();
  private readonly write: BatchWriter;

  constructor(
    private readonly db: Db,
    private readonly nowMs: () => number,
    private readonly log: FlushLog,
    write?: BatchWriter,
  ) {
    this.write = write ?? ((batch) => writeBatch(statsDb(db), batch));
  }

  /** Adds one accepted report. */
  add(keyId: number, tsSec: number, sessionId: string, cdn: number, p2p: number, nodr: number): void {
    const minute = tsSec - (tsSec % 60);
    const k = aggKey(keyId, minute);
    let a = this.current.get(k);
    if (!a) {
      a = { keyId, minute, bytes: [0, 0, 0], sessions: emptySets(), users: [0, 0, 0, 0] };
      this.current.set(k, a);
    }
    a.bytes[0] = addBytes(a.bytes[0], cdn);
    a.bytes[1] = addBytes(a.bytes[1], p2p);
    a.bytes[2] = addBytes(a.bytes[2], nodr);
    const s = a.sessions as Quad<Set<string>>;
    if (cdn > 0) s[0].add(sessionId);
    if (p2p > 0) s[1].add(sessionId);
    if (nodr > 0) s[2].add(sessionId);
    if (cdn > 0 || p2p > 0 || nodr > 0) s[ANY].add(sessionId);
  }

  /** Adds a pre-aggregated minute (backfill: sizes, distinct users per series and distinct `viewers`,
   *  the sessions with any bytes, already known). */
  addMinute(
    keyId: number,
    minute: number,
    bytes: [number, number, number],
    users: [number, number, number],
    viewers: number,
  ) {
    const k = aggKey(keyId, minute);
    const a = this.current.get(k);
    const counts: Quad<number> = [users[0], users[1], users[2], viewers];
    if (a) {
      for (const i of IDX) a.bytes[i] = addBytes(a.bytes[i], bytes[i]);
      for (const i of SESSION_SETS) a.users[i] = Math.max(a.users[i], counts[i]);
    } else {
      const capped = bytes.map((b) => Math.min(b, MINUTE_BYTES_CAP)) as [number, number, number];
      this.current.set(k, { keyId, minute, bytes: capped, sessions: null, users: counts });
    }
  }

  get pendingCount(): number {
    return this.current.size + this.failed.size;
  }

  /**
   * Unwritten traffic of the given keys in [fromSec, toSec] per minute, with users counted as the
   * sessions not yet written by this node (the database count plus these is the minute's count).
   */
  unflushed(keyIds: ReadonlySet<number>, fromSec: number, toSec: number) {
    const out = new Map<number, { bytes: [number, number, number]; users: Quad<number> }>();
    const newUsers = new Map<string, Quad<Set<string>>>();
    for (const src of [this.failed, this.current]) {
      for (const a of src.values()) {
        if (!keyIds.has(a.keyId) || a.minute < fromSec || a.minute > toSec) continue;
        let p = out.get(a.minute);
        if (!p) {
          p = { bytes: [0, 0, 0], users: [0, 0, 0, 0] };
          out.set(a.minute, p);
        }
        for (const i of IDX) p.bytes[i] += a.bytes[i];
        if (!a.sessions) {
          for (const i of SESSION_SETS) p.users[i] += a.users[i];
          continue;
        }
        const k = aggKey(a.keyId, a.minute);
        const w = this.written.get(k);
        let n = newUsers.get(k);
        if (!n) {
          n = emptySets();
          newUsers.set(k, n);
        }
        for (const i of SESSION_SETS) {
          for (const s of a.sessions[i]) if (!w?.[i]?.has(s)) n[i].add(s);
        }
      }
    }
    for (const [k, n] of newUsers) {
      const minute = Number(k.slice(k.indexOf(':') + 1));
      const p = out.get(minute);
      if (p) for (const i of SESSION_SETS) p.users[i] += n[i].size;
    }
    return out;
  }

  /** Writes everything aggregated so far. Serialized: concurrent calls wait for each other. */
  flush(): Promise<void> {
    const run = this.chain.then(() => this.flushNow());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async flushNow(): Promise<void> {
    // Merge the new aggregates into the failed batch (or start one): one batch, written once.
    const batch = this.failed;
    for (const [k, a] of this.current) {
      const b = batch.get(k);
      if (!b) {
        batch.set(k, a);
        continue;
      }
      for (const i of IDX) b.bytes[i] = addBytes(b.bytes[i], a.bytes[i]);
      for (const i of SESSION_SETS) b.users[i] = Math.max(b.users[i], a.users[i]);
      if (a.sessions) {
        if (!b.sessions) b.sessions = emptySets();
        for (const i of SESSION_SETS) for (const s of a.sessions[i]) b.sessions[i].add(s);
      }
    }
    this.current = new Map();
    this.failed = batch;
    if (batch.size === 0) return;
    const items = [...batch.values()];
    try {
      await this.write(items.map((a) => this.withoutWrittenSessions(a)));
    } catch (err) {
      // The database itself failing (down, unreachable) is no reason to split the batch: it is kept whole
      // for the next flush. Only a batch the database refuses while it answers is taken apart.
      if (!(await this.databaseAnswers())) throw err;
      this.failed = await this.writeIsolating(items);
      return;
    }
    this.failed = new Map();
    this.remember(items);
  }

  /**
   * A key-minute with only the sessions this node has not written yet: a viewer reports every 10 s,
   * so most of a minute's sessions were stored by an earlier flush and would only be inserted again
   * (and recounted) for nothing. Retries after a refused write send everything again, which is harmless.
   */
  private withoutWrittenSessions(a: MinuteAgg): MinuteAgg {
    const w = a.sessions && this.written.get(aggKey(a.keyId, a.minute));
    if (!a.sessions || !w) return a;
    const fresh = emptySets();
    for (const i of SESSION_SETS) for (const s of a.sessions[i]) if (!w[i].has(s)) fresh[i].add(s);
    return { ...a, sessions: fresh };
  }

  private async databaseAnswers(): Promise<boolean> {
    try {
      await sql`select 1`.execute(this.db);
      return true;
    } catch {
      return false;
    }
  }

  /** Writes what it can in halves down to single key-minutes; answers the ones still to retry. */
  private async writeIsolating(items: MinuteAgg[]): Promise<Map<string, MinuteAgg>> {
    const retry = new Map<string, MinuteAgg>();
    const attempt = async (part: MinuteAgg[]): Promise<void> => {
      try {
        await this.write(part);
        this.remember(part);
        return;
      } catch (err) {
        if (part.length > 1) {
          const mid = part.length >> 1;
          await attempt(part.slice(0, mid));
          await attempt(part.slice(mid));
          return;
        }
        const [a] = part as [MinuteAgg];
        a.failures = (a.failures ?? 0) + 1;
        if (a.failures < MAX_FAILURES) {
          retry.set(aggKey(a.keyId, a.minute), a);
          return;
        }
        this.log.error(
          { err, keyId: a.keyId, minute: a.minute, bytes: a.bytes },
          'statistics of one key-minute dropped: its write kept failing while the others were written',
        );
      }
    };
    await attempt(items);
    return retry;
  }

  private remember(batch: Iterable<MinuteAgg>): void {
    for (const a of batch) {
      if (!a.sessions) continue;
      const k = aggKey(a.keyId, a.minute);
      let w = this.written.get(k);
      if (!w) {
        w = emptySets();
        this.written.set(k, w);
      }
      for (const i of SESSION_SETS) for (const s of a.sessions[i]) w[i].add(s);
    }
    // Reports are accepted up to 10 minutes late: older written sets are no longer needed.
    const oldest = Math.floor(this.nowMs() / 1000) - 15 * 60;
    for (const [k, _] of this.written) {
      if (Number(k.slice(k.indexOf(':') + 1)) < oldest) this.written.delete(k);
    }
  }
}

const ROLLUPS = [
  { table: 'stats_20m', size: 1200 },
  { table: 'stats_hour', size: 3600 },
] as const;

/** One transaction: minute bytes added, session ids stored, users recounted, rollups and team totals
 *  recomputed. */
export async function writeBatch(db: StatsDb, batch: MinuteAgg[]): Promise<void> {
  // A fixed order of row locks: concurrent nodes never deadlock on each other's rows.
  batch.sort((a, b) => a.keyId - b.keyId || a.minute - b.minute);
  const isPg = isPostgres(db);
  await db.transaction().execute(async (trx) => {
    if (isPg) await sql`select pg_advisory_xact_lock(${FLUSH_LOCK})`.execute(trx);
    for (const part of chunks(batch, 1000)) {
      await trx
        .insertInto('stats_minute')
        .values(
          part.map((a) => ({
            key_id: a.keyId,
            minute: a.minute,
            cdn_bytes: a.bytes[0],
            p2p_bytes: a.bytes[1],
            nodr_bytes: a.bytes[2],
            cdn_users: a.sessions ? 0 : a.users[0],
            p2p_users: a.sessions ? 0 : a.users[1],
            nodr_users: a.sessions ? 0 : a.users[2],
            users: a.sessions ? 0 : a.users[ANY],
          })),
        )
        .onConflict((oc) =>
          oc.columns(['key_id', 'minute']).doUpdateSet({
            cdn_bytes: cappedAdd(isPg, sql`stats_minute.cdn_bytes`, sql`excluded.cdn_bytes`),
            p2p_bytes: cappedAdd(isPg, sql`stats_minute.p2p_bytes`, sql`excluded.p2p_bytes`),
            nodr_bytes: cappedAdd(isPg, sql`stats_minute.nodr_bytes`, sql`excluded.nodr_bytes`),
            cdn_users: sql`case when stats_minute.cdn_users > excluded.cdn_users then stats_minute.cdn_users else excluded.cdn_users end`,
            p2p_users: sql`case when stats_minute.p2p_users > excluded.p2p_users then stats_minute.p2p_users else excluded.p2p_users end`,
            nodr_users: sql`case when stats_minute.nodr_users > excluded.nodr_users then stats_minute.nodr_users else excluded.nodr_users end`,
            users: sql`case when stats_minute.users > excluded.users then stats_minute.users else excluded.users end`,
          }),
        )
        .execute();
    }
    const sessionRows: Array<{ key_id: number; minute: number; series: number; session_hash: string }> = [];
    const recount = new Map<number, number[]>();
    for (const a of batch) {
      if (!a.sessions) continue;
      const before = sessionRows.length;
      for (const i of SESSION_SETS) {
        for (const s of a.sessions[i]) {
          sessionRows.push({ key_id: a.keyId, minute: a.minute, series: i, session_hash: sessionHash(s) });
        }
      }
      // No session new to this minute: its counts stand as stored (a new row of no session counts 0).
      if (sessionRows.length === before) continue;
      const ks = recount.get(a.minute) ?? [];
      ks.push(a.keyId);
      recount.set(a.minute, ks);
    }
    for (const part of chunks(sessionRows, 2000)) {
      await trx
        .insertInto('stats_minute_sessions')
        .values(part)
        .onConflict((oc) => oc.columns(['key_id', 'minute', 'series', 'session_hash']).doNothing())
        .execute();
    }
    const count = (series: number) =>
      sql<number>`(select count(*) from stats_minute_sessions s where s.key_id = stats_minute.key_id and s.minute = stats_minute.minute and s.series = ${series})`;
    for (const [minute, keyIds] of recount) {
      for (const ids of chunks(keyIds, 1000)) {
        await trx
          .updateTable('stats_minute')
          .set({ cdn_users: count(0), p2p_users: count(1), nodr_users: count(2), users: count(ANY) })
          .where('minute', '=', minute)
          .where('key_id', 'in', ids)
          .execute();
      }
    }
    // Rollups of the touched buckets, recomputed from the minutes (sizes summed, users the peak).
    for (const { table, size } of ROLLUPS) {
      // One ranged statement per group of keys with the same touched span of buckets.
      for (const g of groupBySpan(batch.map((a) => [a.keyId, a.minute - (a.minute % size)]))) {
        for (const ids of chunks(g.ids, 1000)) {
          await sql`
            insert into ${sql.table(table)} (key_id, bucket, cdn_bytes, p2p_bytes, nodr_bytes, cdn_users, p2p_users, nodr_users, users)
            select key_id, (minute / ${sql.lit(size)}) * ${sql.lit(size)} as b, sum(cdn_bytes), sum(p2p_bytes), sum(nodr_bytes),
                   max(cdn_users), max(p2p_users), max(nodr_users), max(users)
            from stats_minute
            where key_id in (${sql.join(ids)}) and minute >= ${g.from} and minute < ${g.to + size}
            group by key_id, (minute / ${sql.lit(size)}) * ${sql.lit(size)}
            on conflict (key_id, bucket) do update set
              cdn_bytes = excluded.cdn_bytes, p2p_bytes = excluded.p2p_bytes, nodr_bytes = excluded.nodr_bytes,
              cdn_users = excluded.cdn_users, p2p_users = excluded.p2p_users, nodr_users = excluded.nodr_users,
              users = excluded.users`.execute(trx);
        }
      }
    }
    await refreshTouchedTeams(trx, batch);
  });
}

/**
 * Recomputes the team totals (migration 0006) of `teamIds` from their per-key rows, for every point
 * between two minutes. Each total is the plain sum of the team's per-key rows, users included: the
 * same numbers a query summing those keys gets, so a query may subtract keys from a total.
 */
export async function refreshTeamTotals(
  db: StatsDb,
  teamIds: readonly number[],
  fromMinute: number,
  toMinute: number,
): Promise<void> {
  if (teamIds.length === 0) return;
  const pg = isPostgres(db);
  for (const { team: table, key: of, time, size } of STATS_LEVELS) {
    await sql`
      insert into ${sql.table(table)} (team_id, ${sql.ref(time)}, cdn_bytes, p2p_bytes, nodr_bytes, cdn_users, p2p_users, nodr_users, users)
      select k.team_id, s.${sql.ref(time)}, ${cappedSum(pg, sql`s.cdn_bytes`)}, ${cappedSum(pg, sql`s.p2p_bytes`)}, ${cappedSum(pg, sql`s.nodr_bytes`)},
             sum(s.cdn_users), sum(s.p2p_users), sum(s.nodr_users), sum(s.users)
      from ${sql.table(of)} s join keys k on k.id = s.key_id
      where k.team_id in (${sql.join(teamIds)})
        and s.${sql.ref(time)} >= ${fromMinute - (fromMinute % size)} and s.${sql.ref(time)} <= ${toMinute}
      group by k.team_id, s.${sql.ref(time)}
      on conflict (team_id, ${sql.ref(time)}) do update set
        cdn_bytes = excluded.cdn_bytes, p2p_bytes = excluded.p2p_bytes, nodr_bytes = excluded.nodr_bytes,
        cdn_users = excluded.cdn_users, p2p_users = excluded.p2p_users, nodr_users = excluded.nodr_users,
        users = excluded.users`.execute(db);
  }
}

/** The team totals of the minutes a batch touched, one statement per group of teams with one span. */
async function refreshTouchedTeams(db: StatsDb, batch: MinuteAgg[]): Promise<void> {
  const keyIds = [...new Set(batch.map((a) => a.keyId))];
  const teamOf = new Map<number, number>();
  for (const ids of chunks(keyIds, 1000)) {
    for (const k of await db.selectFrom('keys').select(['id', 'team_id']).where('id', 'in', ids).execute()) {
      teamOf.set(k.id, k.team_id);
    }
  }
  const touched: Array<[number, number]> = [];
  for (const a of batch) {
    const teamId = teamOf.get(a.keyId);
    // A key missing here went with its team since the report came in.
    if (teamId !== undefined) touched.push([teamId, a.minute]);
  }
  for (const g of groupBySpan(touched)) {
    for (const teams of chunks(g.ids, 500)) await refreshTeamTotals(db, teams, g.from, g.to);
  }
}
