import { sql } from 'kysely';
import { isPostgres, type MigrationDb } from './helpers.js';

/** Each blocks table and its id column. */
const BLOCKS = [
  { blocks: 'stats_minute_blocks', id: 'key_id' },
  { blocks: 'stats_team_minute_blocks', id: 'team_id' },
  { blocks: 'stats_20m_blocks', id: 'key_id' },
  { blocks: 'stats_hour_blocks', id: 'key_id' },
] as const;

/** The blocks tables made again, empty (with the chart's cut and a version, or without); the server
 *  refills them from the rows on start (statistics/layout.ts), as its noted layout is then forgotten. */
async function remake(db: MigrationDb, cut: boolean): Promise<void> {
  const blob = isPostgres(db) ? 'bytea' : 'blob';
  for (const { blocks, id } of BLOCKS) {
    await db.schema.dropTable(blocks).execute();
    let table = db.schema
      .createTable(blocks)
      .addColumn(id, 'integer', (c) => c.notNull())
      .addColumn('start', 'bigint', (c) => c.notNull());
    if (cut) {
      table = table
        .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('drawn', blob, (c) => c.notNull());
    }
    table = table.addColumn('points', blob, (c) => c.notNull());
    table = table.addPrimaryKeyConstraint(`${blocks}_pk`, [id, 'start']);
    // A team's blocks go with the team (keys are never deleted, only marked).
    await (id === 'team_id'
      ? table.addForeignKeyConstraint(`${blocks}_team`, ['team_id'], 'teams', ['id'], (c) =>
          c.onDelete('cascade'),
        )
      : table
    ).execute();
    // Retention deletes by time across keys.
    await db.schema.createIndex(`${blocks}_start`).on(blocks).column('start').execute();
  }
  await sql`delete from stats_layout where name = 'blocks'`.execute(db);
}

/**
 * Each block keeps the chart's cut of its points (`drawn`: the block's sums of the series the chart
 * shows as totals only, then the drawn series a point; features/statistics/block-format.ts), so that a
 * chart reads and decodes less than half of what the whole points are, and a version that every write
 * changes, so that a server keeps blocks it decoded while they hold (statistics/block-cache.ts).
 * `drawn` comes before `points` so that SQLite reads it without walking through the larger value's
 * overflow pages.
 */
export async function up(db: MigrationDb): Promise<void> {
  await remake(db, true);
}

export async function down(db: MigrationDb): Promise<void> {
  await remake(db, false);
}
