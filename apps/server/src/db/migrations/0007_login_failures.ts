import type { MigrationDb } from './helpers.js';

/**
 * Failed sign-ins counted in the database (they were counted in each server's memory): every node
 * behind a load balancer then sees the same count, so adding nodes does not multiply the attempts an
 * attacker gets. Logins and addresses are stored as sha256, never as typed.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('login_failures')
    /** 'login' or 'address'. */
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    /** Epoch ms the window began. */
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('login_failures_pk', ['scope', 'key_hash'])
    .execute();
  await db.schema
    .createIndex('login_failures_started_at')
    .on('login_failures')
    .column('started_at')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('login_failures').execute();
}
