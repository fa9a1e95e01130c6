import { STATS_EXPORTS_PER_MINUTE } from '@tlprt/contract';
import type { AppContext } from '../../context.js';
import { SlidingWindowCounter } from '../../lib/sliding-window.js';
import { type BatchWriter, StatsAggregator } from './aggregator.js';
import { ingestReports } from './ingest.js';
import { pruneStats } from './retention.js';
import { SeenReports } from './seen-reports.js';

/** Who sent a batch: a browser's Origin, the team of an API token, and whether it came without
 *  one over HTTP (anonymous: the per-key budget applies). This node's own demo traffic is none of these. */
export interface IngestFrom {
  origin?: string;
  teamId?: number;
  anonymous?: boolean;
}

/** The statistics feature's state of one server node: aggregator, flush and retention timers. */
export class StatsService {
  readonly aggregator: StatsAggregator;
  readonly seen: SeenReports;
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
    const { perAddressPerMinute, perKeyPerMinute, replayMemoryBytes } = ctx.config.ingest;
    this.seen = new SeenReports(replayMemoryBytes, ctx.now());
    this.perAddress = new SlidingWindowCounter(perAddressPerMinute, 60_000, ctx.now, 200_000);
    this.perKey = new SlidingWindowCounter(perKeyPerMinute, 60_000, ctx.now);
    this.perToken = new SlidingWindowCounter(STATS_EXPORTS_PER_MINUTE, 60_000, ctx.now);
  }

  ingest(reports: unknown[], from: IngestFrom = {}) {
    this.reportsReceived += reports.length;
    return ingestReports(reports, this.ctx.keys, this.aggregator, this.ctx.now(), {
      origin: from.origin,
      gate: this.ctx.origins,
      seen: this.seen,
      ...(from.teamId !== undefined ? { teamId: from.teamId } : {}),
      ...(from.anonymous ? { perKey: this.perKey } : {}),
    });
  }

  /** Writes the in-memory aggregates now (tests, shutdown). What the database refuses while it answers
   *  is isolated (the rest is written); a database that does not answer keeps it all for the next flush. */
  flush(): Promise<void> {
    return this.aggregator.flush();
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
