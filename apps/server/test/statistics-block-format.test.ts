import { POINT_VALUES, STORED_COLUMNS, type StoredColumn } from '@tlprt/contract';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type Db, migrateToLatest, openDatabase } from '../src/db/index.js';
import { insertUserIfAbsent } from '../src/directory/users.js';
import { newKeyHash } from '../src/features/domains/keys/hash.js';
import { insertKey } from '../src/features/domains/keys/queries.js';
import {
  addBlock,
  BLOCK_LAYOUT,
  DRAWN_COLUMNS,
  decodeBlock,
  NARROW_CAP,
  READ,
  SUMMED_COLUMNS,
} from '../src/features/statistics/block-format.js';
import { refreshBlocks } from '../src/features/statistics/block-queries.js';
import { refreshRollups, upsertMinutes } from '../src/features/statistics/queries.js';
import { minuteCap } from '../src/features/statistics/sql-parts.js';
import { statsDb } from '../src/features/statistics/tables.js';
import { insertTeamWithMember } from '../src/features/teams/queries.js';
import { dropDatabase, freshDatabaseUrl, PUBLIC_URL } from './helpers/server.js';

// The packed blocks (block-format.ts): bytes built by the documented layout decode back to their
// values, and the database's own packing (block-queries.ts packPoints, SQLite's printf and
// PostgreSQL's to_hex) gives the same bytes for the same rows.

/** One entry by the layout: its index in the span (1 byte), then each column in its width, big-endian. */
function entry(index: number, columns: readonly StoredColumn[], values: readonly number[]): number[] {
  const out = [index];
  columns.forEach((c, i) => {
    const v = BigInt(values[i] ?? 0);
    for (let b = c.width - 1; b >= 0; b--) out.push(Number((v >> BigInt(8 * b)) & 0xffn));
  });
  return out;
}
/** 8 bytes big-endian (a cut's head). */
const wide = (v: number) => entry(0, [{ width: 8 } as StoredColumn], [v]).slice(1);

/** A point's values (STORED_COLUMNS order): distinct, near each column's cap for some. */
const pointOf = (seed: number) =>
  STORED_COLUMNS.map((c, i) => (c.width === 8 ? 2 ** 49 + seed * 1_000 + i : (seed * 7 + i) % 1000));

describe('block format: bytes by the layout', () => {
  const slots = 60;
  const points = new Map([
    [0, pointOf(1)],
    [5, pointOf(2)],
    [59, pointOf(3)],
  ]);
  const whole = Uint8Array.from([...points].flatMap(([i, v]) => entry(i, STORED_COLUMNS, v)));

  it('names the layout after the series table and sizes an entry by it', () => {
    expect(READ.whole.size).toBe(1 + STORED_COLUMNS.reduce((n, c) => n + c.width, 0));
    expect(BLOCK_LAYOUT).toContain(STORED_COLUMNS.map((c) => `${c.column}:${c.width}`).join(','));
    expect(DRAWN_COLUMNS.length + SUMMED_COLUMNS.length).toBe(STORED_COLUMNS.length);
    expect(SUMMED_COLUMNS.every((c) => c.merge === 'sum')).toBe(true);
  });

  it('decodes the whole points back, 0 where no row was', () => {
    const values = decodeBlock(whole, READ.whole, slots);
    expect(values.length).toBe(slots * POINT_VALUES);
    for (let s = 0; s < slots; s++) {
      const got = Array.from(values.subarray(s * POINT_VALUES, (s + 1) * POINT_VALUES));
      expect(got).toEqual(points.get(s) ?? new Array(POINT_VALUES).fill(0));
    }
  });

  it("decodes a chart's cut: the sums of the columns not drawn, then the drawn ones a point", () => {
    const drawnOf = (v: number[]) => DRAWN_COLUMNS.map((c) => v[STORED_COLUMNS.indexOf(c)] as number);
    const sums = SUMMED_COLUMNS.map((c) =>
      [...points.values()].reduce((n, v) => n + (v[STORED_COLUMNS.indexOf(c)] as number), 0),
    );
    const cut = Uint8Array.from([
      ...sums.flatMap(wide),
      ...[...points].flatMap(([i, v]) => entry(i, DRAWN_COLUMNS, drawnOf(v))),
    ]);
    const values = decodeBlock(cut, READ.cut, slots);
    expect(Array.from(values.subarray(0, sums.length))).toEqual(sums);
    const columns = DRAWN_COLUMNS.length;
    for (let s = 0; s < slots; s++) {
      const at = sums.length + s * columns;
      const p = points.get(s);
      expect(Array.from(values.subarray(at, at + columns))).toEqual(
        p ? drawnOf(p) : new Array(columns).fill(0),
      );
    }
  });

  it('reads the largest values each width holds', () => {
    const max = STORED_COLUMNS.map((c) => (c.width === 8 ? 2 ** 53 - 1 : NARROW_CAP));
    const values = decodeBlock(Uint8Array.from(entry(0, STORED_COLUMNS, max)), READ.whole, 1);
    expect(Array.from(values)).toEqual(max);
  });

  it('adds or subtracts a block within the window only, answering its viewers', () => {
    const values = decodeBlock(whole, READ.whole, slots);
    const viewers = READ.whole.viewersColumn;
    const start = 3_600;
    // The window: slots 5 to 9 of the block.
    const from = start + 5 * 60;
    const n = 5;
    const out = new Float64Array(n * POINT_VALUES);
    const summed = new Float64Array(POINT_VALUES);
    expect(addBlock(out, summed, from, 60, n, start, values, 1, READ.whole)).toBe(
      (points.get(5) as number[])[viewers],
    );
    expect(Array.from(out.subarray(0, POINT_VALUES))).toEqual(points.get(5));
    expect(out.subarray(POINT_VALUES).every((v) => v === 0)).toBe(true);
    addBlock(out, summed, from, 60, n, start, values, -1, READ.whole);
    expect(out.every((v) => v === 0)).toBe(true);
    expect(summed.every((v) => v === 0)).toBe(true);
  });
});

