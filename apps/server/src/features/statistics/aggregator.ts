import { hash } from 'node:crypto';
import {
  addReportValues,
  POINT_VALUES,
  reportSessionBits,
  STORED_COLUMNS,
  type TReportValues,
} from '@tlprt/contract';
import { refreshBlocks } from './block-queries.js';
import { storeJournalMark } from './journal-queries.js';
import { POINT_SIZES, ROLLUP_SIZES } from './levels.js';
import {
  insertSessions,
  lockFlushes,
  type MinuteRow,
  recountViewers,
  refreshRollups,
  refreshTeamTotals,
  type SessionRow,
  teamsOfKeys,
  upsertMinutes,
} from './queries.js';
import type { StatsStore } from './store.js';
import { PEAK_COLUMNS, type StatsDb } from './tables.js';

/** One (key, minute) of not-yet-written traffic. */
export interface MinuteAgg {
  keyId: number;
  minute: number;
  /** POINT_VALUES values (STORED_COLUMNS): the sums of the reports; the peak series' counts only for
   *  pre-aggregated minutes (backfill), otherwise counted from `sessions`. */
  values: Float64Array;
  /** Each session that made a viewer → its peak series as bits (PEAK_COLUMNS), or null for
   *  pre-aggregated minutes. One map instead of a set per series: a report costs one look-up, and the
   *  flush one row a session. */
  sessions: Map<string, number> | null;
  /** Flushes this key-minute failed in while others were written (isolated, then dropped). */
  failures?: number;
}

const SUM_INDEXES = STORED_COLUMNS.flatMap((c, i) => (c.merge === 'sum' ? [i] : []));
const PEAK_INDEXES = PEAK_COLUMNS.map((p) => p.index);

/** Adds `from`'s sums to `into`'s; peak counts keep the larger. */
function mergeValues(into: Float64Array, from: ArrayLike<number>): void {
  for (const i of SUM_INDEXES) into[i] = (into[i] ?? 0) + (from[i] ?? 0);
  for (const i of PEAK_INDEXES) into[i] = Math.max(into[i] ?? 0, from[i] ?? 0);
}

/** A node's journal (journal.ts) stored up to `segment`: written in the statistics' own transaction. */
export interface JournalMark {
  journal: string;
  segment: number;
}
/** Writes key-minutes in one transaction (writeBatch; tests pass one that fails for chosen keys), with
 *  the journal's mark when given. */
export type BatchWriter = (batch: MinuteAgg[], mark?: JournalMark) => Promise<void>;

/**
 * A flush that could not write because the storage itself fails (down, unreachable, full, read-only,
 * locked, I/O): everything is kept for the next attempt, nothing dropped.
 */
export class StatsOutage extends Error {
  constructor(readonly reason: unknown) {
    super(`statistics cannot be written: ${reason instanceof Error ? reason.message : String(reason)}`);
  }
}

/** Whether a failed write is the storage failing (everything kept whole, retried) rather than the data
 *  it was given (split, and what keeps failing dropped): an outage, or a store that no longer answers. */
export async function storageFailing(store: StatsStore, err: unknown): Promise<boolean> {
  return err instanceof StatsOutage || store.isUnavailable(err) || !(await store.answers());
}

/** What one flush did: whether nothing is left to write, and the journal mark it stored (if any). */
export interface FlushResult {
  complete: boolean;
  mark?: JournalMark;
}
/** What the aggregator reports when it gives up on a key-minute. */
interface FlushLog {
  error(obj: object, msg: string): void;
}
/** A key-minute whose write fails while the rest of its flush succeeds is tried this many times. */
const MAX_FAILURES = 3;

const aggKey = (keyId: number, minute: number) => `${keyId}:${minute}`;
/** Estimated memory of a key-minute and of one session in it (Map entry, string, Float64Array). */
const MINUTE_COST = POINT_VALUES * 8 + 200;
const sessionCost = (id: string) => 100 + 2 * id.length;
/** Session ids are stored hashed and short (ids may be up to 200 characters). */
export const sessionHash = (id: string) => hash('sha256', id, 'base64url').slice(0, 22);

