import type { MigrationDb } from './helpers.js';
import { withId } from './helpers.js';

/** Accounts, sessions, e-mail links, teams with their members, and the local mail outbox. */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('users'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('surname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('supervisor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_status_id', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('change_password_at', 'bigint')
    .addColumn('status_change_email', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('new_change_email', 'text')
    .addColumn('delete_progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('subscription', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('sessions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

  await withId(db, db.schema.createTable('email_links'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('email_links_user_kind')
    .on('email_links')
    .columns(['user_id', 'kind'])
    .execute();

  await withId(db, db.schema.createTable('teams'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('time_zone_id', 'integer', (c) => c.notNull().defaultTo(37))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status_id', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('suspended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('suspended_process', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'integer', (c) => c.notNull())
    .addColumn('favourite', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user_id').on('team_members').column('user_id').execute();

  await withId(db, db.schema.createTable('mail_outbox'))
    .addColumn('to', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('links', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  for (const t of ['mail_outbox', 'team_members', 'teams', 'email_links', 'sessions', 'users']) {
    await db.schema.dropTable(t).execute();
  }
}
