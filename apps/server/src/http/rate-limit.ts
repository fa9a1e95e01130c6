import { RATE_LIMITS } from '@tlprt/contract';
import type { Clock } from '../lib/clock.js';

export interface RateLimitSettings {
  /** Guest calls per client address per minute. */
  guestPerMinute: number;
  loginFailuresPerLogin: number;
  loginFailuresPerAddress: number;
  failureWindowMs: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  guestPerMinute: RATE_LIMITS.guestPerMinute,
  loginFailuresPerLogin: RATE_LIMITS.loginFailuresPerLogin,
  loginFailuresPerAddress: RATE_LIMITS.loginFailuresPerAddress,
  failureWindowMs: RATE_LIMITS.failureWindowMs,
};

interface Window {
  count: number;
  startedAt: number;
}

/**
 * Counts failures per key in a fixed window (per node, in memory). Once a key reaches `max` failures,
 * further attempts are refused until its window ends — whether or not the next password is right.
 */
export class FailureCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: Clock,
  ) {}

  /** Milliseconds until the key may try again; 0 when it may try now. */
  retryAfter(key: string): number {
    const w = this.live(key);
    return w && w.count >= this.max ? w.startedAt + this.windowMs - this.now() : 0;
  }

  record(key: string): void {
    const w = this.live(key);
    if (w) w.count += 1;
    else {
      if (this.windows.size > 10_000) this.prune();
      this.windows.set(key, { count: 1, startedAt: this.now() });
    }
  }

  clear(key: string): void {
    this.windows.delete(key);
  }

  private live(key: string): Window | undefined {
    const w = this.windows.get(key);
    if (w && w.startedAt + this.windowMs <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  /** Bounds memory under a spray of distinct logins. */
  private prune(): void {
    const cutoff = this.now() - this.windowMs;
    for (const [k, w] of this.windows) if (w.startedAt <= cutoff) this.windows.delete(k);
  }
}
