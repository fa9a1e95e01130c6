import { sql } from 'kysely';
import { isPostgres, type MigrationDb } from './helpers.js';

const TEAM_BUCKETS = [
  { table: 'stats_team_20m', size: 1200 },
  { table: 'stats_team_hour', size: 3600 },
] as const;
const PEAKS = ['cdn_users', 'p2p_users', 'nodr_users', 'users'] as const;
/** Each blocks table, the table it packs and its id column, its time column, the seconds of a point and
 *  of a block. */
const BLOCKS = [
  { blocks: 'stats_minute_blocks', from: 'stats_minute', id: 'key_id', time: 'minute', size: 60, span: 3600 },
  {
    blocks: 'stats_team_minute_blocks',
    from: 'stats_team_minute',
    id: 'team_id',
    time: 'minute',
    size: 60,
    span: 3600,
  },
  { blocks: 'stats_20m_blocks', from: 'stats_20m', id: 'key_id', time: 'bucket', size: 1200, span: 86_400 },
  {
    blocks: 'stats_hour_blocks',
    from: 'stats_hour',
    id: 'key_id',
    time: 'bucket',
    size: 3600,
    span: 3 * 86_400,
  },
] as const;

/**
 * Statistics: true peaks, session bits and blocks:
 * - The team's own peak of each 20-minute and hourly point (`peak_*` beside the sums of the keys' peaks
 *   that team totals keep): from the team's minute totals where all the bucket's minutes are still
 *   kept, the sum of the keys' peaks (the bound shown so far) where they are not.
 * - One stored row per session of a key-minute with its series as bits (1 cdn, 2 p2p, 4 nodr) instead
 *   of one row per series and one more for "any bytes": a flush writes a third of the rows. The primary
 *   key leads with the minute, which retention deletes by, so no other index is needed; on SQLite the
 *   table is its own index (WITHOUT ROWID).
 * - Blocks: a key's points of one span (an hour of minutes, a day of 20-minute points, 3 days of hourly
 *   ones) packed in one value, 41 bytes a point (layout in features/statistics/block-format.ts, packed by block-queries.ts packPoints),
 *   and the team minute totals likewise, filled here from the rows kept: a range then reads a few
 *   values per key instead of a row per point.
 */