describe('block format: as the database packs it', () => {
  let db: Db | undefined;
  let url = '';
  afterAll(async () => {
    await db?.destroy();
    if (url) await dropDatabase(url);
  });

  it('decodes the blocks written from stored rows back to those rows, capped as stored', async () => {
    url = await freshDatabaseUrl();
    db = openDatabase(loadConfig({ DATABASE_URL: url, PUBLIC_URL }).database);
    await migrateToLatest(db);
    const now = 1_700_000_000;
    const userId = await insertUserIfAbsent(db, {
      email: 'b@example.test',
      supervisor: false,
      subscription: false,
      createdAt: now,
    });
    if (userId === undefined) throw new Error('no user');
    const teamId = await insertTeamWithMember(db, { name: 'blocks', createdAt: now }, { userId, role: 10 });
    const keyId = await insertKey(db, {
      teamId,
      domainId: null,
      keyHash: newKeyHash(),
      name: '',
      createdAt: now,
    });
    const hour = Math.floor(now / 86_400) * 86_400;
    const rows = [
      { minute: hour + 60, values: pointOf(1) },
      { minute: hour + 7 * 60, values: pointOf(2) },
      // Above every column's cap: stored (and packed) at the cap.
      { minute: hour + 59 * 60, values: STORED_COLUMNS.map(() => 2 ** 52) },
    ];
    const s = statsDb(db);
    await upsertMinutes(
      s,
      rows.map((r) => ({ keyId, ...r })),
    );
    await refreshBlocks(s, 60, [keyId], hour, hour + 3599);
    await refreshRollups(s, 1200, [keyId], hour, hour);
    await refreshBlocks(s, 1200, [keyId], hour, hour);
    const stored = rows.map((r, i) => (i === 2 ? STORED_COLUMNS.map((c) => minuteCap(c)) : r.values));

    const block = await sql<{ points: Uint8Array; drawn: Uint8Array }>`
      select points, drawn from stats_minute_blocks where key_id = ${keyId} and start = ${hour}`.execute(db);
    const { points, drawn } = block.rows[0] as { points: Uint8Array; drawn: Uint8Array };
    expect(points.byteLength).toBe(3 * READ.whole.size);
    const values = decodeBlock(points, READ.whole, 60);
    rows.forEach((r, i) => {
      const slot = (r.minute - hour) / 60;
      expect(Array.from(values.subarray(slot * POINT_VALUES, (slot + 1) * POINT_VALUES))).toEqual(stored[i]);
    });
    const cut = decodeBlock(drawn, READ.cut, 60);
    SUMMED_COLUMNS.forEach((c, j) => {
      const k = STORED_COLUMNS.indexOf(c);
      expect(cut[j]).toBe(stored.reduce((n, v) => n + (v[k] as number), 0));
    });

    // The 20-minute block of the day: the first bucket sums its two minutes (peaks: the larger).
    const day = await sql<{ points: Uint8Array }>`
      select points from stats_20m_blocks where key_id = ${keyId} and start = ${hour}`.execute(db);
    const twenty = decodeBlock((day.rows[0] as { points: Uint8Array }).points, READ.whole, 72);
    const first = STORED_COLUMNS.map((c, k) =>
      c.merge === 'sum'
        ? (stored[0]?.[k] as number) + (stored[1]?.[k] as number)
        : Math.max(stored[0]?.[k] as number, stored[1]?.[k] as number),
    );
    expect(Array.from(twenty.subarray(0, POINT_VALUES))).toEqual(first);
  });
});
