import { INGEST_MAX_SKEW_S } from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import { SeenReports } from '../src/features/statistics/seen-reports.js';

describe('seen reports (seq de-duplication)', () => {
  it('counts a (key, session, seq) once, per key, in any order within the window', () => {
    const seen = new SeenReports();
    expect(seen.check(1, 's', 0, 0)).toBe('new');
    expect(seen.check(1, 's', 0, 0)).toBe('seen');
    expect(seen.check(2, 's', 0, 0)).toBe('new');
    expect(seen.check(1, 's', 5, 0)).toBe('new');
    // A retry of an older report arriving after a newer one still counts once.
    expect(seen.check(1, 's', 3, 0)).toBe('new');
    expect(seen.check(1, 's', 3, 0)).toBe('seen');
    expect(seen.check(1, 's', 5, 0)).toBe('seen');
    // Far below the highest (beyond any honest retry): taken as already counted.
    expect(seen.check(1, 's', 40, 0)).toBe('new');
    expect(seen.check(1, 's', 4, 0)).toBe('seen');
    expect(seen.check(1, 's', 9, 0)).toBe('new');
  });

  it('holds a session in constant memory however many seqs it sends', () => {
    const seen = new SeenReports();
    for (let seq = 0; seq < 10_000; seq++) expect(seen.check(1, 'long', seq, 0)).toBe('new');
    const one = seen.usage.bytes;
    expect(one).toBeLessThan(200);
    for (let seq = 0; seq < 10_000; seq++) expect(seen.check(1, 'long', seq, 0)).toBe('seen');
    expect(seen.usage.bytes).toBe(one);
  });

  it('stays within its byte budget: a flood of made-up sessions pushes out the least recently reporting, whose reports are then refused, never counted again', () => {
    const budget = 1024 * 1024;
    const seen = new SeenReports(budget, 0);
    expect(seen.check(1, 'honest', 0, 0)).toBe('new');
    expect(seen.check(1, 'idle', 0, 0)).toBe('new');
    let t = 0;
    let refusedFakes = 0;
    for (let i = 0; i < 20_000; i++) {
      t += 1;
      // The honest viewer reports every 100 made-up sessions (its 10 s against the flood's rate).
      if (i % 100 === 0) expect(seen.check(1, 'honest', 1 + i / 100, t)).toBe('new');
      // A new id may be taken for a forgotten one (the filter's false positives): refused, not counted.
      if (seen.check(1, `fake-${i}`, 0, t) === 'forgotten') refusedFakes++;
      expect(seen.usage.bytes).toBeLessThanOrEqual(budget);
    }
    // About 7,000 sessions fit the budget: twice as many were pushed out.
    expect(seen.size).toBeGreaterThan(5000);
    expect(seen.usage.evicted).toBeGreaterThan(12_000);
    expect(refusedFakes).toBeLessThan(200);
    // The honest session was never pushed out: its replay is still recognised.
    expect(seen.check(1, 'honest', 1, t)).toBe('seen');
    // The idle one was: its reports are refused rather than counted a second time.
    expect(seen.check(1, 'idle', 0, t)).toBe('forgotten');
    expect(seen.check(1, 'fake-0', 0, t)).toBe('forgotten');
    // A new session is not mistaken for a forgotten one (the filter is large enough).
    let mistaken = 0;
    for (let i = 0; i < 1000; i++) if (seen.check(2, `new-${i}`, 0, t) === 'forgotten') mistaken++;
    expect(mistaken).toBeLessThan(20);
  });

  it('forgets quiet sessions once their reports would be refused as too old anyway', () => {
    const seen = new SeenReports();
    seen.check(1, 'a', 0, 0);
    seen.check(1, 'b', 0, 100_000);
    seen.sweep((INGEST_MAX_SKEW_S + 120) * 1000 + 1);
    expect(seen.size).toBe(1);
    // Swept, not pushed out: no refusal remembered (its old reports fail the ts check).
    expect(seen.check(1, 'a', 1, 0)).toBe('new');
  });
});
