import { sql } from 'kysely';
import type { MigrationDb } from './helpers.js';

/** Every table of points: the per-key ones and the team totals of them. */
const TABLES = [
  'stats_minute',
  'stats_20m',
  'stats_hour',
  'stats_team_minute',
  'stats_team_20m',
  'stats_team_hour',
] as const;
const BLOCKS = ['stats_minute_blocks', 'stats_team_minute_blocks', 'stats_20m_blocks', 'stats_hour_blocks'];
/** The series of viewer experience and the P2P ceiling (contract series.ts), as they were added: times
 *  and sizes as bigint, counts as integer; the startup histogram's 11 buckets. */
const COLUMNS: ReadonlyArray<readonly [string, 'bigint' | 'integer']> = [
  ['play_ms', 'bigint'],
  ['stall_ms', 'bigint'],
  ['plays', 'integer'],
  ['failures', 'integer'],
  ['ceiling_bytes', 'bigint'],
  ...Array.from({ length: 11 }, (_, i) => [`startup_${i}`, 'integer'] as const),
];

/**
 * Viewer experience: the new series' columns in every table of points (0 for rows before),
 * and `stats_layout`, where the server notes the layout of the packed blocks it wrote. The blocks are
 * emptied here: the server rewrites them from the rows on start whenever the noted layout is not the
 * series table's (statistics/layout.ts), so a series added later needs no block rewrite of its own.
 */
export async function up(db: MigrationDb): Promise<void> {
  for (const table of TABLES) {
    for (const [column, type] of COLUMNS) {
      await db.schema
        .alterTable(table)
        .addColumn(column, type, (c) => c.notNull().defaultTo(0))
        .execute();
    }
  }
  await db.schema
    .createTable('stats_layout')
    .addColumn('name', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('signature', 'text', (c) => c.notNull())
    .execute();
  for (const b of BLOCKS) await sql`delete from ${sql.table(b)}`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('stats_layout').execute();
  for (const table of TABLES) {
    for (const [column] of COLUMNS) await db.schema.alterTable(table).dropColumn(column).execute();
  }
  for (const b of BLOCKS) await sql`delete from ${sql.table(b)}`.execute(db);
}
