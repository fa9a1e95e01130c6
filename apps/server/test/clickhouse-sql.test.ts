import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ClickHouse, isClickHouseUnavailable } from '../src/features/statistics/clickhouse/client.js';
import { chInt, chInts, chName, chString } from '../src/features/statistics/clickhouse/sql.js';

/**
 * The one way values enter ClickHouse SQL (18.16 has no query parameters): strings quoted and escaped,
 * integers only when they are safe integers, names only of our own shape. Against a real ClickHouse when
 * the run has one, every string comes back byte for byte as it went in.
 */

const CH = process.env.TEST_CLICKHOUSE_URL;

const HOSTILE = [
  '',
  "it's",
  "\\'; drop table t; --",
  'back\\slash\\',
  '\\0 and a real NUL: \0 end',
  'line\nbreak\ttab\rreturn',
  "'''",
  '\\\\\\',
  'unicode: Ελληνικά 日本語 😀 \u2028',
  'cdn.example.com/vod/film "x".m3u8?a=1&b=2',
  `{"json": "yes"}`,
  '\x01\x1f\x7f',
];

describe('ClickHouse SQL values', () => {
  it('quotes strings with their quote, backslash and NUL escaped', () => {
    expect(chString("it's")).toBe("'it\\'s'");
    expect(chString('a\\b')).toBe("'a\\\\b'");
    expect(chString('a\0b')).toBe("'a\\0b'");
    expect(chString("\\'")).toBe("'\\\\\\''");
  });

  it('writes integers only when they are safe integers', () => {
    expect(chInt(0)).toBe('0');
    expect(chInt(1_764_000_000)).toBe('1764000000');
    for (const bad of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '1 or 1=1' as unknown as number])
      expect(() => chInt(bad)).toThrow(TypeError);
    expect(chInts([1, 2, 3])).toBe('1, 2, 3');
    expect(chInts([])).toBe('NULL');
    expect(() => chInts([1, 0.5])).toThrow(TypeError);
  });

  it('takes names of letters, digits and underscores only', () => {
    expect(chName('stats_minute')).toBe('stats_minute');
    for (const bad of ['', '1abc', 'a-b', 'a;drop', 'a b', 'a`b', 'a.b'])
      expect(() => chName(bad)).toThrow(TypeError);
  });

  it('tells an unreachable ClickHouse (an outage) from a refused statement', () => {
    expect(
      isClickHouseUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
    ).toBe(true);
    expect(isClickHouseUnavailable(new Error('Timeout error.'))).toBe(true);
    expect(
      isClickHouseUnavailable(
        new Error('Code: 243, e.displayText() = DB::Exception: Cannot reserve 1.00 MiB'),
      ),
    ).toBe(true);
    expect(
      isClickHouseUnavailable(new Error('Code: 47, e.displayText() = DB::Exception: Unknown identifier')),
    ).toBe(false);
  });

  describe.skipIf(!CH)('on a real ClickHouse', () => {
    it('reads every string back as it was written, in a select and through a table', async () => {
      const name = `tlprt_sql_${randomBytes(5).toString('hex')}`;
      const ch = new ClickHouse(`${CH}/${name}`);
      try {
        await ch.ensureDatabase();
        await ch.command('create table t (i UInt32, s String) engine = MergeTree() order by i');
        for (const [i, s] of HOSTILE.entries()) {
          const [row] = await ch.rows<{ s: string }>(`select ${chString(s)} as s`);
          expect(row?.s, JSON.stringify(s)).toBe(s);
          await ch.command(`insert into t select ${chInt(i)}, ${chString(s)}`);
        }
        const rows = await ch.rows<{ i: number; s: string }>('select i, s from t order by i');
        expect(rows.map((r) => r.s)).toEqual(HOSTILE);
        // A hostile value is data: it matches itself and nothing else.
        const [match] = await ch.rows<{ n: string }>(
          `select count() as n from t where s = ${chString(HOSTILE[2] ?? '')}`,
        );
        expect(Number(match?.n)).toBe(1);
        expect(await ch.rows('select 1 as one')).toEqual([{ one: 1 }]);
      } finally {
        await ch.command(`drop database if exists ${name}`).catch(() => undefined);
        await ch.close();
      }
    });
  });
});
