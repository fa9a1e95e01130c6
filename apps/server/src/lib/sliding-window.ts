import type { Clock } from './clock.js';

/** A window is cut into this many slots. */
const SLOTS = 12;
/** Slots counted: the current one (partly elapsed) and SLOTS before it, so what is counted always
 *  covers at least a whole window. */
const RING = SLOTS + 1;

interface Counts {
  /** The newest slot counted: epoch milliseconds / slot length, rounded down. */
  slot: number;
  total: number;
  /** Counts per slot, at slot % RING. */
  slots: number[];
}

/**
 * Counts per id over a sliding window, in this node's memory (the integrity service's per-key limit, the
 * ingest's per-address and per-key budgets). No stretch of one window ever takes more than `max`,
 * however the hits fall: an id's count is the sum of its last RING slots of windowMs / SLOTS, which
 * cover between one window and one window and a slot, so a hit leaves the count up to a slot (a
 * twelfth of the window) later than a window after it. Two fixed windows let an id spend its budget at
 * the end of one and again at the start of the next; a previous window weighed by its overlap (the
 * usual approximation) still let a burst at the start of a window be followed by most of the budget
 * again within the next minute (the ingest bench's flood got 1,560 of a budget of 1,200). At most
 * `maxIds` ids are held: past it the stale ones go, and if none is stale every count starts again (a
 * flood of new ids can reset the counts of others, never grow memory).
 */
export class SlidingWindowCounter {
  private readonly counts = new Map<string, Counts>();
  private readonly slotMs: number;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: Clock,
    private readonly maxIds = 100_000,
  ) {
    this.slotMs = windowMs / SLOTS;
  }

  /** Counts `n` of `id`: 0 when they fit, else the milliseconds until they would (none counted). */
  hit(id: string, n = 1): number {
    const now = this.now();
    const slot = Math.floor(now / this.slotMs);
    const c = this.current(id, slot, true);
    const wait = this.waitFor(c, slot, now, n);
    if (wait === 0) {
      c.slots[slot % RING] = (c.slots[slot % RING] ?? 0) + n;
      c.total += n;
    }
    return wait;
  }

  /** What `id` has counted over the window now. */
  count(id: string): number {
    return this.current(id, Math.floor(this.now() / this.slotMs), false)?.total ?? 0;
  }

  /** Counts `n` of `id` whether or not they fit (what was already spent: the bytes a read received). */
  add(id: string, n: number): void {
    if (n <= 0) return;
    const slot = Math.floor(this.now() / this.slotMs);
    const c = this.current(id, slot, true);
    c.slots[slot % RING] = (c.slots[slot % RING] ?? 0) + n;
    c.total += n;
  }

  /** Like hit(id, 1) without counting: the milliseconds until one more would fit (0: it would now). */
  spent(id: string): number {
    const now = this.now();
    const slot = Math.floor(now / this.slotMs);
    const c = this.current(id, slot, false);
    return c ? this.waitFor(c, slot, now, 1) : 0;
  }

  private current(id: string, slot: number, create: true): Counts;
  private current(id: string, slot: number, create: false): Counts | undefined;
  private current(id: string, slot: number, create: boolean): Counts | undefined {
    let c = this.counts.get(id);
    if (c && c.slot !== slot) {
      // The slots that fell out of the count since the id's last hit are emptied.
      if (slot - c.slot >= RING) {
        c.slots.fill(0);
        c.total = 0;
      } else {
        for (let s = c.slot + 1; s <= slot; s++) {
          c.total -= c.slots[s % RING] ?? 0;
          c.slots[s % RING] = 0;
        }
      }
      c.slot = slot;
    }
    if (!c && create) {
      if (this.counts.size >= this.maxIds) this.sweep(slot);
      c = { slot, total: 0, slots: new Array<number>(RING).fill(0) };
      this.counts.set(id, c);
    }
    return c;
  }

  /** Milliseconds from `now` until `n` more fit: the oldest slots leave first, slot s when slot
   *  s + RING begins. */
  private waitFor(c: Counts, slot: number, now: number, n: number): number {
    if (n > this.max) return this.windowMs;
    let total = c.total;
    if (total + n <= this.max) return 0;
    for (let s = slot - RING + 1; s <= slot; s++) {
      total -= c.slots[s % RING] ?? 0;
      if (total + n <= this.max) return Math.max(1, Math.ceil((s + RING) * this.slotMs - now));
    }
    return this.windowMs;
  }

  private sweep(slot: number): void {
    for (const [id, c] of this.counts) if (c.slot <= slot - RING) this.counts.delete(id);
    if (this.counts.size >= this.maxIds) this.counts.clear();
  }
}
