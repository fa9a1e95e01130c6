import type { MigrationDb } from './helpers.js';

/** Every table of points: the per-key ones, the team totals of them and the breakdowns (0016). */
const TABLES = [
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
 * P2P bytes from peers of other networks (issue 40, contract series.ts crossBytes): the part of
 * p2p_bytes that crossed between autonomous systems, as the plugin reports it (p2pCrossBytes). Summed
 * like the other sizes; 0 for rows before, when nothing told the networks apart. The packed blocks
 * follow the series table and are rewritten on start (statistics/layout.ts), as for 0019.
 */
export async function up(db: MigrationDb): Promise<void> {
  for (const table of TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('p2p_cross_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of TABLES) await db.schema.alterTable(table).dropColumn('p2p_cross_bytes').execute();
}