export async function up(db: MigrationDb): Promise<void> {
  const pg = isPostgres(db);

  for (const { table, size } of TEAM_BUCKETS) {
    for (const c of PEAKS) {
      await db.schema
        .alterTable(table)
        .addColumn(`peak_${c}`, 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
    }
    await sql`update ${sql.table(table)} set peak_cdn_users = cdn_users, peak_p2p_users = p2p_users,
      peak_nodr_users = nodr_users, peak_users = users`.execute(db);
    const bucket = sql`(minute / ${sql.lit(size)}) * ${sql.lit(size)}`;
    await sql`
      update ${sql.table(table)} set peak_cdn_users = p.cu, peak_p2p_users = p.pu, peak_nodr_users = p.nu, peak_users = p.u
      from (
        select team_id, ${bucket} as b, max(cdn_users) as cu, max(p2p_users) as pu, max(nodr_users) as nu, max(users) as u
        from stats_team_minute
        group by team_id, ${bucket}
        having ${bucket} >= (select min(minute) from stats_team_minute)
      ) p
      where ${sql.ref(`${table}.team_id`)} = p.team_id and ${sql.ref(`${table}.bucket`)} = p.b`.execute(db);
  }

  const sessions = db.schema
    .createTable('stats_minute_session_bits')
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('key_id', 'integer', (c) => c.notNull())
    .addColumn('session_hash', 'text', (c) => c.notNull())
    .addColumn('series', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('stats_minute_sessions_pk', ['minute', 'key_id', 'session_hash']);
  await (pg ? sessions : sessions.modifyEnd(sql`without rowid`)).execute();
  await sql`
    insert into stats_minute_session_bits (minute, key_id, session_hash, series)
    select minute, key_id, session_hash, sum(case when series < 3 then 1 << series else 0 end)
    from stats_minute_sessions group by minute, key_id, session_hash`.execute(db);
  await db.schema.dropTable('stats_minute_sessions').execute();
  await db.schema.alterTable('stats_minute_session_bits').renameTo('stats_minute_sessions').execute();

  for (const { blocks, from, id, time, size, span } of BLOCKS) {
    const table = db.schema
      .createTable(blocks)
      .addColumn(id, 'integer', (c) => c.notNull())
      .addColumn('start', 'bigint', (c) => c.notNull())
      .addColumn('points', pg ? 'bytea' : 'blob', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${blocks}_pk`, [id, 'start']);
    // A team's blocks go with the team (keys are never deleted, only marked).
    await (id === 'team_id'
      ? table.addForeignKeyConstraint(`${blocks}_team`, ['team_id'], 'teams', ['id'], (c) =>
          c.onDelete('cascade'),
        )
      : table
    ).execute();
    // Retention deletes by time across keys.
    await db.schema.createIndex(`${blocks}_start`).on(blocks).column('start').execute();
    const t = sql.ref(time);
    const users = (c: string) =>
      pg ? sql`least(${sql.ref(c)}, 4294967295)` : sql`min(${sql.ref(c)}, 4294967295)`;
    const index = sql`(${t} % ${sql.lit(span)}) / ${sql.lit(size)}`;
    const hex = (v: unknown, digits: number) => sql`lpad(to_hex(${v}), ${sql.lit(digits)}, '0')`;
    const pack = pg
      ? sql`decode(string_agg(
          ${hex(index, 2)} || ${hex(sql`cdn_bytes`, 16)} || ${hex(sql`p2p_bytes`, 16)} || ${hex(sql`nodr_bytes`, 16)}
          || ${hex(users('cdn_users'), 8)} || ${hex(users('p2p_users'), 8)} || ${hex(users('nodr_users'), 8)} || ${hex(users('users'), 8)},
          '' order by ${t}), 'hex')`
      : sql`unhex(group_concat(printf('%02x%016x%016x%016x%08x%08x%08x%08x', ${index},
          cdn_bytes, p2p_bytes, nodr_bytes, ${users('cdn_users')}, ${users('p2p_users')}, ${users('nodr_users')}, ${users('users')}),
          '' order by ${t}))`;
    const start = sql`(${t} / ${sql.lit(span)}) * ${sql.lit(span)}`;
    await sql`
      insert into ${sql.table(blocks)} (${sql.ref(id)}, start, points)
      select ${sql.ref(id)}, ${start}, ${pack} from ${sql.table(from)} group by ${sql.ref(id)}, ${start}`.execute(
      db,
    );
  }
}

export async function down(db: MigrationDb): Promise<void> {
  for (const { blocks } of BLOCKS) await db.schema.dropTable(blocks).execute();

  await db.schema
    .createTable('stats_minute_session_rows')
    .addColumn('key_id', 'integer', (c) => c.notNull())
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('series', 'integer', (c) => c.notNull())
    .addColumn('session_hash', 'text', (c) => c.notNull())
    .execute();
  for (const series of [0, 1, 2]) {
    await sql`
      insert into stats_minute_session_rows (key_id, minute, series, session_hash)
      select key_id, minute, ${sql.lit(series)}, session_hash from stats_minute_sessions
      where (series & ${sql.lit(1 << series)}) <> 0`.execute(db);
  }
  await sql`
    insert into stats_minute_session_rows (key_id, minute, series, session_hash)
    select key_id, minute, 3, session_hash from stats_minute_sessions`.execute(db);
  await db.schema.dropTable('stats_minute_sessions').execute();
  await db.schema.alterTable('stats_minute_session_rows').renameTo('stats_minute_sessions').execute();
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

  for (const { table } of TEAM_BUCKETS) {
    for (const c of PEAKS) await db.schema.alterTable(table).dropColumn(`peak_${c}`).execute();
  }
}
