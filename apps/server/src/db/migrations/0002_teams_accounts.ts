import type { MigrationDb } from './helpers.js';
import { withId } from './helpers.js';

/**
 * Invitations, team tags, per-user favourites (which replace team_members.favourite so a
 * supervisor who is not a member can star a team too), and the columns the deletion and suspension
 * flows need.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('invitations'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('invited_email', 'text', (c) => c.notNull())
    .addColumn('invited_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('role', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('inviting_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // sha256 of the live e-mail link's hash (the same value as email_links.token_hash).
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('responded_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('invitations_team_status')
    .on('invitations')
    .columns(['team_id', 'status'])
    .execute();
  await db.schema.createIndex('invitations_email').on('invitations').column('invited_email').execute();
  await db.schema.createIndex('invitations_token_hash').on('invitations').column('token_hash').execute();

  await db.schema
    .createTable('team_tags')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('tag', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_tags_pk', ['team_id', 'tag'])
    .execute();

  await db.schema
    .createTable('team_favourites')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_favourites_pk', ['user_id', 'team_id'])
    .execute();
  await db.schema.createIndex('team_favourites_team').on('team_favourites').column('team_id').execute();
  // One source of truth: existing stars move over, and the old column goes.
  await db
    .insertInto('team_favourites')
    .columns(['user_id', 'team_id', 'created_at'])
    .expression(
      db.selectFrom('team_members').select(['user_id', 'team_id', 'created_at']).where('favourite', '=', 1),
    )
    .execute();
  await db.schema.alterTable('team_members').dropColumn('favourite').execute();

  // Who asked for the team deletion / suspension (the one the confirmation mail went to).
  await db.schema.alterTable('teams').addColumn('delete_requested_by', 'integer').execute();
  await db.schema.alterTable('teams').addColumn('suspend_requested_by', 'integer').execute();
  // Team-scoped links (deletion, suspension, invitations): a new one supersedes those of its team only.
  await db.schema.alterTable('email_links').addColumn('team_id', 'integer').execute();
  await db.schema
    .createIndex('email_links_team_kind')
    .on('email_links')
    .columns(['team_id', 'kind'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('email_links_team_kind').execute();
  await db.schema.alterTable('email_links').dropColumn('team_id').execute();
  await db.schema.alterTable('teams').dropColumn('suspend_requested_by').execute();
  await db.schema.alterTable('teams').dropColumn('delete_requested_by').execute();
  await db.schema
    .alterTable('team_members')
    .addColumn('favourite', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.dropTable('team_favourites').execute();
  await db.schema.dropTable('team_tags').execute();
  await db.schema.dropTable('invitations').execute();
}
