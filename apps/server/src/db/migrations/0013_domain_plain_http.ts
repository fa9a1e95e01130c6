import { sql } from 'kysely';
import type { MigrationDb } from './helpers.js';

/**
 * The Origin rule counts the scheme and the port: a domain's `https://` pages on the default
 * port are accepted, its `http://` pages only when `plain_http` is 1. New domains start without it.
 * Every domain that exists now gets it: the rule accepted their `http://` pages until this release, and
 * a deploy must not cut a customer's players off; the customer can switch it off on My domains.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('domains')
    .addColumn('plain_http', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update domains set plain_http = 1`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('domains').dropColumn('plain_http').execute();
}
