import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { chunks } from '../../../lib/chunks.js';
import type { BlockCache, NamedBlock } from '../block-cache.js';
import { BREAKDOWN_DAY } from '../breakdown-queries.js';
import { LEVELS, levelOf, POINT_SIZES } from '../levels.js';
import { RETENTION_S, type StatsDb } from '../tables.js';
import { TEAM_DAY } from './breakdowns.js';
import type { ClickHouse } from './client.js';
import { chInt, chName, chString } from './sql.js';

/**
 * Which blocks of a team's points changed in ClickHouse, kept in the database (stats_clickhouse_blocks,
 * migration 0025) as the database's own blocks carry their version (BlockCache): a read asks the
 * database for the versions of its blocks, takes the rows of those it read before at the same version
 * from the node's BlockCache, and reads from ClickHouse only the others. A chart asked again reads
 * from ClickHouse only the blocks written since (the current one, on live traffic), or nothing.
 *
 * The blocks are the database's (levels.ts: an hour of minutes, a day of 20-minute points, 3 days of
 * hours), one version for a team's rows and its keys' rows alike; a breakdown day is a block of its
 * own (size BREAKDOWN_DAY), one version for every dimension of it. A writer sets new versions for the
 * blocks it rewrites before it writes and again after (setVersions): a read that takes a version and
 * then the rows keeps rows as new as that version, or a version that changes once the write is done.
 * A block with no version holds no rows (adoptBlocks gives one to every block written before the
 * versions were kept): a read skips it.
 */

/** The block versions a read takes its cached rows by, and the cache. */
export interface VersionedBlocks {
  versions: ReadonlyMap<number, number>;
  cache: BlockCache;
}

/** The seconds of a block of points of `size` (a breakdown day: the day). */
const spanOf = (size: number) => (size === BREAKDOWN_DAY ? BREAKDOWN_DAY : levelOf(size).span);

/** One block of one team's points of one size. */
export interface TeamBlock {
  teamId: number;
  size: number;
  start: number;
}

/** The blocks of every point size that a rewrite of the minutes [from, to] of some teams touches. */
export function blocksOf(teamIds: readonly number[], from: number, to: number): TeamBlock[] {
  const out: TeamBlock[] = [];
  for (const size of POINT_SIZES) {
    const { span } = levelOf(size);
    const first = from - (from % size);
    const last = to - (to % size);
    for (const teamId of teamIds)
      for (let start = first - (first % span); start <= last; start += span)
        out.push({ teamId, size, start });
  }
  return out;
}

/** The breakdown days some teams' rows of hours touch (`teamOf`: each row's team, or undefined). */
export function breakdownBlocksOf(
  rows: ReadonlyArray<{ keyId: number; bucket: number }>,
  teamOf: ReadonlyMap<number, number>,
): TeamBlock[] {
  const seen = new Map<string, TeamBlock>();
  for (const r of rows) {
    const teamId = teamOf.get(r.keyId);
    if (teamId === undefined) continue;
    const start = r.bucket - (r.bucket % BREAKDOWN_DAY);
    seen.set(`${teamId}:${start}`, { teamId, size: BREAKDOWN_DAY, start });
  }
  return [...seen.values()];
}

/** Gives the blocks new versions (random: a block written again by any node is not taken for one read
 *  before), or (`keep`) only those that have none. In one order, so that two nodes' writes of the
 *  same blocks never deadlock. */
export async function setVersions(db: StatsDb, blocks: readonly TeamBlock[], keep = false): Promise<void> {
  const sorted = [...blocks].sort((a, b) => a.teamId - b.teamId || a.size - b.size || a.start - b.start);
  const onConflict = keep ? sql`do nothing` : sql`do update set version = excluded.version`;
  for (const part of chunks(sorted, 500)) {
    const rows = part.map((b) => sql`(${b.teamId}, ${b.size}, ${b.start}, ${randomInt(2 ** 47)})`);
    await sql`insert into stats_clickhouse_blocks (team_id, size, start, version) values ${sql.join(rows)}
      on conflict (team_id, size, start) ${onConflict}`.execute(db);
  }
}

/** A team's block versions of one size whose blocks meet [from, to]: block start → version. */
export async function readVersions(
  db: StatsDb,
  teamId: number,
  size: number,
  from: number,
  to: number,
): Promise<Map<number, number>> {
  const span = spanOf(size);
  const { rows } = await sql<{ start: number | string; version: number | string }>`
    select start, version from stats_clickhouse_blocks
    where team_id = ${teamId} and size = ${size} and start >= ${from - (from % span)} and start <= ${to}`.execute(
    db,
  );
  return new Map(rows.map((r) => [Number(r.start), Number(r.version)]));
}

