import { sql } from 'kysely';
import type { MigrationDb } from './helpers.js';
import { withId } from './helpers.js';

/**
 * Domains (drafts, verification, promotion, suspension), keys, the layered player settings
 * and origins. Statuses follow the contract's DomainStatus / KeyStatus; nothing is ever hard-deleted
 * except origins (a deleted domain or key keeps its row with status 50 for the statistics).
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('domains'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    // The bare ASCII (punycode) host, lower case.
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(20))
    .addColumn('verification', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('verification_method', 'integer')
    .addColumn('verification_hash', 'text', (c) => c.notNull())
    .addColumn('draft', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('suspended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('domains_team_status').on('domains').columns(['team_id', 'status']).execute();
  await db.schema.createIndex('domains_host').on('domains').column('host').execute();
  // A host is verified by one team only: at most one verified, non-deleted row per host. The services
  // check it inside a transaction first (for the right message); this index settles a race.
  await db.schema
    .createIndex('domains_verified_host')
    .unique()
    .on('domains')
    .column('host')
    .where(sql.ref('verification'), '=', 1)
    .where(sql.ref('status'), '<>', 50)
    .execute();

  await withId(db, db.schema.createTable('keys'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    // null: the key applies to every domain of the team.
    .addColumn('domain_id', 'integer', (c) => c.references('domains.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('suspended', 'integer', (c) => c.notNull().defaultTo(0))
    // The key's status before a supervisor suspended the key (restored on unsuspend).
    .addColumn('status_before_suspend', 'integer')
    // The key's status before a supervisor suspended its domain (restored when the domain is unsuspended).
    .addColumn('status_before_domain_suspend', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('keys_team_status').on('keys').columns(['team_id', 'status']).execute();
  await db.schema.createIndex('keys_domain').on('keys').column('domain_id').execute();

  // Player settings, one row per (layer, owner, setting). A layer counts only when override = 1.
  // domain_id / key_id are 0 when the layer has no such owner (team layer; key layer has no domain), so
  // one plain unique index serves the upsert on both dialects (NULLs never conflict).
  await withId(db, db.schema.createTable('key_setting_values'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('layer', 'text', (c) => c.notNull())
    .addColumn('domain_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('key_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('setting_id', 'integer', (c) => c.notNull())
    .addColumn('value', 'double precision')
    .addColumn('override', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('key_setting_values_owner')
    .unique()
    .on('key_setting_values')
    .columns(['team_id', 'layer', 'domain_id', 'key_id', 'setting_id'])
    .execute();

  await withId(db, db.schema.createTable('origins'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('suspended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('origins_team').on('origins').column('team_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  for (const t of ['origins', 'key_setting_values', 'keys', 'domains']) {
    await db.schema.dropTable(t).execute();
  }
}
