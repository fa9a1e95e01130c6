import type { MigrationDb } from './helpers.js';

/** Every table of points: the per-key ones, the team totals of them and the breakdowns (0016); a later
 *  migration adding a series' column to each reads them here. */
export const POINT_TABLES = [
  'stats_minute',
  'stats_20m',
  'stats_hour',
  'stats_team_minute',
  'stats_team_20m',
  'stats_team_hour',
  'stats_breakdown_hour',
  'stats_breakdown_day',
  'stats_team_breakdown_hour',
  'stats_team_breakdown_day',
] as const;

/**
 * Verification bytes (contract series.ts verifyBytes): what the integrity service fetched from a key's
 * origins to verify peers' segments, counted by the server itself, never reported. Stored beside the
 * sizes in every table of points (0 for rows before) and summed like them. The packed blocks need no
 * rewrite here: their layout follows the series table, and the server rewrites them from these rows
 * on start (statistics/layout.ts), after this migration and after its undoing alike.
 */
export async function up(db: MigrationDb): Promise<void> {
  for (const table of POINT_TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('verify_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of POINT_TABLES) await db.schema.alterTable(table).dropColumn('verify_bytes').execute();
}
