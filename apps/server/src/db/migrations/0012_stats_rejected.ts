import { sql } from 'kysely';
import { isPostgres, type MigrationDb } from './helpers.js';

/** Every table of points: the per-key ones and the team totals of them. */
const TABLES = [
  'stats_minute',
  'stats_20m',
  'stats_hour',
  'stats_team_minute',
  'stats_team_20m',
  'stats_team_hour',
] as const;
/** Each blocks table, the table it packs and its id column, its time column, the seconds of a point and
 *  of a block (as in 0011). */
const BLOCKS = [
  { blocks: 'stats_minute_blocks', from: 'stats_minute', id: 'key_id', time: 'minute', size: 60, span: 3600 },
  {
    blocks: 'stats_team_minute_blocks',
    from: 'stats_team_minute',
    id: 'team_id',
    time: 'minute',
    size: 60,
    span: 3600,
  },
  { blocks: 'stats_20m_blocks', from: 'stats_20m', id: 'key_id', time: 'bucket', size: 1200, span: 86_400 },
  {
    blocks: 'stats_hour_blocks',
    from: 'stats_hour',
    id: 'key_id',
    time: 'bucket',
    size: 3600,
    span: 3 * 86_400,
  },
] as const;

/**
 * Rewrites every block from the rows it packs: 41 bytes a point (0011), or 49 with the refused bytes
 * appended. A block holds one layout only, and a reader takes the entry size as fixed, so no block of
 * the other layout may remain. What a block held beyond its rows is older than the rows' retention,
 * which no range reads.
 */
async function rewriteBlocks(db: MigrationDb, withRejected: boolean): Promise<void> {
  const pg = isPostgres(db);
  for (const { blocks, from, id, time, size, span } of BLOCKS) {
    const t = sql.ref(time);
    const users = (c: string) =>
      pg ? sql`least(${sql.ref(c)}, 4294967295)` : sql`min(${sql.ref(c)}, 4294967295)`;
    const index = sql`(${t} % ${sql.lit(span)}) / ${sql.lit(size)}`;
    const hex = (v: unknown, digits: number) => sql`lpad(to_hex(${v}), ${sql.lit(digits)}, '0')`;
    const pack = pg
      ? sql`decode(string_agg(
          ${hex(index, 2)} || ${hex(sql`cdn_bytes`, 16)} || ${hex(sql`p2p_bytes`, 16)} || ${hex(sql`nodr_bytes`, 16)}
          || ${hex(users('cdn_users'), 8)} || ${hex(users('p2p_users'), 8)} || ${hex(users('nodr_users'), 8)} || ${hex(users('users'), 8)}
          ${withRejected ? sql`|| ${hex(sql`rejected_bytes`, 16)}` : sql``},
          '' order by ${t}), 'hex')`
      : withRejected
        ? sql`unhex(group_concat(printf('%02x%016x%016x%016x%08x%08x%08x%08x%016x', ${index},
            cdn_bytes, p2p_bytes, nodr_bytes, ${users('cdn_users')}, ${users('p2p_users')}, ${users('nodr_users')}, ${users('users')},
            rejected_bytes),
            '' order by ${t}))`
        : sql`unhex(group_concat(printf('%02x%016x%016x%016x%08x%08x%08x%08x', ${index},
            cdn_bytes, p2p_bytes, nodr_bytes, ${users('cdn_users')}, ${users('p2p_users')}, ${users('nodr_users')}, ${users('users')}),
            '' order by ${t}))`;
    const start = sql`(${t} / ${sql.lit(span)}) * ${sql.lit(span)}`;
    await sql`delete from ${sql.table(blocks)}`.execute(db);
    await sql`
      insert into ${sql.table(blocks)} (${sql.ref(id)}, start, points)
      select ${sql.ref(id)}, ${start}, ${pack} from ${sql.table(from)} group by ${sql.ref(id)}, ${start}`.execute(
      db,
    );
  }
}

/**
 * Refused peer bytes: the plugin checks each segment a peer sends against the origin's
 * SHA-256 and reports the bytes it refused. Stored beside the sizes in every table of points (rows
 * before this had none: 0), summed by the rollups and team totals like them, and packed as one more
 * 8-byte value per point of the blocks.
 */
export async function up(db: MigrationDb): Promise<void> {
  for (const table of TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('rejected_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await rewriteBlocks(db, true);
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of TABLES) await db.schema.alterTable(table).dropColumn('rejected_bytes').execute();
  await rewriteBlocks(db, false);
}
