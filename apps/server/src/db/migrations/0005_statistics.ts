import { type MigrationDb, seriesColumns } from './helpers.js';

/**
 * Statistics (docs/DESIGN.md §2/§7): the minute table written by ingest flushes, its 20-minute and
 * hourly rollups (sizes summed, users the peak minute), the session ids of recent minutes (so distinct
 * viewers stay right across flushes and server nodes) and the saved statistics lists.
 */
export async function up(db: MigrationDb): Promise<void> {
  await seriesColumns(
    db.schema
      .createTable('stats_minute')
      .addColumn('key_id', 'integer', (c) => c.notNull())
      .addColumn('minute', 'bigint', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('stats_minute_pk', ['key_id', 'minute'])
    .execute();
  for (const table of ['stats_20m', 'stats_hour']) {
    await seriesColumns(
      db.schema
        .createTable(table)
        .addColumn('key_id', 'integer', (c) => c.notNull())
        .addColumn('bucket', 'bigint', (c) => c.notNull()),
    )
      .addPrimaryKeyConstraint(`${table}_pk`, ['key_id', 'bucket'])
      .execute();
  }
  // Retention deletes by time across keys.
  await db.schema.createIndex('stats_minute_minute').on('stats_minute').column('minute').execute();
  await db.schema.createIndex('stats_20m_bucket').on('stats_20m').column('bucket').execute();
  await db.schema.createIndex('stats_hour_bucket').on('stats_hour').column('bucket').execute();

  await db.schema
    .createTable('stats_minute_sessions')
    .addColumn('key_id', 'integer', (c) => c.notNull())
    .addColumn('minute', 'bigint', (c) => c.notNull())
    /** 0 cdn, 1 p2p, 2 nodr. */
    .addColumn('series', 'integer', (c) => c.notNull())
    .addColumn('session_hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('stats_minute_sessions_unique')
    .on('stats_minute_sessions')
    .columns(['key_id', 'minute', 'series', 'session_hash'])
    .unique()
    .execute();
  await db.schema
    .createIndex('stats_minute_sessions_minute')
    .on('stats_minute_sessions')
    .column('minute')
    .execute();

  await db.schema
    .createTable('stats_settings')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('team_id', 'integer', (c) => c.notNull())
    .addColumn('save_json', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('stats_settings_pk', ['user_id', 'team_id'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  for (const t of ['stats_settings', 'stats_minute_sessions', 'stats_hour', 'stats_20m', 'stats_minute']) {
    await db.schema.dropTable(t).execute();
  }
}
