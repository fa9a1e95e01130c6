import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatTime, formatUtc } from './dates';

const AT = '2024-03-03T22:05:09.000Z';

describe('the one date and time format', () => {
  it('dates are day, long month, year', () => {
    expect(formatDate(AT, { utcOffset: 0 })).toBe('3 March 2024');
  });
  it('a fixed offset moves the moment and labels it; seconds when asked', () => {
    expect(formatDateTime(AT, { utcOffset: 2 })).toBe('4 March 2024, 00:05 UTC+2');
    expect(formatTime(AT, { utcOffset: -7 }, true)).toBe('15:05:09 UTC-7');
    expect(formatTime(AT, { utcOffset: 2, label: false })).toBe('00:05');
  });
  it('the password-changed date is in UTC, labelled UTC (spec §2)', () => {
    expect(formatUtc(AT)).toBe('3 March 2024, 22:05 UTC');
  });
  it('an unreadable input is shown as it is', () => {
    expect(formatDate('soon')).toBe('soon');
  });
});
