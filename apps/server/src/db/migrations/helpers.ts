import { type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

/** Migrations receive an untyped Kysely: they describe the schema as it was at their time. */
// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export type MigrationDb = Kysely<any>;

export function isPostgres(db: MigrationDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The one dialect difference of our schema: an auto-incrementing integer primary key. */
export function withId<T extends string>(db: MigrationDb, table: CreateTableBuilder<T, never>) {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** The six series columns of every statistics table (cdn, p2p, nodr: sizes and users). Migrations 0005
 *  and 0006 use it: change it only together with a new migration. */
export function seriesColumns<T extends string>(t: CreateTableBuilder<T, string>) {
  return t
    .addColumn('cdn_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('p2p_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('nodr_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('cdn_users', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('p2p_users', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('nodr_users', 'integer', (c) => c.notNull().defaultTo(0));
}
