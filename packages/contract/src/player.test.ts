import { describe, expect, it } from 'vitest';
import { parseIntegrityRange, ZIntegrityQuery, ZIntegrityResponse } from './endpoints/player.js';
import { issuesToFieldErrors } from './forms.js';
import { MSG, MSG_INTEGRITY } from './messages.js';
import { isIntegrityBody, PLAYER_PATHS } from './player.js';

const hex = 'a'.repeat(64);

describe('integrity answer: the plugin guard and the schema agree', () => {
  it.each<[string, unknown]>([
    ['a hash', { sha256: hex }],
    ['digits and letters', { sha256: '0123456789abcdef'.repeat(4) }],
    ['extra fields', { sha256: hex, more: 1 }],
    ['upper case', { sha256: hex.toUpperCase() }],
    ['63 digits', { sha256: hex.slice(1) }],
    ['65 digits', { sha256: `${hex}0` }],
    ['not hex', { sha256: 'g'.repeat(64) }],
    ['a number', { sha256: 1 }],
    ['no field', {}],
    ['null', null],
    ['a string', hex],
    ['an array', [hex]],
    ['a message', { message: 'The key is not usable here' }],
  ])('%s', (_name, body) => {
    const valid = ZIntegrityResponse.safeParse(body).success;
    expect(isIntegrityBody(body)).toBe(valid);
  });

  it('accepts exactly the well-formed ones', () => {
    expect(isIntegrityBody({ sha256: hex })).toBe(true);
    expect(isIntegrityBody({ sha256: hex.toUpperCase() })).toBe(false);
  });

  it('has its path among the plugin paths', () => {
    expect(PLAYER_PATHS.integrity).toBe('/player/v1/integrity');
  });
});

describe('integrity query', () => {
  const errorsOf = (q: unknown) => {
    const r = ZIntegrityQuery.safeParse(q);
    return r.success ? {} : issuesToFieldErrors(r.error.issues);
  };

  it('takes a key, an http(s) URL and an optional range', () => {
    expect(errorsOf({ key: 'k', url: 'https://cdn.example.com/a/seg-1.ts?x=1' })).toEqual({});
    expect(errorsOf({ key: 'k', url: 'http://cdn.example.com/seg.ts', range: '0-0' })).toEqual({});
  });

  it.each([
    ['missing', undefined, MSG.required],
    ['not web', 'ftp://cdn.example.com/seg.ts', MSG_INTEGRITY.url],
    ['relative', '/seg.ts', MSG_INTEGRITY.url],
    ['with credentials', 'https://u:p@cdn.example.com/seg.ts', MSG_INTEGRITY.url],
    ['too long', `https://cdn.example.com/${'a'.repeat(2048)}`, MSG_INTEGRITY.url],
  ])('names the url when it is %s', (_name, url, message) => {
    expect(errorsOf({ key: 'k', url })).toEqual({ url: message });
  });

  it.each(['5-4', '-1-3', '1-', 'a-b', '1-2-3', '0-1234567890123456', ''])(
    'refuses the range %j',
    (range) => {
      expect(errorsOf({ key: 'k', url: 'https://cdn.example.com/s.ts', range })).toEqual({
        range: MSG_INTEGRITY.range,
      });
    },
  );

  it('parses ranges with the end included', () => {
    expect(parseIntegrityRange('10-19')).toEqual({ start: 10, end: 19 });
    expect(parseIntegrityRange('7-7')).toEqual({ start: 7, end: 7 });
    expect(parseIntegrityRange('8-7')).toBeUndefined();
  });
});
