import { randomInt } from 'node:crypto';
import { STORED_COLUMNS, type StoredColumn } from '@tlprt/contract';
import { type RawBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/index.js';
import { chunks } from '../../lib/chunks.js';
import { DRAWN_COLUMNS, NARROW_CAP, SUMMED_COLUMNS } from './block-format.js';
import { LEVELS, type Level, levelOf, TEAM_MINUTE_BLOCKS } from './levels.js';
import { cappedSum, least } from './sql-parts.js';
import { type StatsDb, SUM_CAP } from './tables.js';

/** The packed blocks' SQL (their format: block-format.ts): the packing, per dialect, and the writes. */

/** The start of the block a row of `level` packs into (what packPoints groups by). */
export const blockStart = ({ time, span }: Level) =>
  sql`(${sql.ref(time)} / ${sql.lit(span)}) * ${sql.lit(span)}`;

/**
 * The aggregate packing the rows of one block (grouped by blockStart): the whole points, or (`cut`)
 * the chart's cut of them. `columnOf` names the column each stored value is read from (a team's own
 * peaks: `peak_*`).
 */
export function packPoints(
  pg: boolean,
  { time, size, span }: Level,
  columnOf = (c: StoredColumn) => c.column,
  cut = false,
) {
  const t = sql.ref(time);
  const columns = cut ? DRAWN_COLUMNS : STORED_COLUMNS;
  const value = (c: StoredColumn) =>
    c.width === 8 ? sql.ref(columnOf(c)) : least(pg, sql.ref(columnOf(c)), NARROW_CAP);
  const index = sql`(${t} % ${sql.lit(span)}) / ${sql.lit(size)}`;
  const sums = SUMMED_COLUMNS.map((c) => cappedSum(pg, sql.ref(c.column), SUM_CAP));
  if (pg) {
    const hex = (v: RawBuilder<unknown>, digits: number) => sql`lpad(to_hex(${v}), ${sql.lit(digits)}, '0')`;
    const parts = [hex(index, 2), ...columns.map((c) => hex(value(c), c.width * 2))];
    const entries = sql`string_agg(${sql.join(parts, sql` || `)}, '' order by ${t})`;
    if (!cut || sums.length === 0) return sql`decode(${entries}, 'hex')`;
    const head = sql.join(
      sums.map((v) => hex(sql`(${v})::bigint`, 16)),
      sql` || `,
    );
    return sql`decode(${head} || ${entries}, 'hex')`;
  }
  const format = `%02x${columns.map((c) => (c.width === 8 ? '%016x' : '%08x')).join('')}`;
  const entries = sql`group_concat(printf(${sql.lit(format)}, ${index}, ${sql.join(columns.map(value))}), '' order by ${t})`;
  if (!cut || sums.length === 0) return sql`unhex(${entries})`;
  const head = sql`printf(${sql.lit('%016x'.repeat(sums.length))}, ${sql.join(sums)})`;
  return sql`unhex(${head} || ${entries})`;
}

/** A block's version as written (BlockCache): random, so that a block written again, by any node or
 *  after the blocks were emptied and refilled, is not taken for one decoded before. */
const newVersion = () => randomInt(2 ** 47);

/** Rewrites the blocks of `ids` (keys or teams: `id` names the column) for the spans between two times
 *  (whole spans), from the rows of `source`. */
export async function writeBlocks(
  db: StatsDb,
  level: Level,
  into: { blocks: string; source: string; id: 'key_id' | 'team_id' },
  ids: readonly number[],
  fromTime: number,
  toTime: number,
): Promise<void> {
  const { span } = level;
  const t = sql.ref(level.time);
  const id = sql.ref(into.id);
  const pg = isPostgres(db);
  const start = blockStart(level);
  for (const part of chunks(ids, 1000)) {
    await sql`
      insert into ${sql.table(into.blocks)} (${id}, start, version, drawn, points)
      select ${id}, ${start}, ${newVersion()}, ${packPoints(pg, level, undefined, true)}, ${packPoints(pg, level)}
      from ${sql.table(into.source)}
      where ${id} in (${sql.join(part)}) and ${t} >= ${fromTime - (fromTime % span)}
        and ${t} < ${toTime - (toTime % span) + span}
      group by ${id}, ${start}
      on conflict (${id}, start) do update
      set version = excluded.version, drawn = excluded.drawn, points = excluded.points`.execute(db);
  }
}

/** Rewrites the blocks of points of size `size` of some keys for the spans between two times. */
export function refreshBlocks(
  db: StatsDb,
  size: number,
  keyIds: readonly number[],
  fromTime: number,
  toTime: number,
): Promise<void> {
  const level = levelOf(size);
  return writeBlocks(
    db,
    level,
    { blocks: level.blocks, source: level.key, id: 'key_id' },
    keyIds,
    fromTime,
    toTime,
  );
}

/** Rewrites every block of every level from the rows it packs (a new layout: layout.ts). What a block
 *  held beyond its rows is older than the rows' retention, which no range reads. */
export async function rewriteAllBlocks(db: StatsDb): Promise<void> {
  const pg = isPostgres(db);
  const all = [
    ...LEVELS.map((l) => ({ level: l, blocks: l.blocks, source: l.key, id: 'key_id' })),
    { level: levelOf(60), blocks: TEAM_MINUTE_BLOCKS, source: 'stats_team_minute', id: 'team_id' },
  ];
  for (const { level, blocks, source, id } of all) {
    const start = blockStart(level);
    await sql`delete from ${sql.table(blocks)}`.execute(db);
    await sql`
      insert into ${sql.table(blocks)} (${sql.ref(id)}, start, version, drawn, points)
      select ${sql.ref(id)}, ${start}, ${newVersion()}, ${packPoints(pg, level, undefined, true)}, ${packPoints(pg, level)}
      from ${sql.table(source)}
      group by ${sql.ref(id)}, ${start}`.execute(db);
  }
}
