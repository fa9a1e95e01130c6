import { type MigrationDb, withId } from './helpers.js';

/**
 * A team's API tokens, sent by server-side reporters of the ingest (later also the export API,
 * hence the scope). Only the SHA-256 of a token is stored, so a leaked table opens nothing. A revoked
 * token keeps its row (who made it, when it was last used, when it was revoked) and is never valid again.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('team_tokens'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo('ingest'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // A token outlives its creator's account: the reporter keeps working until someone revokes it.
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('team_tokens_team')
    .on('team_tokens')
    .columns(['team_id', 'revoked_at'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('team_tokens').execute();
}
