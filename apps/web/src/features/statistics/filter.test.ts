import { BREAKDOWN_VALUE_MAX } from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import { filterKey, filterLabel, parseFilter, withFilter } from './filter';

const q = (s: string) => new URLSearchParams(s);

describe('breakdown filter in the URL', () => {
  it('reads by and value; anything else is no filter', () => {
    expect(parseFilter(q('range=day&by=country&value=FR'))).toEqual({ by: 'country', value: 'FR' });
    expect(parseFilter(q('by=stream&value=cdn.example.com%2Flive%2Fa.m3u8'))).toEqual({
      by: 'stream',
      value: 'cdn.example.com/live/a.m3u8',
    });
    for (const bad of ['by=planet&value=Mars', 'by=country', 'value=FR', 'by=country&value=', ''])
      expect(parseFilter(q(bad))).toBeNull();
    expect(parseFilter(q(`by=stream&value=${'x'.repeat(BREAKDOWN_VALUE_MAX + 1)}`))).toBeNull();
  });

  it('sets and removes both parts, keeping the rest of the view', () => {
    const set = withFilter(q('range=week&list=2'), { by: 'os', value: 'iOS' });
    expect(set.toString()).toBe('range=week&list=2&by=os&value=iOS');
    expect(withFilter(set, null).toString()).toBe('range=week&list=2');
    expect(parseFilter(set)).toEqual({ by: 'os', value: 'iOS' });
  });

  it('names the filter as the chip shows it', () => {
    expect(filterLabel({ by: 'country', value: 'FR' })).toBe('Country: France (FR)');
    expect(filterLabel({ by: 'stream', value: 'cdn.example.com/a.m3u8' })).toBe(
      'Stream: cdn.example.com/a.m3u8',
    );
    expect(filterKey(null)).toBe('');
    expect(filterKey({ by: 'os', value: 'iOS' })).toBe('os=iOS');
  });
});
