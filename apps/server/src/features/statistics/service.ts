import { columnIndex, STATS_EXPORTS_PER_MINUTE, type TIngestReport } from '@tlprt/contract';
import type { UsableKey } from '../../access/usable-keys.js';
import type { AppContext } from '../../context.js';
import { SlidingWindowCounter } from '../../lib/sliding-window.js';
import { type BatchWriter, StatsAggregator } from './aggregator.js';
import { BlockCache } from './block-cache.js';
import { writeBreakdowns } from './breakdown-queries.js';
import { BreakdownAggregator } from './breakdowns.js';
import { ingestReports } from './ingest.js';
import { databaseAnswers, lockFlushes } from './queries.js';
import { pruneStats } from './retention.js';
import { SeenReports } from './seen-reports.js';
import { BLOCK_CACHE_BYTES, statsDb } from './tables.js';
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

/** The statistics feature's state of one server node: aggregator, flush and retention timers. */
export class StatsService {
  readonly aggregator: StatsAggregator;
  readonly seen: SeenReports;
  readonly breakdowns = new BreakdownAggregator();
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

  constructor(
    readonly ctx: AppContext,
    writer?: BatchWriter,
  ) {
    this.aggregator = new StatsAggregator(ctx.db, ctx.now, ctx.log, writer);
    this.viewerFacts = new ViewerFactsResolver(ctx.log);
    const { perAddressPerMinute, perKeyPerMinute, replayMemoryBytes } = ctx.config.ingest;
    this.seen = new SeenReports(replayMemoryBytes, ctx.now());
    this.perAddress = new SlidingWindowCounter(perAddressPerMinute, 60_000, ctx.now, 200_000);
    this.perKey = new SlidingWindowCounter(perKeyPerMinute, 60_000, ctx.now);
    this.perToken = new SlidingWindowCounter(STATS_EXPORTS_PER_MINUTE, 60_000, ctx.now);
  }

  ingest(reports: unknown[], from: IngestFrom = {}) {
    this.reportsReceived += reports.length;
    // Built without spreads: this runs for every report a browser sends.
    return ingestReports(reports, this.ctx.keys, this.aggregator, this.ctx.now(), {
      origin: from.origin,
      gate: this.ctx.origins,
      seen: this.seen,
      teamId: from.teamId,
      perKey: from.anonymous ? this.perKey : undefined,
      breakdowns: this.breakdowns,
      viewerOf: this.viewerOf(from),
      metrics: this.ctx.metrics,
    });
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
   *  is isolated (the rest is written); a database that does not answer keeps it all for the next flush. */
  async flush(): Promise<void> {
    const took = this.ctx.metrics.flushSeconds.startTimer();
    await this.aggregator.flush();
    await this.flushBreakdowns();
    took();
  }

  /** Writes the breakdowns gathered since the last write. A database that does not answer gets them
   *  again with the next write; one that refuses them while it answers has them logged and dropped. */
  private async flushBreakdowns(): Promise<void> {
    const rows = this.breakdowns.take();
    this.breakdowns.prune(Math.floor(this.ctx.now() / 1000));
    if (rows.length === 0) return;
    try {
      await statsDb(this.ctx.db)
        .transaction()
        .execute(async (trx) => {
          await lockFlushes(trx);
          await writeBreakdowns(trx, rows);
        });
    } catch (err) {
      if (!(await databaseAnswers(this.ctx.db))) {
        this.breakdowns.restore(rows);
        throw err;
      }
      this.ctx.log.error({ err, rows: rows.length }, 'breakdowns dropped: their write failed');
    }
  }

  prune(nowMs = this.ctx.now()) {
    return pruneStats(this.ctx.db, nowMs);
  }

  start(): void {
    this.flushTimer = setInterval(() => {
      this.seen.sweep(this.ctx.now());
      this.flush().catch((err: unknown) => this.ctx.log.warn({ err }, 'statistics flush failed; retrying'));
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

  /** Graceful shutdown: stop timers, write what is left (one retry). */
  async stop(): Promise<void> {
    for (const s of this.stoppers) s();
    clearInterval(this.flushTimer);
    clearInterval(this.retentionTimer);
    try {
      await this.flush();
    } catch {
      await this.flush().catch((err: unknown) =>
        this.ctx.log.error({ err }, 'statistics lost at shutdown: the final flush failed'),
      );
    }
  }
}
