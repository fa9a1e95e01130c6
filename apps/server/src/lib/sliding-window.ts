import type { Clock } from './clock.js';

interface Counts {
  /** The fixed window `current` counts: epoch milliseconds / window length, rounded down. */
  window: number;
  current: number;
  /** The count of the window before, 0 when that one saw nothing. */
  previous: number;
}

/**
 * Counts per id over a sliding window, in this node's memory (the integrity service's per-key limit, the
 * ingest's per-address and per-key budgets). Each id keeps the counts of the current fixed window and
 * the one before; the previous one weighs by how much of it still lies within one window of now. A
 * fixed window alone let an id spend its budget at the end of one window and again at the start of the
 * next: twice the limit in a moment. At most `maxIds` ids are held: past it the stale ones go, and if
 * none is stale every count starts again (a flood of new ids can reset the counts of others, never
 * grow memory).
 */
export class SlidingWindowCounter {
  private readonly counts = new Map<string, Counts>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: Clock,
    private readonly maxIds = 100_000,
  ) {}

  /** Counts `n` of `id`: 0 when they fit, else the milliseconds until they would (none counted). */
  hit(id: string, n = 1): number {
    const now = this.now();
    const c = this.current(id, now, true);
    const wait = this.waitFor(c.current, c.previous, now, n);
    if (wait === 0) c.current += n;
    return wait;
  }

  /** Like hit(id, 1) without counting: the milliseconds until one more would fit (0: it would now). */
  spent(id: string): number {
    const now = this.now();
    const c = this.current(id, now, false);
    return c ? this.waitFor(c.current, c.previous, now, 1) : 0;
  }

  private current(id: string, now: number, create: true): Counts;
  private current(id: string, now: number, create: false): Counts | undefined;
  private current(id: string, now: number, create: boolean): Counts | undefined {
    const window = Math.floor(now / this.windowMs);
    let c = this.counts.get(id);
    if (c && c.window !== window) {
      c.previous = c.window === window - 1 ? c.current : 0;
      c.current = 0;
      c.window = window;
    }
    if (!c && create) {
      if (this.counts.size >= this.maxIds) this.sweep(window);
      c = { window, current: 0, previous: 0 };
      this.counts.set(id, c);
    }
    return c;
  }

  /** Milliseconds from `now` until `n` more fit beside `current` and the fading `previous`. */
  private waitFor(current: number, previous: number, now: number, n: number): number {
    if (n > this.max) return this.windowMs;
    const into = now % this.windowMs;
    const weight = (elapsed: number) => 1 - elapsed / this.windowMs;
    if (previous * weight(into) + current + n <= this.max) return 0;
    // Within this window, the previous one's share fades until it leaves room for n.
    if (previous > 0 && current + n <= this.max) {
      const at = this.windowMs * (1 - (this.max - current - n) / previous);
      return Math.max(1, Math.ceil(at - into));
    }
    // Otherwise in the next window, where this one's count fades in turn.
    const next = current > 0 ? this.windowMs * Math.max(0, 1 - (this.max - n) / current) : 0;
    return Math.max(1, Math.ceil(this.windowMs - into + next));
  }

  private sweep(window: number): void {
    for (const [id, c] of this.counts) if (c.window < window - 1) this.counts.delete(id);
    if (this.counts.size >= this.maxIds) this.counts.clear();
  }
}
