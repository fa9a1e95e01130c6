import { sql } from 'kysely';
import { isPostgres, type MigrationDb } from './helpers.js';

/** Each blocks table and its id column. */
const BLOCKS = [
  { blocks: 'stats_minute_blocks', id: 'key_id' },
  { blocks: 'stats_team_minute_blocks', id: 'team_id' },
  { blocks: 'stats_20m_blocks', id: 'key_id' },
  { blocks: 'stats_hour_blocks', id: 'key_id' },
] as const;

/** The blocks tables made again, empty, with `columns` before their primary key; the server refills
 *  them from the rows on start (statistics/layout.ts), as its noted layout is then forgotten. */
async function remake(db: MigrationDb, columns: readonly ('drawn' | 'points')[]): Promise<void> {
  const blob = isPostgres(db) ? 'bytea' : 'blob';
  for (const { blocks, id } of BLOCKS) {
    await db.schema.dropTable(blocks).execute();
    let table = db.schema
      .createTable(blocks)
      .addColumn(id, 'integer', (c) => c.notNull())
      .addColumn('start', 'bigint', (c) => c.notNull());
    for (const column of columns) table = table.addColumn(column, blob, (c) => c.notNull());
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
 * shows as totals only, then the drawn series a point; features/statistics/queries.ts), so that a
 * chart reads and decodes less than half of what the whole points are. `drawn` comes before `points`
 * so that SQLite reads it without walking through the larger value's overflow pages.
 */
export async function up(db: MigrationDb): Promise<void> {
  await remake(db, ['drawn', 'points']);
}

export async function down(db: MigrationDb): Promise<void> {
  await remake(db, ['points']);
}