/** Forgets the versions of blocks past their points' retention (no range reads them; prune drops the
 *  rows' partitions). */
export async function pruneVersions(db: StatsDb, now: number): Promise<void> {
  const kept = [
    [60, RETENTION_S.minute],
    [1200, RETENTION_S.twenty],
    [3600, RETENTION_S.hour],
    [BREAKDOWN_DAY, RETENTION_S.hour],
  ] as const;
  for (const [size, keep] of kept)
    await sql`delete from stats_clickhouse_blocks
      where size = ${size} and start + ${spanOf(size)} <= ${now - keep}`.execute(db);
}

/** The ClickHouse table whose presence says every block of its database has a version. */
const VERSIONED = 'stats_blocks_versioned';

/**
 * Gives a version to every block that has rows in a ClickHouse database whose blocks have none yet
 * (written before the versions were kept: a read would skip them), once per database: a table marks
 * it done. A team's rows stand for its keys' (a refresh writes both).
 */
export async function adoptBlocks(ch: ClickHouse, db: StatsDb): Promise<void> {
  const [marked] = await ch.rows(
    `select count() as n from system.tables where database = ${chString(ch.database)} and name = ${chString(VERSIONED)}`,
  );
  if (Number(marked?.n) > 0) return;
  const sources = [
    ...LEVELS.map((l) => ({ size: l.size as number, time: l.time as string, table: l.team as string })),
    // A team's breakdown day stands for its keys' (written together).
    { size: BREAKDOWN_DAY, time: 'bucket', table: TEAM_DAY },
  ];
  for (const { size, time, table } of sources) {
    const span = chInt(spanOf(size));
    const rows = await ch.rows<{ team_id: number; start: number }>(
      `select distinct team_id, intDiv(${time}, ${span}) * ${span} as start from ${chName(table)}`,
    );
    const blocks = rows.map((r) => ({ teamId: Number(r.team_id), size, start: Number(r.start) }));
    await setVersions(db, blocks, true);
  }
  await ch.command(`create table if not exists ${chName(VERSIONED)} (at UInt32) engine = TinyLog`);
}

/**
 * Rows of [time, …width values] (with their names, for a breakdown's) over the blocks of [from, to]
 * of size `size`: those read before at their current version from the cache (under `tag`, naming
 * what the rows are), the others by `read` (given the first second read and the first one after),
 * whole blocks so that each is kept whole for the next read. Answers the blocks: the cached and the
 * read ones.
 */
export async function versionedRows(
  blocks: VersionedBlocks,
  tag: string,
  q: { size: number; from: number; to: number; width: number },
  read: (from: number, end: number) => Promise<NamedBlock>,
): Promise<NamedBlock[]> {
  const { versions, cache } = blocks;
  const span = spanOf(q.size);
  const starts = [...versions.keys()].filter((s) => s + span > q.from && s <= q.to).sort((a, b) => a - b);
  const cached = new Map<number, NamedBlock>();
  const missing: number[] = [];
  for (const s of starts) {
    const hit = cache.getNamed(`${tag}:${s}`, versions.get(s) as number);
    if (hit) cached.set(s, hit);
    else missing.push(s);
  }
  if (missing.length === 0) return [...cached.values()];
  const lo = missing[0] as number;
  const hi = (missing.at(-1) as number) + span;
  const { values, names } = await read(lo, hi);
  // Split by block: the rows come in no order.
  const stride = q.width + 1;
  const split = new Map<number, { rows: number[]; names: string[] }>();
  for (const s of starts) if (s >= lo && s < hi) split.set(s, { rows: [], names: [] });
  for (let r = 0, i = 0; r < values.length; r += stride, i++) {
    const block = split.get((values[r] as number) - ((values[r] as number) % span));
    // Rows of a block with no version yet: written after the versions were read; left for the next read.
    if (!block) continue;
    block.rows.push(r);
    if (names.length) block.names.push(names[i] as string);
  }
  const fresh: NamedBlock[] = [];
  for (const [s, block] of split) {
    const kept = new Float64Array(block.rows.length * stride);
    block.rows.forEach((r, i) => {
      kept.set(values.subarray(r, r + stride), i * stride);
    });
    cache.set(`${tag}:${s}`, versions.get(s) as number, kept, block.names);
    fresh.push({ values: kept, names: block.names });
  }
  return [...[...cached].filter(([s]) => s < lo || s >= hi).map(([, b]) => b), ...fresh];
}
