import { MSG_INTEGRITY } from '@tlprt/contract';
import { type HttpError, tooManyRequests } from '../../http/errors.js';
import type { Clock } from '../../lib/clock.js';
import { SlidingWindowCounter } from '../../lib/sliding-window.js';
import type { Metrics } from '../../metrics/index.js';
import { OriginReadFailed } from './origin.js';

export interface OriginFetchLimitsOptions {
  /** Origin reads at once on this node (INTEGRITY_CONCURRENT_PER_NODE). */
  perNode: number;
  /** Origin reads at once for one team on this node (INTEGRITY_CONCURRENT_PER_TEAM). */
  perTeam: number;
  /** Body bytes a team's reads may receive per minute on this node (INTEGRITY_TEAM_BYTES_PER_MINUTE). */
  teamBytesPerMinute: number;
  /** How long a read past a cap waits for a slot before its 429. */
  maxWaitMs?: number;
}

/** A read past a cap waits this long at most: a viewer's player is waiting for the answer, and the
 *  segment comes from the CDN when it does not arrive in time. */
const DEFAULT_MAX_WAIT_MS = 1000;
/** Retry-After of a read refused for concurrency: a slot frees within a fetch's time. */
const CONCURRENCY_RETRY_MS = 1000;

export type RefusalReason = 'concurrency' | 'budget';

interface Waiter {
  teamId: number;
  admit(): void;
  timer: NodeJS.Timeout;
}

/**
 * Caps on the integrity service's origin reads (issue 36, item 5), so that a team cannot borrow this
 * node's bandwidth and memory: at most `perNode` reads at once on the node and `perTeam` per team; a
 * read past a cap waits in a short FIFO queue (at most as many waiting as the cap allows running, for
 * at most maxWaitMs), else it is refused. A team's body bytes are counted over a sliding minute
 * (SlidingWindowCounter); once they reach the budget, reads are refused until the oldest slots
 * leave the count. Bytes are charged when a read ends (failed reads too: they were received), so the
 * reads already running when the budget is reached may pass it, by at most perTeam reads of
 * INTEGRITY_MAX_BYTES. Refusals are 429 with Retry-After, counted in `tlprt_integrity_refused_total`.
 */
export class OriginFetchLimits {
  private running = 0;
  private readonly runningPerTeam = new Map<number, number>();
  private readonly queue: Waiter[] = [];
  private readonly queuedPerTeam = new Map<number, number>();
  /** Body bytes per team over a sliding minute. */
  private readonly bytes: SlidingWindowCounter;
  private readonly maxWaitMs: number;

  constructor(
    private readonly options: OriginFetchLimitsOptions,
    now: Clock,
    private readonly metrics?: Pick<Metrics, 'integrityRefused'>,
  ) {
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.bytes = new SlidingWindowCounter(options.teamBytesPerMinute, 60_000, now);
  }

  /** Reads running on this node now. */
  get active(): number {
    return this.running;
  }

  /** Reads waiting for a slot now. */
  get waiting(): number {
    return this.queue.length;
  }

  /** The team's body bytes counted in the current minute. */
  bytesOf(teamId: number): number {
    return this.bytes.count(String(teamId));
  }

  /**
   * Runs `read` (one origin read of the team) within the caps, and charges the body bytes it received:
   * its result's `originBytes`, or a failure's (OriginReadFailed carries them). Throws the 429 HttpError
   * when the team's budget is spent or no slot frees in time; `read`'s own errors pass unchanged.
   */
  async run<T extends { originBytes: number }>(teamId: number, read: () => Promise<T>): Promise<T> {
    this.checkBudget(teamId);
    const waited = await this.acquire(teamId);
    try {
      // The minute may have been spent by the reads this one waited behind.
      if (waited) this.checkBudget(teamId);
    } catch (error) {
      this.release(teamId);
      throw error;
    }
    let received = 0;
    try {
      const result = await read();
      received = result.originBytes;
      return result;
    } catch (error) {
      if (error instanceof OriginReadFailed) received = error.originBytes;
      throw error;
    } finally {
      this.release(teamId);
      this.bytes.add(String(teamId), received);
    }
  }

  private refuse(reason: RefusalReason, retryMs: number): HttpError {
    this.metrics?.integrityRefused.inc({ reason });
    return tooManyRequests(
      retryMs,
      reason === 'budget' ? MSG_INTEGRITY.fetchBudgetSpent : MSG_INTEGRITY.tooManyFetches,
    );
  }

  private hasRoom(teamId: number): boolean {
    return (
      this.running < this.options.perNode && (this.runningPerTeam.get(teamId) ?? 0) < this.options.perTeam
    );
  }

  private take(teamId: number): void {
    this.running++;
    this.runningPerTeam.set(teamId, (this.runningPerTeam.get(teamId) ?? 0) + 1);
  }

  /** Takes a slot: at once (false) or after waiting in the queue (true); a 429 when neither. */
  private acquire(teamId: number): Promise<boolean> {
    // Waiters go first: a newcomer never overtakes a read of the same team already waiting.
    if (this.hasRoom(teamId) && !this.queuedPerTeam.has(teamId)) {
      this.take(teamId);
      return Promise.resolve(false);
    }
    const queued = this.queuedPerTeam.get(teamId) ?? 0;
    if (queued >= this.options.perTeam || this.queue.length >= this.options.perNode)
      return Promise.reject(this.refuse('concurrency', CONCURRENCY_RETRY_MS));
    return new Promise<boolean>((resolve, reject) => {
      const waiter: Waiter = {
        teamId,
        admit: () => resolve(true),
        timer: setTimeout(() => {
          this.dequeue(waiter);
          reject(this.refuse('concurrency', CONCURRENCY_RETRY_MS));
        }, this.maxWaitMs),
      };
      this.queue.push(waiter);
      this.queuedPerTeam.set(teamId, queued + 1);
    });
  }

  private dequeue(waiter: Waiter): void {
    const i = this.queue.indexOf(waiter);
    if (i >= 0) this.queue.splice(i, 1);
    const left = (this.queuedPerTeam.get(waiter.teamId) ?? 1) - 1;
    if (left > 0) this.queuedPerTeam.set(waiter.teamId, left);
    else this.queuedPerTeam.delete(waiter.teamId);
  }

  private release(teamId: number): void {
    this.running--;
    const left = (this.runningPerTeam.get(teamId) ?? 1) - 1;
    if (left > 0) this.runningPerTeam.set(teamId, left);
    else this.runningPerTeam.delete(teamId);
    // The oldest waiter that fits now goes (another team's may, when the freed slot's team is at its cap).
    // The queue holds at most perNode waiters, so the scan is short.
    for (let i = 0; i < this.queue.length && this.running < this.options.perNode; i++) {
      const waiter = this.queue[i] as Waiter;
      if (!this.hasRoom(waiter.teamId)) continue;
      clearTimeout(waiter.timer);
      this.dequeue(waiter);
      this.take(waiter.teamId);
      waiter.admit();
      i--;
    }
  }

  private checkBudget(teamId: number): void {
    const wait = this.bytes.spent(String(teamId));
    if (wait > 0) throw this.refuse('budget', wait);
  }
}
