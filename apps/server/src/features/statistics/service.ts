import {
  columnIndex,
  INGEST_MAX_SKEW_S,
  MSG_INGEST,
  STATS_EXPORTS_PER_MINUTE,
  type TIngestReport,
  type TReportValues,
} from '@tlprt/contract';
import type { UsableKey } from '../../access/usable-keys.js';
import type { AppContext } from '../../context.js';
import { isStorageUnavailable } from '../../db/writable.js';
import { HttpError } from '../../http/errors.js';
import { SlidingWindowCounter } from '../../lib/sliding-window.js';
import { type BatchWriter, StatsAggregator, StatsOutage, storageFailing } from './aggregator.js';
import { BlockCache } from './block-cache.js';
import { BreakdownAggregator } from './breakdowns.js';
import { ingestReports } from './ingest.js';
import { type Segment, StatsJournal } from './journal.js';
import { type CountRecord, type ReportRecord, reportOf, reportRecord } from './journal-records.js';
import { databaseAnswers } from './queries.js';
import { SeenReports } from './seen-reports.js';
import { BLOCK_CACHE_BYTES } from './tables.js';
import { type ViewerFacts, ViewerFactsResolver } from './viewer-facts.js';

/** Who sent a batch: a browser's Origin, the team of an API token, and whether it came without
 *  one over HTTP (anonymous: the per-key budget applies). This node's own demo traffic is none of these. */
export interface IngestFrom {
  origin?: string;
  teamId?: number;
  anonymous?: boolean;
  /** The sender's address and user agent: a browser's are its viewer's (the breakdowns). */
  address?: string;
  userAgent?: string;
  /** This node's own simulated viewers (the demo): what the breakdowns tell of each. */
  simulated?: (sessionId: string) => ViewerFacts | undefined;
}

/** Where the verification bytes are among a point's values. */
const VERIFY_INDEX = columnIndex('verifyBytes');
/** Journaled reports are kept while a retry of them could still come (seen-reports.ts's window). */
const JOURNAL_KEEP_MS = (INGEST_MAX_SKEW_S + 180) * 1000;
/** The longest pause between two attempts to write during an outage. */
const MAX_RETRY_MS = 30_000;

/** The breakdowns, also telling the journal of each report the ingest counted (ingest.ts adds every
 *  counted report to the aggregator and then here, with its viewer's facts). */
class JournaledBreakdowns extends BreakdownAggregator {
  onAdd: ((keyId: number, report: TReportValues, facts: ViewerFacts | null) => void) | undefined;

  override add(
    keyId: number,
    tsSec: number,
    sessionId: string,
    report: TReportValues,
    facts: ViewerFacts | null,
  ): void {
    super.add(keyId, tsSec, sessionId, report, facts);
    this.onAdd?.(keyId, report, facts);
  }
}

const describe = (err: unknown): string =>
  err instanceof StatsOutage ? describe(err.reason) : err instanceof Error ? err.message : String(err);

/** The statistics feature's state of one server node: aggregator, flush and retention timers. */
export class StatsService {
  readonly aggregator: StatsAggregator;
  readonly seen: SeenReports;
  readonly breakdowns = new JournaledBreakdowns();
  /** What the ingest accepted, on disk before its 202 (null: no journal configured). */
  readonly journal: StatsJournal | null;
  /** The charts' decoded blocks (queries.ts readPoints). */
  readonly blockCache = new BlockCache(BLOCK_CACHE_BYTES);
  readonly viewerFacts: ViewerFactsResolver;
  /** Reports without an API token, per client address group and per key (config.ingest). */
  readonly perAddress: SlidingWindowCounter;
  readonly perKey: SlidingWindowCounter;
  /** Exports per API token (STATS_EXPORTS_PER_MINUTE). */
  readonly perToken: SlidingWindowCounter;
  /** Reports received by this node since start (counted, not logged one by one). */
  reportsReceived = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private retentionTimer: NodeJS.Timeout | undefined;
  private stoppers: Array<() => void> = [];
  /** The storage outage going on (writes failing): since when, why, and the most it held. */
  private outage: { since: number; reason: string; heldBytes: number; keyMinutes: number } | undefined;
  private retryDelayMs = 0;
  private nextAttemptAt = 0;
  /** Since when the journal's writes fail (the ingest answers 503 meanwhile). */
  private journalFailingSince: number | undefined;

