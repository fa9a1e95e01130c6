import { describe, expect, it } from 'vitest';
import { SlidingWindowCounter } from '../src/lib/sliding-window.js';
import { manualClock } from './helpers/server.js';

const MINUTE = 60_000;

describe('sliding window counter', () => {
  it('allows the limit in a window and answers how long until more fit', () => {
    const clock = manualClock(10 * MINUTE);
    const c = new SlidingWindowCounter(10, MINUTE, clock);
    expect(c.hit('a', 10)).toBe(0);
    const wait = c.hit('a');
    // Nothing of this window fades before it ends; the next one starts full of it.
    expect(wait).toBeGreaterThan(MINUTE);
    expect(c.spent('a')).toBe(wait);
    expect(c.hit('b')).toBe(0);
  });

  it('a budget spent at the end of one window is not spent again at the start of the next', () => {
    const clock = manualClock(10 * MINUTE + 59_000);
    const c = new SlidingWindowCounter(10, MINUTE, clock);
    expect(c.hit('a', 10)).toBe(0);
    clock.advance(2000);
    // A fixed window would allow 10 more here: 20 in two seconds.
    expect(c.hit('a', 5)).toBeGreaterThan(0);
    expect(c.hit('a', 1)).toBeGreaterThan(0);
    // Nor halfway through the next window (a previous window weighed by its overlap would allow 5 here),
    // nor until a whole minute has passed since the 10.
    clock.advance(MINUTE / 2 - 1000);
    expect(c.hit('a', 1)).toBeGreaterThan(0);
    clock.advance(MINUTE / 2 - 2000);
    expect(c.hit('a', 1)).toBeGreaterThan(0);
    // Then all of them fit again, at most a slot (5 s) after the minute.
    clock.advance(6000);
    expect(c.hit('a', 10)).toBe(0);
  });

  it('no stretch of one window ever takes more than the limit, however the hits fall', () => {
    // Bursts at random moments over ten minutes, as a flood from one address comes.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let run = 0; run < 20; run++) {
      const clock = manualClock(10 * MINUTE + Math.floor(random() * MINUTE));
      const c = new SlidingWindowCounter(100, MINUTE, clock);
      const taken: Array<[at: number, n: number]> = [];
      for (let i = 0; i < 2000; i++) {
        clock.advance(Math.floor(random() * 600));
        const n = 1 + Math.floor(random() * 20);
        if (c.hit('a', n) === 0) taken.push([clock(), n]);
      }
      for (const [at] of taken) {
        const inWindow = taken.filter(([t]) => t > at - MINUTE && t <= at).reduce((sum, [, n]) => sum + n, 0);
        expect(inWindow).toBeLessThanOrEqual(100);
      }
      // And the budget is used: over ten minutes, well more than one window's worth was taken.
      expect(taken.reduce((sum, [, n]) => sum + n, 0)).toBeGreaterThan(700);
    }
  });

  it('the wait it answers is enough and not much more', () => {
    const clock = manualClock(10 * MINUTE + 59_000);
    const c = new SlidingWindowCounter(10, MINUTE, clock);
    c.hit('a', 10);
    clock.advance(2000);
    const wait = c.hit('a', 4);
    clock.advance(wait - 2);
    expect(c.hit('a', 4)).toBeGreaterThan(0);
    clock.advance(2);
    expect(c.hit('a', 4)).toBe(0);
  });

  it('forgets ids two windows old; more than the limit at once never fits', () => {
    const clock = manualClock(10 * MINUTE);
    const c = new SlidingWindowCounter(3, MINUTE, clock);
    c.hit('a', 3);
    clock.advance(2 * MINUTE);
    expect(c.spent('a')).toBe(0);
    expect(c.hit('a', 3)).toBe(0);
    expect(c.hit('b', 4)).toBe(MINUTE);
  });

  it('holds at most maxIds ids: stale ones go first, then all counts start again', () => {
    const clock = manualClock(10 * MINUTE);
    const c = new SlidingWindowCounter(1, MINUTE, clock, 2);
    c.hit('a');
    c.hit('b');
    c.hit('c');
    // No id was stale: the counts started again, so "a" may count once more.
    expect(c.hit('a')).toBe(0);
  });
});
