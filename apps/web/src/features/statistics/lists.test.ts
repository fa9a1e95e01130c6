import { MSG_STATS } from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import { nextListName } from './lists';

describe('nextListName', () => {
  it('names a new list "New list" (spec §2), then numbers it while the name is taken', () => {
    expect(MSG_STATS.newList).toBe('New list');
    expect(nextListName([MSG_STATS.activeTraffic])).toBe('New list');
    expect(nextListName([MSG_STATS.activeTraffic, 'New list'])).toBe('New list 2');
    expect(nextListName(['Active traffic', ' New list ', 'New list 2', 'Mine'])).toBe('New list 3');
    // A renamed first one frees the plain name again.
    expect(nextListName(['Active traffic', 'Renamed', 'New list 2'])).toBe('New list');
  });
});