  constructor(
    readonly ctx: AppContext,
    writer?: BatchWriter,
  ) {
    this.aggregator = new StatsAggregator(ctx.statsStore, ctx.now, ctx.log, writer);
    this.viewerFacts = new ViewerFactsResolver(ctx.log, ctx.config.networks);
    const { perAddressPerMinute, perKeyPerMinute, replayMemoryBytes } = ctx.config.ingest;
    this.seen = new SeenReports(replayMemoryBytes, ctx.now());
    this.perAddress = new SlidingWindowCounter(perAddressPerMinute, 60_000, ctx.now, 200_000);
    this.perKey = new SlidingWindowCounter(perKeyPerMinute, 60_000, ctx.now);
    this.perToken = new SlidingWindowCounter(STATS_EXPORTS_PER_MINUTE, 60_000, ctx.now);
    const { dir, commitMs } = ctx.config.statsJournal;
    this.journal = dir === null ? null : StatsJournal.open(dir, { commitMs, keepMs: JOURNAL_KEEP_MS });
    const journal = this.journal;
    if (journal) {
      this.breakdowns.onAdd = (keyId, r, facts) =>
        journal.append(reportRecord(keyId, r as TIngestReport, facts));
      this.aggregator.onTake = () => ({
        mark: { journal: journal.id, segment: journal.rotate() },
        durable: journal.sync(),
      });
    }
  }

  /**
   * Counts a batch of reports (ingest.ts) and answers once what it counted is in the journal: a 202 is
   * for what survives a crash. Refused with 503 (Retry-After) while the statistics cannot be stored:
   * the memory an outage may hold is full, the journal cannot be written, or the database cannot even
   * be read (the key look-ups).
   */
  async ingest(reports: unknown[], from: IngestFrom = {}) {
    this.reportsReceived += reports.length;
    // The journal's lines waiting for its disk (full) are held memory too.
    const held = this.aggregator.heldBytes + (this.journal?.backlogBytes ?? 0);
    if (held > this.ctx.config.statsHeldMemoryBytes) throw this.unavailable();
    let answer: Awaited<ReturnType<typeof ingestReports>>;
    try {
      // Built without spreads: this runs for every report a browser sends.
      answer = await ingestReports(reports, this.ctx.keys, this.aggregator, this.ctx.now(), {
        origin: from.origin,
        gate: this.ctx.origins,
        seen: this.seen,
        teamId: from.teamId,
        perKey: from.anonymous ? this.perKey : undefined,
        breakdowns: this.breakdowns,
        viewerOf: this.viewerOf(from),
        metrics: this.ctx.metrics,
      });
    } catch (err) {
      throw this.unavailableFor(err);
    }
    // Even a batch that counted nothing new (a retry) waits: what it repeats may still be on its way.
    if (this.journal) {
      try {
        await this.journal.sync();
      } catch (err) {
        this.journalFailed(err);
        throw this.unavailable();
      }
      if (this.journalFailingSince !== undefined) this.journalBack();
    }
    return answer;
  }

  /** The 503 of a storage failure met on the ingest's path (`err` itself when it is something else). */
  unavailableFor(err: unknown): unknown {
    if (!isStorageUnavailable(err)) return err;
    this.outageStarted(err);
    return this.unavailable();
  }

  private unavailable(): HttpError {
    const wait = Math.max(1000, Math.min(60_000, this.nextAttemptAt - Date.now()));
    return new HttpError(503, MSG_INGEST.unavailable, undefined, {
      'Retry-After': String(Math.ceil(wait / 1000)),
    });
  }

