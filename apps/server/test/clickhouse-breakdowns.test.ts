import { randomBytes } from 'node:crypto';
import { BREAKDOWN_DIMENSIONS, STORED_COLUMNS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type Db, migrateToLatest, openDatabase } from '../src/db/index.js';
import { insertUserIfAbsent } from '../src/directory/users.js';
import { newKeyHash } from '../src/features/domains/keys/hash.js';
import { insertKey } from '../src/features/domains/keys/queries.js';
import { BlockCache } from '../src/features/statistics/block-cache.js';
import {
  BREAKDOWN_DAY,
  BREAKDOWN_HOUR,
  type BreakdownRow,
  type BucketScope,
  readBreakdown,
  readBreakdownSeries,
  writeBreakdownsLocked,
} from '../src/features/statistics/breakdown-queries.js';
import { readBreakdownDaysCh } from '../src/features/statistics/clickhouse/breakdown-days.js';
import {
  breakdownTables,
  DAY_ARRAY_NAMES,
  readBreakdownCh,
  readBreakdownSeriesCh,
  writeBreakdownsCh,
} from '../src/features/statistics/clickhouse/breakdowns.js';
import { ClickHouse } from '../src/features/statistics/clickhouse/client.js';
import {
  ensureStatsTables,
  NAMES as STORED_NAMES,
  valuesColumn,
} from '../src/features/statistics/clickhouse/schema.js';
import { newWriteId } from '../src/features/statistics/clickhouse/store.js';
import { type StatsDb, statsDb } from '../src/features/statistics/tables.js';
import { insertTeamWithMember } from '../src/features/teams/queries.js';
import { dropClickHouseDatabase } from './helpers/clickhouse.js';
import { dropDatabase, freshDatabaseUrl, PUBLIC_URL } from './helpers/server.js';

/**
 * The breakdowns on ClickHouse answer as the database's (breakdown-queries.ts): the same flushes written
 * into both, every read compared whole. Runs when the suite has a ClickHouse (TEST_CLICKHOUSE_URL), each
 * test file in a ClickHouse database of its own, dropped at the end.
 */

const CH_URL = process.env.TEST_CLICKHOUSE_URL;

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = [
  'cdn.example.com/live/a.m3u8',
  'it\'s "quoted"',
  'back\\slash\\',
  'Ελληνικά 日本語 😀',
  'Other',
  'Unknown',
  'tie-a',
  'tie-b',
];

/** Midnight UTC of a day in the past, so that no window depends on today. */
const DAY0 = Math.floor(Date.now() / 1000 / BREAKDOWN_DAY) * BREAKDOWN_DAY - 10 * BREAKDOWN_DAY;
/** Hours across two day boundaries. */
const HOURS = [-2, -1, 0, 1, 5, 23, 24, 30].map((h) => DAY0 + h * BREAKDOWN_HOUR);
const PEAKS = new Set(STORED_COLUMNS.flatMap((c, i) => (c.merge === 'peak' ? [i] : [])));

/** The database's answer as its callers take it: PostgreSQL answers its bigint sums as strings, which
 *  breakdown.ts and breakdown-series.ts Number(); ClickHouse's are numbers already. */
function asNumbers<T extends object>(rows: T[]): T[] {
  return rows.map(
    (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'name' ? v : Number(v)])) as T,
  );
}

