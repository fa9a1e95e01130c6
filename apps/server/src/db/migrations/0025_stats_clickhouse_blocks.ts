import type { MigrationDb } from './helpers.js';

/**
 * Which blocks of time of a team's points changed in ClickHouse (CLICKHOUSE_URL,
 * features/statistics/clickhouse/block-versions.ts): a version per team, point size and block, set
 * anew around every rewrite of those points, so that any node reads again from ClickHouse only the
 * blocks that changed since it last read them (the database's own blocks carry their version inline).
 * Empty unless the statistics are in ClickHouse.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('stats_clickhouse_blocks')
    .addColumn('team_id', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('start', 'bigint', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('stats_clickhouse_blocks_pk', ['team_id', 'size', 'start'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('stats_clickhouse_blocks').execute();
}