  private journalFailed(err: unknown): void {
    if (this.journalFailingSince !== undefined) return;
    this.journalFailingSince = Date.now();
    this.ctx.log.error(
      { err: describe(err), dir: this.journal?.dir },
      'statistics journal cannot be written: the ingest answers 503 until it can',
    );
  }

  private journalBack(): void {
    const seconds = Math.round((Date.now() - (this.journalFailingSince ?? Date.now())) / 1000);
    this.journalFailingSince = undefined;
    this.ctx.log.warn({ seconds, dir: this.journal?.dir }, 'statistics journal written again');
  }

  /** One line when the storage starts failing, never one per request or per attempt. */
  private outageStarted(reason: unknown): void {
    const heldBytes = this.aggregator.heldBytes;
    const keyMinutes = this.aggregator.pendingCount;
    if (this.outage) {
      this.outage.heldBytes = Math.max(this.outage.heldBytes, heldBytes);
      this.outage.keyMinutes = Math.max(this.outage.keyMinutes, keyMinutes);
      return;
    }
    this.outage = { since: Date.now(), reason: describe(reason), heldBytes, keyMinutes };
    this.ctx.log.error(
      {
        reason: this.outage.reason,
        heldKeyMinutes: keyMinutes,
        heldBytes,
        journal: this.journal?.dir ?? null,
      },
      'statistics cannot be stored: holding what is accepted (memory and journal) and retrying; past ' +
        `${Math.round(this.ctx.config.statsHeldMemoryBytes / 1048576)} MB held the ingest answers 503`,
    );
  }

  private outageEnded(): void {
    const o = this.outage;
    this.retryDelayMs = 0;
    this.nextAttemptAt = 0;
    if (!o) return;
    this.outage = undefined;
    this.ctx.log.warn(
      {
        seconds: Math.round((Date.now() - o.since) / 1000),
        reason: o.reason,
        heldKeyMinutes: o.keyMinutes,
        heldBytes: o.heldBytes,
      },
      'statistics stored again: what the outage held is written',
    );
  }

  /** The next attempt of a failing write: doubling from the flush interval up to MAX_RETRY_MS. */
  private backOff(): void {
    const base = this.ctx.config.statsIngestFlushMs;
    this.retryDelayMs = Math.min(MAX_RETRY_MS, this.retryDelayMs === 0 ? base : this.retryDelayMs * 2);
    this.nextAttemptAt = Date.now() + this.retryDelayMs;
  }

  /**
   * Reads the journal left by the last run: segments past the store's mark are counted again (the
   * flush or the crash never stored them), and every segment tells the replay memory which (key,
   * session, seq) were counted, so a report sent again after a crash is not counted twice. Then writes
   * what it counted (an outage keeps it, as always). A store that does not answer cannot say its mark:
   * the node starts all the same, with the replay memory filled, and counts the segments at its first
   * flush once the store answers (no flush stores anything before: a later mark would drop them).
   */
  async recover(): Promise<void> {
    const journal = this.journal;
    if (!journal) return;
    const segments = journal.segments();
    if (segments.length === 0) return;
    let applied: number;
    try {
      applied = await this.ctx.statsStore.appliedMark(journal.id);
    } catch (err) {
      if (!(await storageFailing(this.ctx.statsStore, err))) throw err;
      const { remembered } = this.replay(segments, Number.POSITIVE_INFINITY, true);
      this.unreplayed = segments;
      this.ctx.log.warn(
        { dir: journal.dir, segments: segments.length, remembered, err },
        'statistics journal not counted yet: the statistics store does not answer; counted once it does',
      );
      return;
    }
    if (this.countJournal(journal, segments, applied, true) > 0) await this.flush().catch(() => undefined);
  }

