import type { MigrationDb } from './helpers.js';

/**
 * A person's own time zone for charts (issue 39): an id of the contract's time zone list, or null for
 * the current team's zone. Nullable with no default, so every existing account keeps seeing its teams'
 * time as before.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('time_zone_id', 'integer').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('users').dropColumn('time_zone_id').execute();
}
