import { POINT_TABLES } from './0019_stats_verify_bytes.js';
import type { MigrationDb } from './helpers.js';

/**
 * P2P bytes from peers of other networks (issue 40, contract series.ts crossBytes): the part of
 * p2p_bytes that crossed between autonomous systems, as the plugin reports it (p2pCrossBytes). Summed
 * like the other sizes; 0 for rows before, when nothing told the networks apart. The packed blocks
 * follow the series table and are rewritten on start (statistics/layout.ts), as for 0019.
 */
export async function up(db: MigrationDb): Promise<void> {
  for (const table of POINT_TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('p2p_cross_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of POINT_TABLES) await db.schema.alterTable(table).dropColumn('p2p_cross_bytes').execute();
}