  /** Counts the segments past `applied` and tells the journal its mark (`remember`: the replay memory
   *  too, unless it was filled already at start). */
  private countJournal(journal: StatsJournal, segments: Segment[], applied: number, remember: boolean) {
    const { counted, remembered } = this.replay(segments, applied, remember);
    journal.markApplied(applied);
    this.ctx.log.info(
      { dir: journal.dir, segments: segments.length, counted, remembered },
      'statistics journal replayed',
    );
    return counted;
  }

  /** The segments left by the last run whose counting waits for the store's mark (recover). */
  private unreplayed: Segment[] | undefined;

  /** Counts the journal of the last run, once the store answers (before any write: flush). */
  private async countUnreplayed(): Promise<void> {
    const segments = this.unreplayed;
    if (!segments || !this.journal) return;
    let applied: number;
    try {
      applied = await this.ctx.statsStore.appliedMark(this.journal.id);
    } catch (err) {
      throw (await storageFailing(this.ctx.statsStore, err)) ? new StatsOutage(err) : err;
    }
    this.unreplayed = undefined;
    this.countJournal(this.journal, segments, applied, false);
  }

  /** Adds the records of the segments past `applied` to the aggregators; with `remember`, every
   *  report's (key, session, seq) to the replay memory. */
  private replay(segments: Segment[], applied: number, remember: boolean) {
    const now = this.ctx.now();
    let counted = 0;
    let remembered = 0;
    for (const seg of segments) {
      const counts = seg.n > applied;
      if (!counts && !remember) continue;
      for (const rec of StatsJournal.read(seg.path)) {
        if (!Array.isArray(rec)) continue;
        if (rec[0] === 0) {
          const r = reportOf(rec as ReportRecord);
          const keyId = rec[1] as number;
          if (remember && r.seq !== undefined) this.seen.check(keyId, r.sessionId, r.seq, now);
          if (!counts) {
            remembered++;
            continue;
          }
          this.aggregator.add(keyId, r.ts, r.sessionId, r);
          BreakdownAggregator.prototype.add.call(
            this.breakdowns,
            keyId,
            r.ts,
            r.sessionId,
            r,
            rec[6] as ViewerFacts | null,
          );
          counted++;
        } else if (rec[0] === 1 && counts) {
          const [, keyId, ts, index, amount, stream] = rec as CountRecord;
          this.aggregator.addCount(keyId, ts, index, amount);
          this.breakdowns.addCount(keyId, ts, stream ?? undefined, index, amount);
          counted++;
        }
      }
    }
    return { counted, remembered };
  }

  /**
   * Counts bytes the integrity service fetched from `key`'s origins to verify peers' segments: added to
   * the key's current minute in memory and written with the next flush, as reports are (this runs on
   * the integrity service's path: no database here), and to the hour of the breakdown by stream under
   * `stream` (the stream's URL as the plugin names it; Unknown without one). No session: the server's
   * own fetches make no viewer. Anything but a positive finite number of bytes is ignored. Bound: the
   * integrity service is handed the function itself.
   */
  readonly countVerification = (key: UsableKey, bytes: number, stream: string | undefined): void => {
    if (!(bytes > 0 && Number.isFinite(bytes))) return;
    const tsSec = Math.floor(this.ctx.now() / 1000);
    this.aggregator.addCount(key.id, tsSec, VERIFY_INDEX, bytes);
    this.breakdowns.addCount(key.id, tsSec, stream, VERIFY_INDEX, bytes);
    const record: CountRecord = [1, key.id, tsSec, VERIFY_INDEX, bytes, stream ?? null];
    this.journal?.append(JSON.stringify(record));
  };

  /** One session per anonymous request: the sender is the viewer. A token's batch comes from a server,
   *  whose address says nothing of its viewers. */
  private viewerOf(from: IngestFrom): (r: TIngestReport) => ViewerFacts | null {
    const { simulated } = from;
    if (simulated) return (r) => simulated(r.sessionId) ?? null;
    if (!from.anonymous) return () => null;
    const facts = this.viewerFacts.of(from.address, from.userAgent);
    return () => facts;
  }

