import type { Clock } from '../../lib/clock.js';

/** What one look-up of a segment came to: its hash, or why the origin could not be read. */
export type Outcome =
  | {
      ok: true;
      sha256: string;
      /** Where this node found it (the metrics' label). */
      from: 'disk' | 'stored' | 'origin';
      /** Kept no longer than this (a stored hash that expires sooner). */
      ttlMs?: number;
    }
  | { ok: false; reason: string };

export interface HashCacheOptions {
  /** Most outcomes kept; past it the least recently used goes first. */
  maxEntries: number;
  /** How long a hash is trusted: an origin that replaces a file under the same URL is believed again
   *  after this long. */
  okTtlMs: number;
  /** How long a failure is remembered: long enough that a failing origin is not asked by every viewer
   *  at once, short enough that a brief outage is forgotten in seconds. */
  failureTtlMs: number;
}

/**
 * Outcomes by segment (URL and range), bounded (LRU), with one origin fetch at a time per segment on
 * this node: concurrent askers of a segment that is being fetched wait for that one fetch.
 */
export class HashCache {
  private readonly entries = new Map<string, { outcome: Outcome; until: number }>();
  private readonly inFlight = new Map<string, Promise<Outcome>>();

  constructor(
    private readonly options: HashCacheOptions,
    private readonly now: Clock,
  ) {}

  /** Outcomes held now (never more than maxEntries). */
  get size(): number {
    return this.entries.size;
  }

  /** The cached hash of `id` if it holds one now: the fast path answers with it, nothing awaited. */
  peek(id: string): string | undefined {
    const hit = this.entries.get(id);
    return hit?.outcome.ok && hit.until > this.now() ? hit.outcome.sha256 : undefined;
  }

  /** Forgets `id` (a hash pushed on this node replaces it at once). */
  forget(id: string): void {
    this.entries.delete(id);
  }

  /** The cached outcome of `id`, the one being computed, or a new one from `compute` (which turns the
   *  failures worth remembering into outcomes). */
  resolve(id: string, compute: () => Promise<Outcome>): Promise<Outcome> {
    const hit = this.entries.get(id);
    if (hit) {
      this.entries.delete(id);
      if (hit.until > this.now()) {
        // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
        this.entries.set(id, hit);
        return Promise.resolve(hit.outcome);
      }
    }
    const running = this.inFlight.get(id);
    if (running) return running;
    // A compute that throws (a refusal of the caller's own limits) is nobody's outcome: its askers get
    // the error, and the next asker computes again.
    const started = compute().then(
      (outcome) => {
        this.inFlight.delete(id);
        this.store(id, outcome);
        return outcome;
      },
      (err: unknown) => {
        this.inFlight.delete(id);
        throw err;
      },
    );
    this.inFlight.set(id, started);
    return started;
  }

  private store(id: string, outcome: Outcome): void {
    const ttl = outcome.ok
      ? Math.min(this.options.okTtlMs, outcome.ttlMs ?? this.options.okTtlMs)
      : this.options.failureTtlMs;
    this.entries.delete(id);
    this.entries.set(id, { outcome, until: this.now() + ttl });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
