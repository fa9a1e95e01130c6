import type { MigrationDb } from './helpers.js';

/**
 * How far each node's statistics journal (features/statistics/journal.ts) is stored: the last journal
 * segment whose accepted reports are all in the statistics tables. Written in the same transaction as
 * those statistics, so a server killed at any moment replays exactly the segments past it, and counts
 * nothing twice.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('stats_journal')
    .addColumn('journal', 'text', (c) => c.primaryKey())
    .addColumn('applied', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('stats_journal').execute();
}
