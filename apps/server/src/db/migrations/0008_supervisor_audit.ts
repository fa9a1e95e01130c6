import { type MigrationDb, withId } from './helpers.js';

/**
 * The supervisor audit log (docs/DESIGN.md §12): every supervisor action on a customer's team, domain or key,
 * and grants and revocations of the supervisor flag, with who, when, what and the value before and after.
 * The actor's e-mail is copied in, so the entry still says who it was after the account is gone.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('supervisor_audit'))
    /** null: not about one team (the supervisor flag). No foreign key: the history outlives the team. */
    .addColumn('team_id', 'integer')
    .addColumn('actor_id', 'integer')
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    /** 'team', 'domain', 'key' or 'user', and its id and name at the time. */
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('target_label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('old_value', 'text')
    .addColumn('new_value', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('supervisor_audit_team_time')
    .on('supervisor_audit')
    .columns(['team_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('supervisor_audit').execute();
}