describe.skipIf(!CH_URL)('breakdowns on ClickHouse answer as the database', { timeout: 180_000 }, () => {
  let db: Db;
  let s: StatsDb;
  let dbUrl = '';
  let chUrl = '';
  let ch: ClickHouse;
  let teamA = 0;
  let teamB = 0;
  let keysA: number[] = [];
  let keysB: number[] = [];
  const teamOf = new Map<number, number>();
  /** The names whose drill-downs were compared. */
  const drilled = new Set<string>();

  beforeAll(async () => {
    dbUrl = await freshDatabaseUrl();
    db = openDatabase(loadConfig({ DATABASE_URL: dbUrl, PUBLIC_URL }).database);
    await migrateToLatest(db);
    s = statsDb(db);
    const now = 1_700_000_000;
    const userId = await insertUserIfAbsent(db, {
      email: 'breakdowns@example.test',
      supervisor: false,
      subscription: false,
      createdAt: now,
    });
    if (userId === undefined) throw new Error('no user');
    const team = (name: string) => insertTeamWithMember(db, { name, createdAt: now }, { userId, role: 10 });
    const key = (teamId: number) =>
      insertKey(db, { teamId, domainId: null, keyHash: newKeyHash(), name: '', createdAt: now });
    teamA = await team('a');
    teamB = await team('b');
    keysA = [await key(teamA), await key(teamA), await key(teamA)];
    keysB = [await key(teamB)];
    for (const k of keysA) teamOf.set(k, teamA);
    for (const k of keysB) teamOf.set(k, teamB);

    chUrl = `${new URL(CH_URL as string).origin}/breakdowns_test_${randomBytes(6).toString('hex')}`;
    ch = new ClickHouse(chUrl);
    await ensureStatsTables(ch, breakdownTables());
  });

  afterAll(async () => {
    await ch?.close();
    if (chUrl) await dropClickHouseDatabase(chUrl);
    await db?.destroy();
    if (dbUrl) await dropDatabase(dbUrl);
  });

  /** The same rows into both stores. */
  async function write(rows: BreakdownRow[]) {
    await writeBreakdownsLocked(s, rows);
    await writeBreakdownsCh(ch, teamOf, rows, newWriteId());
  }

  /** A flush's rows: every key of both teams (and one of no team), some of the hours, every dimension,
   *  some names; sums random, peak series a node's count of the hour so far. */
  function flush(seed: number, hours: readonly number[], peakScale = 40): BreakdownRow[] {
    const next = random(seed);
    const rows: BreakdownRow[] = [];
    for (const keyId of [...keysA, ...keysB, 999_999])
      for (const bucket of hours)
        for (let dim = 0; dim < BREAKDOWN_DIMENSIONS.length; dim++) {
          let tie: number[] | undefined;
          for (const name of NAMES) {
            // Two names with the same traffic everywhere: the ordering's tie goes by name.
            if (name === 'tie-b') {
              if (tie) rows.push({ keyId, bucket, dim, name, values: tie });
              continue;
            }
            if (next() < 0.3) continue;
            const values = STORED_COLUMNS.map((_, i) =>
              PEAKS.has(i) ? Math.floor(next() * peakScale) : Math.floor(next() * 1_000_000),
            );
            if (name === 'tie-a') tie = values;
            rows.push({ keyId, bucket, dim, name, values });
          }
        }
    return rows;
  }

  /**
   * The reads of both stores compared: every key set, size, window and (with `dims`) dimension; the
   * drill-down of the first and last names answered and of one absent (of every name in the first set's
   * first dimension: the quoted, backslashed and unicode ones). Answers how many breakdowns had rows.
   */
  async function compareAll(dims: readonly number[] = BREAKDOWN_DIMENSIONS.map((_, i) => i)) {
    const hourRanges: Array<[number, number]> = [
      [HOURS[0] as number, HOURS[HOURS.length - 1] as number],
      [DAY0, DAY0 + 5 * BREAKDOWN_HOUR],
      [DAY0 - BREAKDOWN_HOUR, DAY0 - BREAKDOWN_HOUR],
      [DAY0 + 6 * BREAKDOWN_HOUR, DAY0 + 22 * BREAKDOWN_HOUR],
    ];
    const dayRanges: Array<[number, number]> = [
      [DAY0 - BREAKDOWN_DAY, DAY0 + BREAKDOWN_DAY],
      [DAY0, DAY0],
      [DAY0 + BREAKDOWN_DAY, DAY0 + 3 * BREAKDOWN_DAY],
    ];
    const sets: Array<{ teamId: number; keyIds: number[]; allKeys: boolean }> = [
      { teamId: teamA, keyIds: keysA, allKeys: true },
      { teamId: teamA, keyIds: [keysA[0] as number, keysA[2] as number], allKeys: false },
      { teamId: teamA, keyIds: [keysA[1] as number], allKeys: false },
      { teamId: teamB, keyIds: keysB, allKeys: true },
    ];
    let compared = 0;
    for (const set of sets)
      for (const [size, ranges] of [
        [BREAKDOWN_HOUR, hourRanges],
        [BREAKDOWN_DAY, dayRanges],
      ] as const)
        for (const [from, to] of ranges)
          for (const dim of dims) {
            const q: BucketScope = { ...set, size, dim, from, to };
            const want = asNumbers(await readBreakdown(s, q));
            const rows = await readBreakdownCh(ch, q);
            expect(rows, JSON.stringify(q)).toEqual(want);
            if (size === BREAKDOWN_DAY) {
              // Merged here from the days, read (then cached) at one version each: the same rows.
              const versions = new Map<number, number>();
              for (let d = from; d <= to; d += BREAKDOWN_DAY) versions.set(d, 1);
              const blocks = { versions, cache: new BlockCache(2 ** 24) };
              expect(await readBreakdownDaysCh(ch, q, blocks), JSON.stringify(q)).toEqual(want);
              expect(await readBreakdownDaysCh(ch, q, blocks), JSON.stringify(q)).toEqual(want);
            }
            // Numbers, not ClickHouse's strings of UInt64 (the name is the one string).
            expect(Object.values(rows[0] ?? {}).filter((v) => typeof v === 'string')).toEqual(
              rows[0] ? [rows[0].name] : [],
            );
            const every = set === sets[0] && dim === dims[0];
            const names = every ? want.map((r) => r.name) : [want[0]?.name, want[want.length - 1]?.name];
            const drill = [...new Set(names), 'absent'].flatMap((name) =>
              name === undefined ? [] : [{ ...q, name }],
            );
            // ClickHouse's answers side by side (each is a few ms of work and more of waiting).
            const got = await Promise.all(drill.map((series) => readBreakdownSeriesCh(ch, series)));
            for (const [i, series] of drill.entries()) {
              drilled.add(series.name);
              expect(got[i], JSON.stringify(series)).toEqual(asNumbers(await readBreakdownSeries(s, series)));
            }
            if (want.length > 0) compared++;
          }
    return compared;
  }

  it('answers every breakdown and drill-down as the database, over several flushes', async () => {
    // Node 1's flushes, then node 2's counts of the same hours (smaller peaks: the larger stays).
    await write(flush(1, HOURS.slice(0, 4)));
    await write(flush(2, HOURS.slice(2, 6)));
    await write(flush(3, HOURS.slice(0, 6), 10));
    await write(flush(4, HOURS));
    // A key-hour above the 8-byte cap (2^49 + 2^50: held at 2^50), and 4-byte columns whose team sum is
    // above theirs (3 × (2^30 - 5): held at 2^31 - 1, peaks too). A key-hour's own 4-byte sum stays
    // below 2^31: PostgreSQL's writeBreakdowns fails with "integer out of range" above it.
    const k = keysA[0] as number;
    const big = (times: number) => STORED_COLUMNS.map((c) => (c.width === 8 ? 2 ** 49 * times : 2 ** 30 - 5));
    await write([{ keyId: k, bucket: HOURS[3] as number, dim: 0, name: 'huge', values: big(1) }]);
    await write([{ keyId: k, bucket: HOURS[3] as number, dim: 0, name: 'huge', values: big(2) }]);
    await write([
      { keyId: keysA[1] as number, bucket: HOURS[3] as number, dim: 0, name: 'huge', values: big(1) },
    ]);
    const compared = await compareAll();
    expect(compared).toBeGreaterThan(100);
    expect([...NAMES, 'huge'].filter((n) => !drilled.has(n))).toEqual([]);
    // Nothing of the key of no team reached ClickHouse.
    const stray = await ch.rows<{ n: string }>(
      'select count() as n from stats_breakdown_hour where key_id = 999999',
    );
    expect(stray).toEqual([{ n: '0' }]);
  });

  it('counts a flush once when its write failed before the sums and was retried', async () => {
    const rows = flush(5, HOURS.slice(1, 5));
    await writeBreakdownsLocked(s, rows);
    for (const failing of [
      /^\s*insert into stats_breakdown_day/,
      /^\s*insert into stats_team_breakdown_day/,
    ]) {
      let failed = false;
      const flaky = new Proxy(ch, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver);
          if (prop !== 'command') return typeof value === 'function' ? value.bind(target) : value;
          return async (sql: string) => {
            if (!failed && failing.test(sql)) {
              failed = true;
              throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
            }
            return target.command(sql);
          };
        },
      });
      await expect(writeBreakdownsCh(flaky, teamOf, rows, newWriteId())).rejects.toThrow(/ECONNREFUSED/);
      expect(failed).toBe(true);
    }
    // The caller writes the rows again: the sums are counted once.
    await writeBreakdownsCh(ch, teamOf, rows, newWriteId());
    // The days recomputed after the sums failing changes nothing the write answers for.
    let late = false;
    const lateFail = new Proxy(ch, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== 'command') return typeof value === 'function' ? value.bind(target) : value;
        return async (sql: string) => {
          if (late && /^\s*insert into stats_(team_)?breakdown_day/.test(sql)) throw new Error('late');
          if (/^\s*insert into stats_breakdown_hour/.test(sql)) late = true;
          return target.command(sql);
        };
      },
    });
    const more = flush(6, HOURS.slice(3, 7));
    await writeBreakdownsLocked(s, more);
    await writeBreakdownsCh(lateFail, teamOf, more, newWriteId());
    expect(late).toBe(true);
    await compareAll([0, 2]);
  });

  it('keeps the days whole when two nodes write at the same moment', async () => {
    const a = flush(7, HOURS.slice(2, 6));
    const b = flush(8, HOURS.slice(2, 6));
    await writeBreakdownsLocked(s, a);
    await writeBreakdownsLocked(s, b);
    await Promise.all([
      writeBreakdownsCh(ch, teamOf, a, newWriteId()),
      writeBreakdownsCh(ch, teamOf, b, newWriteId()),
    ]);
    await compareAll([1, 4]);
  });
});

