import type { Clock } from './clock.js';

/**
 * Counts per id in fixed windows, in this node's memory (the integrity service's per-key limit, the
 * ingest's per-address and per-key budgets). At most `maxIds` ids are held: past it the expired windows
 * go, and if none has expired every window starts again (a flood of new ids can reset the counts of
 * others, never grow memory).
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: Clock,
    private readonly maxIds = 100_000,
  ) {}

  /** Counts `n` of `id`: 0 when they fit, else the milliseconds until its window ends (none counted). */
  hit(id: string, n = 1): number {
    const now = this.now();
    let w = this.windows.get(id);
    if (!w || w.start + this.windowMs <= now) {
      if (!w && this.windows.size >= this.maxIds) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(id, w);
    }
    if (w.count + n > this.max) return w.start + this.windowMs - now;
    w.count += n;
    return 0;
  }

  /** Like hit(id, 1) without counting: whether `id` has spent its window (0: not yet). */
  spent(id: string): number {
    const now = this.now();
    const w = this.windows.get(id);
    if (!w || w.start + this.windowMs <= now || w.count < this.max) return 0;
    return w.start + this.windowMs - now;
  }

  private sweep(now: number): void {
    for (const [id, w] of this.windows) if (w.start + this.windowMs <= now) this.windows.delete(id);
    if (this.windows.size >= this.maxIds) this.windows.clear();
  }
}
