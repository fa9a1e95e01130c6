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
