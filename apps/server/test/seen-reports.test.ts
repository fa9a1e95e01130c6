import { describe, expect, it } from 'vitest';
import { SeenReports } from '../src/features/statistics/seen-reports.js';

describe('seen reports (seq de-duplication)', () => {
  it('counts a (key, session, seq) once, per key', () => {
    const seen = new SeenReports();
    expect(seen.firstTime(1, 's', 0, 0)).toBe(true);
    expect(seen.firstTime(1, 's', 0, 0)).toBe(false);
    expect(seen.firstTime(2, 's', 0, 0)).toBe(true);
  });

  it('holds at most maxSessions sessions: a flood of made-up ids forgets the oldest, not memory', () => {
    const seen = new SeenReports(3);
    for (const id of ['a', 'b', 'c', 'd', 'e']) expect(seen.firstTime(1, id, 0, 0)).toBe(true);
    expect(seen.size).toBe(3);
    // The newest are still remembered; the oldest went.
    expect(seen.firstTime(1, 'e', 0, 0)).toBe(false);
    expect(seen.firstTime(1, 'a', 0, 0)).toBe(true);
  });
});
