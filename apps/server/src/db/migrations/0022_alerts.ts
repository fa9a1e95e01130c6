import { type MigrationDb, withId } from './helpers.js';

/**
 * Alert rules, their incidents and their webhook deliveries (issue 38, docs/DESIGN.md §13).
 *
 * - `alert_rules`: a rule's settings (keys and e-mail roles as JSON arrays), its state (`firing` 0/1 with
 *   the open incident), the last window's value, and `evaluated_minute`: the last closed minute (unix
 *   seconds of its start) evaluated. Each node claims a rule's minute by moving that column forward in a
 *   conditional update, so of two nodes one evaluates it and notifies.
 * - `webhook_secret` must stay readable: the server signs each delivery with it (an HMAC needs the key).
 *   It authenticates our messages to the customer and opens nothing of ours; it is never listed.
 * - `alert_deliveries`: the outbox of webhook POSTs, one row per delivery id, its body stored as signed
 *   (a retry sends the same bytes), `lease_until` so one node sends an attempt at a time.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db, db.schema.createTable('alert_rules'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('op', 'text', (c) => c.notNull())
    .addColumn('threshold', 'double precision', (c) => c.notNull())
    .addColumn('window_minutes', 'integer', (c) => c.notNull())
    .addColumn('min_viewers', 'integer', (c) => c.notNull())
    .addColumn('keys', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('email_roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('webhook_url', 'text')
    .addColumn('webhook_secret', 'text')
    .addColumn('firing', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_value', 'double precision')
    .addColumn('evaluated_minute', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_evaluated_at', 'bigint')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alert_rules_team').on('alert_rules').column('team_id').execute();

  await withId(db, db.schema.createTable('alert_incidents'))
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
    .addColumn('opened_at', 'bigint', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    .addColumn('open_value', 'double precision')
    .addColumn('resolve_value', 'double precision')
    .execute();
  await db.schema
    .createIndex('alert_incidents_rule')
    .on('alert_incidents')
    .columns(['rule_id', 'opened_at'])
    .execute();

  await db.schema
    .createTable('alert_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('give_up_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alert_deliveries_rule')
    .on('alert_deliveries')
    .columns(['rule_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('alert_deliveries_due')
    .on('alert_deliveries')
    .columns(['state', 'next_attempt_at'])
    .execute();

  await withId(db, db.schema.createTable('alert_delivery_attempts'))
    .addColumn('delivery_id', 'text', (c) =>
      c.notNull().references('alert_deliveries.id').onDelete('cascade'),
    )
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('alert_delivery_attempts_delivery')
    .on('alert_delivery_attempts')
    .column('delivery_id')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('alert_delivery_attempts').execute();
  await db.schema.dropTable('alert_deliveries').execute();
  await db.schema.dropTable('alert_incidents').execute();
  await db.schema.dropTable('alert_rules').execute();
}
