import { sql } from 'kysely';
import { type MigrationDb, seriesColumns } from './helpers.js';

/** Each team table and the per-key table it totals. */
const LEVELS = [
  { table: 'stats_team_minute', from: 'stats_minute', time: 'minute' },
  { table: 'stats_team_20m', from: 'stats_20m', time: 'bucket' },
  { table: 'stats_team_hour', from: 'stats_hour', time: 'bucket' },
] as const;

/**
 * Per-team totals of the statistics tables: each row is the sum of the team's per-key rows
 * at that time, so a query for most of a team's keys reads one row per point and subtracts the few
 * keys left out instead of summing every key. Filled here from the rows already stored.
 */
export async function up(db: MigrationDb): Promise<void> {
  for (const { table, from, time } of LEVELS) {
    await seriesColumns(
      db.schema
        .createTable(table)
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn(time, 'bigint', (c) => c.notNull()),
    )
      .addPrimaryKeyConstraint(`${table}_pk`, ['team_id', time])
      .execute();
    // Retention deletes by time across teams.
    await db.schema.createIndex(`${table}_${time}`).on(table).column(time).execute();
    await sql`
      insert into ${sql.table(table)} (team_id, ${sql.ref(time)}, cdn_bytes, p2p_bytes, nodr_bytes, cdn_users, p2p_users, nodr_users)
      select k.team_id, s.${sql.ref(time)}, sum(s.cdn_bytes), sum(s.p2p_bytes), sum(s.nodr_bytes),
             sum(s.cdn_users), sum(s.p2p_users), sum(s.nodr_users)
      from ${sql.table(from)} s join keys k on k.id = s.key_id
      group by k.team_id, s.${sql.ref(time)}`.execute(db);
  }
}

export async function down(db: MigrationDb): Promise<void> {
  for (const { table } of [...LEVELS].reverse()) await db.schema.dropTable(table).execute();
}
