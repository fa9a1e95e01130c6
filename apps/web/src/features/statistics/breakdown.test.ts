import { BREAKDOWN_OTHER, BREAKDOWN_UNKNOWN, emptySeries, type TBreakdownRow } from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import {
  BREAKDOWN_TABS,
  breakdownFileName,
  breakdownName,
  breakdownWindow,
  DEFAULT_SORT,
  nextSort,
  p2pShareOf,
  sortRows,
  splitName,
  trafficOf,
} from './breakdown';

const row = (name: string, cdn: number, p2p: number, over: Partial<TBreakdownRow> = {}): TBreakdownRow => ({
  ...emptySeries(),
  name,
  cdnDwSize: cdn,
  p2pDwSize: p2p,
  ...over,
});
const names = (rows: readonly TBreakdownRow[]) => rows.map((r) => r.name);

describe('breakdown helpers', () => {
  it('has a tab per dimension of the contract, in its order', () => {
    expect(BREAKDOWN_TABS.map((t) => t.by)).toEqual(['stream', 'country', 'network', 'browser', 'os']);
    expect(BREAKDOWN_TABS.map((t) => t.label)).toEqual([
      'Streams',
      'Countries',
      'Networks',
      'Browsers',
      'Systems',
    ]);
  });

  it('shares P2P of CDN + P2P (+ NODR), none when nothing was served', () => {
    expect(p2pShareOf(row('a', 3000, 1000))).toBe(0.25);
    expect(p2pShareOf(row('a', 1000, 1000, { nodrDwSize: 2000 }))).toBe(0.25);
    expect(trafficOf(row('a', 1000, 1000, { nodrDwSize: 2000 }))).toBe(4000);
    expect(p2pShareOf(row('a', 0, 0))).toBeNull();
  });

  it('names countries in English with their code, and leaves everything else as answered', () => {
    expect(breakdownName('country', 'US')).toBe('United States (US)');
    expect(breakdownName('country', 'DE')).toBe('Germany (DE)');
    expect(breakdownName('country', BREAKDOWN_OTHER)).toBe('Other');
    expect(breakdownName('country', BREAKDOWN_UNKNOWN)).toBe('Unknown');
    // Codes DisplayNames refuses or cannot name stay codes.
    expect(breakdownName('country', 'A1')).toBe('A1');
    expect(breakdownName('country', 'XX')).toBe('XX');
    expect(breakdownName('network', 'AS15169 Google LLC')).toBe('AS15169 Google LLC');
    expect(breakdownName('browser', 'US')).toBe('US');
  });

  it('sorts by traffic by default, largest first, ties by name', () => {
    const rows = [row('b', 100, 0), row('a', 50, 50), row('c', 10, 500), row('d', 0, 0)];
    expect(names(sortRows(rows, 'stream', DEFAULT_SORT))).toEqual(['c', 'a', 'b', 'd']);
    // A copy: the answer is left as it came.
    expect(names(rows)).toEqual(['b', 'a', 'c', 'd']);
  });

  it('sorts by the names shown (countries by their English name), ties by traffic', () => {
    const rows = [row('US', 1, 0), row('DE', 1, 0), row(BREAKDOWN_UNKNOWN, 1, 0), row('AT', 1, 0)];
    expect(names(sortRows(rows, 'country', { key: 'name', dir: 'asc' }))).toEqual([
      'AT',
      'DE',
      'US',
      'Unknown',
    ]);
    expect(names(sortRows(rows, 'country', { key: 'name', dir: 'desc' }))).toEqual([
      'Unknown',
      'US',
      'DE',
      'AT',
    ]);
    // Numbers inside names in their numeric order.
    const nets = [row('AS100 B', 1, 0), row('AS20 A', 1, 0)];
    expect(names(sortRows(nets, 'network', { key: 'name', dir: 'asc' }))).toEqual(['AS20 A', 'AS100 B']);
  });

  it('puts what cannot be computed last in either direction', () => {
    const rows = [
      row('none', 10, 0),
      row('slow', 1, 0, { startupP50Ms: 2000, playMs: 900, stallMs: 100 }),
      row('fast', 1, 0, { startupP50Ms: 300, playMs: 1000 }),
      row('empty', 0, 0),
    ];
    expect(names(sortRows(rows, 'stream', { key: 'startup', dir: 'desc' }))).toEqual([
      'slow',
      'fast',
      'none',
      'empty',
    ]);
    expect(names(sortRows(rows, 'stream', { key: 'startup', dir: 'asc' }))).toEqual([
      'fast',
      'slow',
      'none',
      'empty',
    ]);
    expect(names(sortRows(rows, 'stream', { key: 'rebuffering', dir: 'asc' }))).toEqual([
      'fast',
      'slow',
      'none',
      'empty',
    ]);
    expect(names(sortRows(rows, 'stream', { key: 'share', dir: 'asc' }))).toEqual([
      'none',
      'fast',
      'slow',
      'empty',
    ]);
  });

  it('flips the sorted column, starts another with its natural order', () => {
    expect(nextSort(DEFAULT_SORT, 'viewers')).toEqual({ key: 'viewers', dir: 'desc' });
    expect(nextSort({ key: 'viewers', dir: 'desc' }, 'viewers')).toEqual({ key: 'viewers', dir: 'asc' });
    expect(nextSort({ key: 'viewers', dir: 'asc' }, 'viewers')).toEqual({ key: 'viewers', dir: 'desc' });
    expect(nextSort({ key: 'viewers', dir: 'asc' }, 'name')).toEqual({ key: 'name', dir: 'asc' });
  });

  it("states the window of whole hours in the team's offset, of whole days in UTC", () => {
    // 2023-11-14 21:00:00 UTC to 2023-11-15 20:59:59 UTC.
    const start = Date.UTC(2023, 10, 14, 21) / 1000;
    const hours = { step: 3600, startTimestamp: start, endTimestamp: start + 86_400 - 1 };
    expect(breakdownWindow(hours, 2)).toBe(
      'Rows are whole hours: 14 November 2023, 23:00 – 15 November 2023, 22:59 UTC+2.',
    );
    expect(breakdownWindow({ ...hours, endTimestamp: start + 2 * 3600 - 1 }, 0)).toBe(
      'Rows are whole hours: 14 November 2023, 21:00 – 22:59 UTC+0.',
    );
    const day = Date.UTC(2023, 10, 8) / 1000;
    const days = { step: 86_400, startTimestamp: day, endTimestamp: day + 8 * 86_400 - 1 };
    expect(breakdownWindow(days, 2)).toBe(
      'Rows are whole UTC days: 8 November 2023 – 15 November 2023 (UTC).',
    );
    expect(breakdownWindow({ ...days, endTimestamp: day + 86_400 - 1 }, -7)).toBe(
      'Rows are whole UTC days: 8 November 2023 (UTC).',
    );
  });

  it("keeps the end of a stream's path whole; other names are cut at their end", () => {
    expect(splitName('stream', 'cdn.example.com/live/hd/master.m3u8')).toEqual([
      'cdn.example.com/live',
      '/hd/master.m3u8',
    ]);
    // Two parts too long: the last alone.
    const long = 'media.example.com/events/conference-keynote-day-two/master.m3u8';
    expect(splitName('stream', long)).toEqual([
      'media.example.com/events/conference-keynote-day-two',
      '/master.m3u8',
    ]);
    // No path, or a last part too long: its last 16 characters.
    expect(splitName('stream', BREAKDOWN_UNKNOWN)).toEqual(['', BREAKDOWN_UNKNOWN]);
    const blob = `cdn.example.com/${'x'.repeat(60)}`;
    expect(splitName('stream', blob).join('')).toBe(blob);
    expect(splitName('stream', blob)[1]).toHaveLength(16);
    expect(splitName('network', 'AS15169 Google LLC')).toEqual(['AS15169 Google LLC', '']);
  });

  it('names the file after the tab, the range and the date', () => {
    expect(breakdownFileName('os', 'week', new Date(Date.UTC(2024, 2, 3, 12)))).toBe(
      'breakdown-os-week-2024-03-03.csv',
    );
  });
});