/** Adds a session (a viewer) with `bits` to its series; true when the session is new to the map. */
function mark(sessions: Map<string, number>, id: string, bits: number): boolean {
  const was = sessions.get(id);
  if (was === undefined || (was | bits) !== was) sessions.set(id, (was ?? 0) | bits);
  return was === undefined;
}

/** The estimated memory of key-minutes. */
function costOf(items: Iterable<MinuteAgg>): number {
  let bytes = 0;
  for (const a of items) {
    bytes += MINUTE_COST;
    if (a.sessions) for (const id of a.sessions.keys()) bytes += sessionCost(id);
  }
  return bytes;
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

/**
 * In-memory per-(key, minute) aggregation of ingest reports, flushed into stats_minute (bytes added,
 * distinct users recounted from stats_minute_sessions), the touched 20-minute and hourly rollups, team
 * totals and blocks, all in one transaction. A failed write keeps its key-minutes and merges them
 * into the next flush: nothing of a failed transaction was written, so nothing is counted twice. A
 * write that fails because the storage does (down, full, read-only, locked, I/O: isStorageUnavailable,
 * or a database that no longer answers) is an outage: everything is kept, whole, and the flush throws
 * StatsOutage (the service retries with backoff and bounds the memory held). When the database answers
 * but refuses the batch for its data, the failing key-minutes are isolated (halves, down to one) so the
 * rest is written; one that keeps failing is logged at error level and dropped, never retried forever
 * (docs/DESIGN.md §7).
 */
export class StatsAggregator {
  private current = new Map<string, MinuteAgg>();
  /** Key-minutes whose write failed, retried with the next flush. */
  private failed = new Map<string, MinuteAgg>();
  /** The series already written per session of recent key-minutes: the live merge and the next
   *  flush count and send only what is new. */
  private written = new Map<string, Map<string, number>>();
  private chain: Promise<unknown> = Promise.resolve();
  private readonly write: BatchWriter;
  /** Estimated memory of `current` (counted as reports arrive) and of `failed` (counted per flush). */
  private currentBytes = 0;
  private failedBytes = 0;
  /** Called when a flush takes the aggregates: the journal closes its segment and answers its mark, and
   *  when what it holds is on disk (written before the mark, so a stored mark never covers lines a
   *  crash could still lose). */
  onTake: (() => { mark: JournalMark; durable: Promise<void> }) | undefined;

  constructor(
    private readonly store: StatsStore,
    private readonly nowMs: () => number,
    private readonly log: FlushLog,
    write?: BatchWriter,
  ) {
    this.write = write ?? ((batch, mark) => store.writeBatch(batch, mark));
  }

  /** The key-minute of `tsSec` being gathered, made when first needed. */
  private minuteOf(keyId: number, tsSec: number): MinuteAgg {
    const minute = tsSec - (tsSec % 60);
    const k = aggKey(keyId, minute);
    let a = this.current.get(k);
    if (!a) {
      a = { keyId, minute, values: new Float64Array(POINT_VALUES), sessions: new Map() };
      this.current.set(k, a);
      this.currentBytes += MINUTE_COST;
    }
    return a;
  }

  /** Adds one accepted report. A report that makes no viewer (refused bytes alone) marks no session. */
  add(keyId: number, tsSec: number, sessionId: string, report: TReportValues): void {
    const a = this.minuteOf(keyId, tsSec);
    addReportValues(a.values, report);
    const bits = reportSessionBits(report);
    if (bits >= 0 && a.sessions && mark(a.sessions, sessionId, bits))
      this.currentBytes += sessionCost(sessionId);
  }

  /** Adds `amount` to the sum at `index` (a series the server counts itself: no report adds to it) of
   *  a key's minute. It marks no session: what the server counts makes no viewer. */
  addCount(keyId: number, tsSec: number, index: number, amount: number): void {
    const values = this.minuteOf(keyId, tsSec).values;
    values[index] = (values[index] ?? 0) + amount;
  }

  /** Adds a pre-aggregated minute (backfill: POINT_VALUES values, the peak series' counts included). */
  addMinute(keyId: number, minute: number, values: ArrayLike<number>) {
    const k = aggKey(keyId, minute);
    const a = this.current.get(k);
    if (a) mergeValues(a.values, values);
    else {
      this.current.set(k, { keyId, minute, values: Float64Array.from(values), sessions: null });
      this.currentBytes += MINUTE_COST;
    }
  }

  /** Adds a key-minute kept by an earlier run (the journal's replay of what an outage held). */
  addHeld(a: MinuteAgg): void {
    const k = aggKey(a.keyId, a.minute);
    const b = this.current.get(k);
    if (!b) {
      this.current.set(k, { keyId: a.keyId, minute: a.minute, values: a.values, sessions: a.sessions });
      this.currentBytes += costOf([a]);
      return;
    }
    mergeValues(b.values, a.values);
    if (a.sessions) {
      if (!b.sessions) b.sessions = new Map();
      for (const [id, bits] of a.sessions) mark(b.sessions, id, bits);
    }
    this.currentBytes += costOf([a]);
  }

  get pendingCount(): number {
    return this.current.size + this.failed.size;
  }

  /** Estimated memory of what is not written yet (what an outage holds, and what arrived since). */
  get heldBytes(): number {
    return this.currentBytes + this.failedBytes;
  }

  /** The key-minutes not written yet (the journal keeps a copy of what an outage held). */
  held(): MinuteAgg[] {
    return [...this.failed.values(), ...this.current.values()];
  }

  /**
   * Unwritten traffic of the given keys in [fromSec, toSec] per minute (POINT_VALUES each), with the
   * peak series counted as the sessions (and series) not yet written by this node (the database count
   * plus these is the minute's).
   */
  unflushed(keyIds: ReadonlySet<number>, fromSec: number, toSec: number): Map<number, Float64Array> {
    const out = new Map<number, Float64Array>();
    /** Per key-minute, its session maps in the failed and the current batch. */
    const sessions = new Map<string, { minute: number; maps: Array<Map<string, number>> }>();
    for (const src of [this.failed, this.current]) {
      for (const [k, a] of src) {
        if (!keyIds.has(a.keyId) || a.minute < fromSec || a.minute > toSec) continue;
        let p = out.get(a.minute);
        if (!p) {
          p = new Float64Array(POINT_VALUES);
          out.set(a.minute, p);
        }
        for (const i of SUM_INDEXES) p[i] = (p[i] ?? 0) + (a.values[i] ?? 0);
        if (!a.sessions) {
          for (const i of PEAK_INDEXES) p[i] = (p[i] ?? 0) + (a.values[i] ?? 0);
          continue;
        }
        const s = sessions.get(k);
        if (s) s.maps.push(a.sessions);
        else sessions.set(k, { minute: a.minute, maps: [a.sessions] });
      }
    }
    for (const [k, { minute, maps }] of sessions) {
      const p = out.get(minute);
      if (!p) continue;
      const w = this.written.get(k);
      let all = maps[0] as Map<string, number>;
      if (maps.length > 1) {
        all = new Map(all);
        for (const m of maps.slice(1)) for (const [id, bits] of m) mark(all, id, bits);
      }
      for (const [id, bits] of all) {
        const had = w?.get(id);
        const fresh = bits & ~(had ?? 0);
        for (const peak of PEAK_COLUMNS) {
          if (peak.bit === 0 ? had === undefined : fresh & peak.bit) p[peak.index] = (p[peak.index] ?? 0) + 1;
        }
      }
    }
    return out;
  }

  /** Writes everything aggregated so far. Serialized: concurrent calls wait for each other. Throws
   *  StatsOutage when the storage fails (everything kept). */
  flush(): Promise<FlushResult> {
    const run = this.chain.then(() => this.flushNow());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async flushNow(): Promise<FlushResult> {
    // Everything journaled so far is in `current` or `failed` now: the journal's segments up to this
    // mark are stored once this batch is.
    const taken = this.onTake?.();
    const journalMark = taken?.mark;
    // Merge the new aggregates into the failed batch (or start one): one batch, written once.
    const batch = this.failed;
    for (const [k, a] of this.current) {
      const b = batch.get(k);
      if (!b) {
        batch.set(k, a);
        continue;
      }
      mergeValues(b.values, a.values);
      if (a.sessions) {
        if (!b.sessions) b.sessions = new Map();
        for (const [id, bits] of a.sessions) mark(b.sessions, id, bits);
      }
    }
    this.current = new Map();
    this.failed = batch;
    this.failedBytes += this.currentBytes;
    this.currentBytes = 0;
    if (batch.size === 0) {
      this.failedBytes = 0;
      return { complete: true };
    }
    const items = [...batch.values()];
    // Lines the journal failed to write were answered 503: they are written here all the same.
    await taken?.durable.catch(() => undefined);
    try {
      await this.write(
        items.map((a) => this.withoutWrittenSessions(a)),
        journalMark,
      );
    } catch (err) {
      // The storage failing (down, unreachable, full, read-only, locked) is no reason to split the batch:
      // it is kept whole for the next flush. Only a batch the database refuses while it answers is taken
      // apart.
      if (await storageFailing(this.store, err)) {
        this.failedBytes = costOf(items);
        throw new StatsOutage(err);
      }
      const { retry, outage } = await this.writeIsolating(items);
      this.failed = retry;
      this.failedBytes = costOf(retry.values());
      if (outage !== undefined) throw new StatsOutage(outage);
      if (retry.size > 0 || !journalMark) return { complete: false };
      // Everything was written or dropped, in parts without the mark: store it on its own.
      await this.write([], journalMark).catch(() => undefined);
      return { complete: true, mark: journalMark };
    }
    this.failed = new Map();
    this.failedBytes = 0;
    this.remember(items);
    return { complete: true, ...(journalMark ? { mark: journalMark } : {}) };
  }

  /**
   * A key-minute with only the sessions and series this node has not written yet: a viewer reports
   * every 10 s, so most of a minute's sessions were stored by an earlier flush and would only be written
   * again (and recounted) for nothing. Retries after a refused write send everything again, which is
   * harmless.
   */
  private withoutWrittenSessions(a: MinuteAgg): MinuteAgg {
    const w = a.sessions && this.written.get(aggKey(a.keyId, a.minute));
    if (!a.sessions || !w) return a;
    const fresh = new Map<string, number>();
    for (const [id, bits] of a.sessions) {
      const had = w.get(id);
      const news = bits & ~(had ?? 0);
      if (had === undefined || news !== 0) fresh.set(id, news);
    }
    return { ...a, sessions: fresh };
  }

  /** Writes what it can in halves down to single key-minutes; answers the ones still to retry, and the
   *  storage's failure if it started failing meanwhile (then nothing not yet written is dropped). */
  private async writeIsolating(
    items: MinuteAgg[],
  ): Promise<{ retry: Map<string, MinuteAgg>; outage?: unknown }> {
    const retry = new Map<string, MinuteAgg>();
    let outage: unknown;
    const keep = (part: MinuteAgg[]) => {
      for (const a of part) retry.set(aggKey(a.keyId, a.minute), a);
    };
    const attempt = async (part: MinuteAgg[]): Promise<void> => {
      if (outage !== undefined) return keep(part);
      try {
        await this.write(part);
        this.remember(part);
        return;
      } catch (err) {
        if (err instanceof StatsOutage || this.store.isUnavailable(err)) {
          outage = err;
          return keep(part);
        }
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
          { err, keyId: a.keyId, minute: a.minute, values: [...a.values] },
          'statistics of one key-minute dropped: its write kept failing while the others were written',
        );
      }
    };
    await attempt(items);
    return outage === undefined ? { retry } : { retry, outage };
  }

  private remember(batch: Iterable<MinuteAgg>): void {
    for (const a of batch) {
      if (!a.sessions) continue;
      const k = aggKey(a.keyId, a.minute);
      let w = this.written.get(k);
      if (!w) {
        w = new Map();
        this.written.set(k, w);
      }
      for (const [id, bits] of a.sessions) mark(w, id, bits);
    }
    // Reports are accepted up to 10 minutes late: older written sessions are no longer needed.
    const oldest = Math.floor(this.nowMs() / 1000) - 15 * 60;
    for (const k of this.written.keys()) {
      if (Number(k.slice(k.indexOf(':') + 1)) < oldest) this.written.delete(k);
    }
  }
}

/**
 * One transaction: minute bytes added, new sessions stored, users recounted, then what is derived from
 * the minutes recomputed for the times touched: rollups, team totals and the blocks of every level.
 */
export async function writeBatch(db: StatsDb, batch: MinuteAgg[], mark?: JournalMark): Promise<void> {
  // A fixed order of row locks: concurrent nodes never deadlock on each other's rows.
  batch.sort((a, b) => a.keyId - b.keyId || a.minute - b.minute);
  await db.transaction().execute(async (trx) => {
    await lockFlushes(trx);
    // With the statistics or not at all: a replay after a crash starts exactly past what is stored.
    if (mark) await storeJournalMark(trx, mark);
    if (batch.length === 0) return;
    await upsertMinutes(
      trx,
      batch.map((a): MinuteRow => {
        if (!a.sessions) return { keyId: a.keyId, minute: a.minute, values: a.values };
        // Peak counts come from the stored sessions below.
        const values = Float64Array.from(a.values);
        for (const i of PEAK_INDEXES) values[i] = 0;
        return { keyId: a.keyId, minute: a.minute, values };
      }),
    );
    const sessions: SessionRow[] = [];
    const recount = new Map<number, number[]>();
    for (const a of batch) {
      // No session new to this minute: its counts stand as stored (a new row of no session counts 0).
      if (!a.sessions || a.sessions.size === 0) continue;
      for (const [id, bits] of a.sessions) sessions.push([a.minute, a.keyId, sessionHash(id), bits]);
      const ks = recount.get(a.minute) ?? [];
      ks.push(a.keyId);
      recount.set(a.minute, ks);
    }
    await insertSessions(trx, sessions);
    for (const [minute, keyIds] of recount) await recountViewers(trx, minute, keyIds);
    // One ranged statement per group of keys with the same touched span.
    for (const size of ROLLUP_SIZES) {
      for (const g of groupBySpan(batch.map((a) => [a.keyId, a.minute - (a.minute % size)]))) {
        await refreshRollups(trx, size, g.ids, g.from, g.to);
      }
    }
    const teamOf = await teamsOfKeys(trx, [...new Set(batch.map((a) => a.keyId))]);
    const touched: Array<[number, number]> = [];
    for (const a of batch) {
      const teamId = teamOf.get(a.keyId);
      if (teamId !== undefined) touched.push([teamId, a.minute]);
    }
    for (const g of groupBySpan(touched)) await refreshTeamTotals(trx, g.ids, g.from, g.to);
    for (const g of groupBySpan(batch.map((a) => [a.keyId, a.minute]))) {
      for (const size of POINT_SIZES) await refreshBlocks(trx, size, g.ids, g.from, g.to);
    }
  });
}
