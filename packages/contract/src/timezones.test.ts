import { describe, expect, it } from 'vitest';
import { findTimeZone, TIME_ZONES, timeZoneLabel, timeZonesByOffset, ZUpdateUserRequest } from './index.js';

const names = (at: Date) => timeZonesByOffset(TIME_ZONES, at).map((z) => z.name);

describe('time zones by offset', () => {
  it('orders by the offset of the moment, then by city, with UTC first at +00:00', () => {
    const january = new Date('2026-01-15T12:00:00Z');
    const list = names(january);
    // Darwin keeps +09:30 all year; Adelaide is +10:30 in the southern summer.
    expect(list.indexOf('Australia/Darwin')).toBeLessThan(list.indexOf('Australia/Adelaide'));
    expect(list.indexOf('UTC')).toBeLessThan(list.indexOf('Europe/Warsaw'));
    expect(list.indexOf('UTC')).toBeLessThan(list.indexOf('Europe/London'));
    const offsets = timeZonesByOffset(TIME_ZONES, january).map((z) => z.offsetMinutes);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(list).toHaveLength(TIME_ZONES.length);
  });

  it('moves a zone with daylight saving', () => {
    const january = names(new Date('2026-01-15T12:00:00Z'));
    const july = names(new Date('2026-07-15T12:00:00Z'));
    // Adelaide (+10:30 → +09:30 in July) falls back beside Darwin; Brisbane (+10) is after both in July.
    expect(january.indexOf('Australia/Adelaide')).toBeGreaterThan(january.indexOf('Australia/Brisbane'));
    expect(july.indexOf('Australia/Adelaide')).toBeLessThan(july.indexOf('Australia/Brisbane'));
  });

  it('labels a zone by its offset and city; keeps the ids', () => {
    const at = new Date('2026-01-15T12:00:00Z');
    expect(timeZoneLabel('Australia/Darwin', at)).toBe('(UTC+09:30) Darwin');
    expect(timeZoneLabel('America/Argentina/Buenos_Aires', at)).toBe('(UTC-03:00) Buenos Aires');
    expect(timeZoneLabel('UTC', at)).toBe('UTC');
    const byId = timeZonesByOffset(TIME_ZONES, at).find((z) => z.id === 37);
    expect(byId?.name).toBe('UTC');
    expect(findTimeZone(37)?.name).toBe('UTC');
  });

  it('the profile takes a known zone id or null, and refuses an unknown one', () => {
    expect(ZUpdateUserRequest.safeParse({ timezoneId: 70 }).success).toBe(true);
    expect(ZUpdateUserRequest.safeParse({ timezoneId: null }).success).toBe(true);
    const bad = ZUpdateUserRequest.safeParse({ timezoneId: 999 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['timezoneId']);
  });
});