  /** Writes the in-memory aggregates now (tests, shutdown). What the database refuses while it answers
   *  is isolated (the rest is written); a storage that fails keeps it all for the next flush, and the
   *  flush throws StatsOutage (logged once per outage, not per attempt). */
  async flush(): Promise<void> {
    const took = this.ctx.metrics.flushSeconds.startTimer();
    try {
      await this.countUnreplayed();
      const r = await this.aggregator.flush();
      if (r.complete && r.mark) this.journal?.markApplied(r.mark.segment);
      await this.flushBreakdowns();
      // An outage met only on the ingest's reads ends when the database answers again.
      if (this.outage && !((await databaseAnswers(this.ctx.db)) && (await this.ctx.statsStore.answers())))
        throw new StatsOutage(this.outage.reason);
    } catch (err) {
      if (err instanceof StatsOutage || isStorageUnavailable(err)) {
        this.outageStarted(err);
        this.backOff();
      }
      throw err;
    }
    this.outageEnded();
    took();
  }

  /** Writes the breakdowns gathered since the last write. A database that does not answer gets them
   *  again with the next write; one that refuses them while it answers has them logged and dropped. */
  private async flushBreakdowns(): Promise<void> {
    const rows = this.breakdowns.take();
    this.breakdowns.prune(Math.floor(this.ctx.now() / 1000));
    if (rows.length === 0) return;
    try {
      await this.ctx.statsStore.writeBreakdowns(rows);
    } catch (err) {
      if (await storageFailing(this.ctx.statsStore, err)) {
        this.breakdowns.restore(rows);
        throw new StatsOutage(err);
      }
      this.ctx.log.error({ err, rows: rows.length }, 'breakdowns dropped: their write failed');
    }
  }

  prune(nowMs = this.ctx.now()) {
    return this.ctx.statsStore.prune(nowMs);
  }

  start(): void {
    this.flushTimer = setInterval(() => {
      this.seen.sweep(this.ctx.now());
      // During an outage, attempts back off (the data stays held meanwhile).
      if (Date.now() < this.nextAttemptAt) return;
      this.flush().catch((err: unknown) => {
        if (!(err instanceof StatsOutage)) this.ctx.log.warn({ err }, 'statistics flush failed; retrying');
      });
    }, this.ctx.config.statsIngestFlushMs);
    this.flushTimer.unref();
    this.retentionTimer = setInterval(() => {
      this.prune().catch((err: unknown) => this.ctx.log.warn({ err }, 'statistics retention failed'));
    }, 3600_000);
    this.retentionTimer.unref();
  }

  /** Something to stop on close (the demo's live simulator). */
  onStop(fn: () => void): void {
    this.stoppers.push(fn);
  }

  /**
   * Graceful shutdown: stop timers, write what is left, retrying for half the shutdown deadline (the
   * sockets had the first quarter). What still cannot be written stays in the journal, counted at the
   * next start.
   */
  async stop(): Promise<void> {
    for (const s of this.stoppers) s();
    clearInterval(this.flushTimer);
    clearInterval(this.retentionTimer);
    const deadline = Date.now() + this.ctx.config.shutdownTimeoutMs / 2;
    let pause = 200;
    for (;;) {
      try {
        await this.flush();
        break;
      } catch (err) {
        if (Date.now() >= deadline) {
          const held = { heldKeyMinutes: this.aggregator.pendingCount, heldBytes: this.aggregator.heldBytes };
          if (this.journal) {
            this.ctx.log.error(
              { ...held, reason: describe(err), journal: this.journal.dir },
              'statistics not stored at shutdown: kept in the journal, stored at the next start',
            );
          } else {
            this.ctx.log.error({ ...held, err }, 'statistics lost at shutdown: the final flush failed');
          }
          break;
        }
        await new Promise((r) => setTimeout(r, Math.max(0, Math.min(pause, deadline - Date.now()))));
        pause = Math.min(pause * 2, 2000);
      }
    }
    await this.journal?.close();
  }
}
