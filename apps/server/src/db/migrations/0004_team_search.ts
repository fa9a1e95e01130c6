import { sql } from 'kysely';
import { isPostgres, type MigrationDb } from './helpers.js';

/**
 * Indexes of the supervisors' team search: creation-date ranges, the status filter, tag
 * look-ups. Members' e-mails are found through users(email) (unique, 0001) and team_members(user_id)
 * (0001); favourites through team_favourites' primary key (user_id, team_id).
 *
 * On PostgreSQL the "contains" matches of team name, tag and e-mail use trigram GIN indexes on the
 * lower-cased text when pg_trgm can be created (it is a trusted extension since PostgreSQL 13, so the
 * database owner may). Without it the search still works by sequential scan.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.createIndex('teams_created_at').on('teams').column('created_at').execute();
  await db.schema
    .createIndex('teams_status_suspended')
    .on('teams')
    .columns(['status_id', 'suspended'])
    .execute();
  await db.schema.createIndex('team_tags_tag').on('team_tags').column('tag').execute();
  if (isPostgres(db)) {
    const { rows } = await sql<{ ok: boolean }>`
      select exists (select 1 from pg_available_extensions where name = 'pg_trgm')
        and (exists (select 1 from pg_extension where extname = 'pg_trgm')
             or has_database_privilege(current_database(), 'CREATE')) as ok`.execute(db);
    if (rows[0]?.ok) {
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index teams_name_trgm on teams using gin (lower(name) gin_trgm_ops)`.execute(db);
      await sql`create index team_tags_tag_trgm on team_tags using gin (lower(tag) gin_trgm_ops)`.execute(db);
      await sql`create index users_email_trgm on users using gin (lower(email) gin_trgm_ops)`.execute(db);
    }
  }
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists users_email_trgm`.execute(db);
    await sql`drop index if exists team_tags_tag_trgm`.execute(db);
    await sql`drop index if exists teams_name_trgm`.execute(db);
  }
  await db.schema.dropIndex('team_tags_tag').execute();
  await db.schema.dropIndex('teams_status_suspended').execute();
  await db.schema.dropIndex('teams_created_at').execute();
}
