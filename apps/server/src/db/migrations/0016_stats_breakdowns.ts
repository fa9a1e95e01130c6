import type { MigrationDb } from './helpers.js';

/** The columns of every point as of 0015 (contract series.ts STORED_COLUMNS): sizes and times bigint,
 *  counts integer. */
const COLUMNS: ReadonlyArray<readonly [string, 'bigint' | 'integer']> = [
  ['cdn_bytes', 'bigint'],
  ['p2p_bytes', 'bigint'],
  ['nodr_bytes', 'bigint'],
  ['cdn_users', 'integer'],
  ['p2p_users', 'integer'],
  ['nodr_users', 'integer'],
  ['users', 'integer'],
  ['rejected_bytes', 'bigint'],
  ['play_ms', 'bigint'],
  ['stall_ms', 'bigint'],
  ['plays', 'integer'],
  ['failures', 'integer'],
  ['ceiling_bytes', 'bigint'],
  ...Array.from({ length: 11 }, (_, i) => [`startup_${i}`, 'integer'] as const),
];
const TABLES = [
  ['stats_breakdown_hour', 'key_id'],
  ['stats_breakdown_day', 'key_id'],
  ['stats_team_breakdown_hour', 'team_id'],
  ['stats_team_breakdown_day', 'team_id'],
] as const;

/**
 * Breakdowns: a key's (and a team's) series per hour and per day, per dimension (`dim`: the
 * index in the contract's BREAKDOWN_DIMENSIONS) and name. The primary key leads with the id, then the
 * bucket, which both the reads and retention go by.
 */
export async function up(db: MigrationDb): Promise<void> {
  for (const [table, id] of TABLES) {
    let t = db.schema
      .createTable(table)
      .addColumn(id, 'integer', (c) => c.notNull())
      .addColumn('bucket', 'bigint', (c) => c.notNull())
      .addColumn('dim', 'smallint', (c) => c.notNull())
      .addColumn('name', 'varchar(320)', (c) => c.notNull());
    for (const [column, type] of COLUMNS) t = t.addColumn(column, type, (c) => c.notNull().defaultTo(0));
    await t.addPrimaryKeyConstraint(`${table}_pk`, [id, 'bucket', 'dim', 'name']).execute();
    await db.schema.createIndex(`${table}_bucket`).on(table).column('bucket').execute();
  }
}

export async function down(db: MigrationDb): Promise<void> {
  for (const [table] of TABLES) await db.schema.dropTable(table).execute();
}
