import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Where operators scrape (served when METRICS=on or the server listens on loopback only). */
export const METRICS_PATH = '/metrics';

/** Why the ingest refused a report (a bounded set: the label of `tlprt_ingest_reports_total`). */
const INGEST_REFUSALS = [
  'invalid',
  'clock',
  'key',
  'origin',
  'other_team',
  'key_budget',
  'session_forgotten',
] as const;
export type IngestRefusal = (typeof INGEST_REFUSALS)[number];

/** What the gauges read when scraped (the tracker and the live streams own their numbers). */
export interface MetricsSources {
  trackerSockets(): number;
  trackerSwarms(): number;
  trackerPeers(): number;
  liveStreams(): number;
}

/**
 * The operators' metrics (`GET /metrics`, Prometheus text format) through prom-client: what
 * the ingest accepts and refuses, how long flushes take, the tracker's sockets, swarms and peers, the
 * integrity hashes fetched and served from cache, the live streams open and the requests refused by a
 * rate limit. Counters are bumped where things happen; gauges are read at the scrape from `sources`.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly sources: Partial<MetricsSources> = {};

  /** Reports accepted since the last scrape: every report passes here, so a number is bumped and
   *  prom-client's counter (a few label look-ups per call) is told only when scraped. */
  private acceptedSinceScrape = 0;
  readonly ingestAccepted = {
    inc: (n = 1) => {
      this.acceptedSinceScrape += n;
    },
  };
  readonly ingestReports: Counter<'result' | 'reason'>;
  /** The refusals' counters with their labels bound once. */
  readonly ingestRefused: Record<IngestRefusal, ReturnType<Counter['labels']>>;
  readonly flushSeconds = new Histogram({
    name: 'tlprt_stats_flush_duration_seconds',
    help: 'Time of one statistics flush (minutes, sessions, rollups, team totals, blocks, breakdowns).',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly integrityFetches = new Counter({
    name: 'tlprt_integrity_requests_total',
    help: "Segment hashes asked of this server, by where the answer came from: this node's memory (cache), the shared table of pushed and learned hashes (stored), the demo's files (disk), or the origin (a digest header or the body).",
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  readonly hashesPushed = new Counter({
    name: 'tlprt_integrity_pushed_hashes_total',
    help: "Segment hashes teams' packagers pushed (POST /player/v1/hashes), by result (accepted, rejected).",
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly integrityRefused = new Counter({
    name: 'tlprt_integrity_refused_total',
    help: "Origin reads of the integrity service refused with 429: the node's or the team's concurrent reads at their cap (concurrency), or the team's bytes per minute spent (budget).",
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'tlprt_rate_limited_total',
    help: 'Requests refused with 429 by a rate limit, by route.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  readonly tokenRefused = new Counter({
    name: 'tlprt_token_refused_total',
    help: "Calls taking a team API token refused before their body was read: a malformed token (no look-up), an unknown, revoked or other scope's one (looked up), or an address past its budget of refused attempts (budget, 429).",
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  constructor() {
    const metrics = this;
    this.ingestReports = new Counter({
      name: 'tlprt_ingest_reports_total',
      help: 'Player reports by result (accepted, refused) and, when refused, why.',
      labelNames: ['result', 'reason'] as const,
      registers: [this.registry],
      collect() {
        this.labels('accepted', '').inc(metrics.acceptedSinceScrape);
        metrics.acceptedSinceScrape = 0;
      },
    });
    this.ingestRefused = Object.fromEntries(
      INGEST_REFUSALS.map((reason) => [reason, this.ingestReports.labels('refused', reason)]),
    ) as Record<IngestRefusal, ReturnType<Counter['labels']>>;
    const sources = this.sources;
    const gauge = (name: string, help: string, read: (s: Partial<MetricsSources>) => number | undefined) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read(sources) ?? 0);
        },
      });
    gauge('tlprt_tracker_sockets', 'Open tracker WebSockets on this node.', (s) => s.trackerSockets?.());
    gauge('tlprt_tracker_swarms', 'Swarms (a key and a stream) on this node.', (s) => s.trackerSwarms?.());
    gauge('tlprt_tracker_peers', 'Peers in the swarms of this node.', (s) => s.trackerPeers?.());
    gauge('tlprt_live_streams', 'Open live event streams (Server-Sent Events).', (s) => s.liveStreams?.());
  }

  /** The process's own (CPU, memory, event-loop delay, handles), for a node that serves /metrics. */
  withProcessMetrics(): void {
    collectDefaultMetrics({ register: this.registry, prefix: 'tlprt_' });
  }

  /** Where the gauges read from, once those parts exist. */
  readFrom(sources: Partial<MetricsSources>): void {
    Object.assign(this.sources, sources);
  }
}