describe.skipIf(!CH_URL)('breakdown tables on ClickHouse', () => {
  it('gain the stored columns they lack, with their types, and their array of the new layout, as a migration adds a series', async () => {
    const url = `${new URL(CH_URL as string).origin}/breakdowns_cols_${randomBytes(6).toString('hex')}`;
    const ch = new ClickHouse(url);
    try {
      await ensureStatsTables(ch, breakdownTables());
      const columns = () =>
        ch.rows<{ table: string; name: string; type: string }>(
          `select table, name, type from system.columns where database = '${ch.database}'
           and table like '%breakdown%' order by table, name`,
        );
      const made = await columns();
      expect(made.length).toBeGreaterThan(4 * STORED_COLUMNS.length);
      const last = STORED_COLUMNS[STORED_COLUMNS.length - 1]?.column as string;
      // The tables as a release before that series made them: without its column, their arrays (the
      // days' sums) of the layout before it, and a day written then.
      const sums = DAY_ARRAY_NAMES[0] as string[];
      expect(sums).toContain(last);
      const [sumArray] = valuesColumn(sums);
      const [oldArray, oldType] = valuesColumn(sums.filter((n) => n !== last));
      const before = STORED_NAMES.slice(0, -1);
      for (const { name, columns: cols } of breakdownTables()) {
        if (cols.some(([c]) => c === sumArray)) {
          await ch.command(`alter table ${name} drop column ${sumArray}`);
          await ch.command(`alter table ${name} add column ${oldArray} ${oldType}`);
        }
        await ch.command(`alter table ${name} drop column ${last}`);
      }
      await ch.command(`insert into stats_breakdown_day (team_id, key_id, bucket, dim, name, ${before.join(', ')}, version)
        select 1, 1, 86400, 0, 'old', ${before.map(() => '7').join(', ')}, 1`);
      expect((await columns()).length).toBe(made.length - breakdownTables().length);
      await ensureStatsTables(ch, breakdownTables());
      expect(await columns()).toEqual(made);
      // The day written before reads in the new layout: the new series 0.
      const [old] = await ch.rows<{ v: string[] }>(`select ${sumArray} as v from stats_breakdown_day`);
      expect(old?.v.map(Number)).toEqual([...sums.slice(0, -1).map(() => 7), 0]);
    } finally {
      await ch.close();
      await dropClickHouseDatabase(url);
    }
  });
});
