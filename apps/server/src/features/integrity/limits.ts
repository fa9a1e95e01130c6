import type { Clock } from '../../lib/clock.js';

/**
 * Requests per id in fixed windows, in this node's memory. Only ids already known to be real (usable
 * keys) are counted, so the map is bounded by the keys in use; `maxIds` is a guard all the same.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: Clock,
    private readonly maxIds = 100_000,
  ) {}

  /** Counts one request of `id`: 0 when it may go on, else the milliseconds until its window ends. */
  hit(id: string): number {
    const now = this.now();
    let w = this.windows.get(id);
    if (!w || w.start + this.windowMs <= now) {
      if (!w && this.windows.size >= this.maxIds) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(id, w);
    }
    if (w.count >= this.max) return w.start + this.windowMs - now;
    w.count++;
    return 0;
  }

  private sweep(now: number): void {
    for (const [id, w] of this.windows) if (w.start + this.windowMs <= now) this.windows.delete(id);
    if (this.windows.size >= this.maxIds) this.windows.clear();
  }
}
