import { sql } from 'kysely';
import type { MigrationDb } from './helpers.js';

const KEY_ROLLUPS = [
  { table: 'stats_20m', size: 1200 },
  { table: 'stats_hour', size: 3600 },
] as const;
/** Each team table, the per-key table it totals and their time column (as in 0006). */
const TEAM_LEVELS = [
  { table: 'stats_team_minute', from: 'stats_minute', time: 'minute' },
  { table: 'stats_team_20m', from: 'stats_20m', time: 'bucket' },
  { table: 'stats_team_hour', from: 'stats_hour', time: 'bucket' },
] as const;

/** The largest of the three series' users: a lower bound of the distinct viewers (every viewer of a
 *  series is a viewer), and the exact count whenever one series reached every viewer. */
const seriesPeak = sql`case
  when cdn_users >= p2p_users and cdn_users >= nodr_users then cdn_users
  when p2p_users >= nodr_users then p2p_users
  else nodr_users end`;

/**
 * Distinct viewers: `users`, the sessions with any bytes, next to the per-series users that
 * count a session fed by both the CDN and peers twice. Stored rows get the best value they allow:
 * minutes whose session ids are still kept (the last 2 hours) are counted exactly, with those ids also
 * stored as series 3 so later reports of the same minute are recounted against them; other rows take
 * their largest series. Rollups then take their peak minute where one is exact, and team totals the
 * sum of their keys' rows, so a total less some keys still equals the sum of the others.
 * UPDATE ... FROM works on both dialects (SQLite since 3.33).
 */
export async function up(db: MigrationDb): Promise<void> {
  for (const table of [
    'stats_minute',
    ...KEY_ROLLUPS.map((r) => r.table),
    ...TEAM_LEVELS.map((l) => l.table),
  ]) {
    await db.schema
      .alterTable(table)
      .addColumn('users', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update ${sql.table(table)} set users = ${seriesPeak}`.execute(db);
  }

  await sql`
    insert into stats_minute_sessions (key_id, minute, series, session_hash)
    select distinct key_id, minute, 3, session_hash from stats_minute_sessions where series < 3`.execute(db);
  await sql`
    update stats_minute set users = x.n
    from (select key_id, minute, count(*) as n from stats_minute_sessions where series = 3 group by key_id, minute) x
    where stats_minute.key_id = x.key_id and stats_minute.minute = x.minute and x.n > stats_minute.users`.execute(
    db,
  );

  for (const { table, size } of KEY_ROLLUPS) {
    await sql`
      update ${sql.table(table)} set users = x.u
      from (
        select key_id, (minute / ${sql.lit(size)}) * ${sql.lit(size)} as b, max(users) as u
        from stats_minute group by key_id, (minute / ${sql.lit(size)}) * ${sql.lit(size)}
      ) x
      where ${sql.ref(`${table}.key_id`)} = x.key_id and ${sql.ref(`${table}.bucket`)} = x.b
        and x.u > ${sql.ref(`${table}.users`)}`.execute(db);
  }

  for (const { table, from, time } of TEAM_LEVELS) {
    await sql`
      update ${sql.table(table)} set users = x.u
      from (
        select k.team_id, s.${sql.ref(time)} as t, sum(s.users) as u
        from ${sql.table(from)} s join keys k on k.id = s.key_id
        group by k.team_id, s.${sql.ref(time)}
      ) x
      where ${sql.ref(`${table}.team_id`)} = x.team_id and ${sql.ref(`${table}.${time}`)} = x.t`.execute(db);
  }
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`delete from stats_minute_sessions where series = 3`.execute(db);
  for (const table of [
    'stats_minute',
    ...KEY_ROLLUPS.map((r) => r.table),
    ...TEAM_LEVELS.map((l) => l.table),
  ]) {
    await db.schema.alterTable(table).dropColumn('users').execute();
  }
}
