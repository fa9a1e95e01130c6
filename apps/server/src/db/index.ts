import { Kysely, type Migration, Migrator, PostgresAdapter, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';
import { LockAwareSqliteDialect, type LockLog } from './sqlite-driver.js';

export type Db = Kysely<Database>;

/** The few statements written per dialect ask this (a transaction's executor answers too). */
export const isPostgres = (db: { getExecutor(): { readonly adapter: unknown } }): boolean =>
  db.getExecutor().adapter instanceof PostgresAdapter;

const PG_INT8_OID = 20;
/** SQLITE_LOCK_WAIT_MS's default, for targets made without the configuration. */
const DEFAULT_LOCK_WAIT_MS = 5000;

/** bigint (epoch-ms timestamps, count(*)) arrives from pg as text; every value we store fits in a
 *  double, so read them as numbers like better-sqlite3 does. Scoped to our pool, not pg's globals. */
const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === PG_INT8_OID && format !== 'binary'
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

export function pgClientConfig(url: string): pg.ClientConfig {
  return { connectionString: url, types: pgTypes };
}

/** `log` gets one line when another process starts holding SQLite's lock long and one when it is free. */
export function openDatabase(target: DatabaseTarget, log?: LockLog): Db {
  if (target.kind === 'sqlite') {
    // WAL mode (readers never wait for a writer), foreign keys, and lock waits kept off Node's thread:
    // db/sqlite-driver.ts.
    const lockWaitMs = target.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
    return new Kysely<Database>({ dialect: new LockAwareSqliteDialect(target.path, { lockWaitMs, log }) });
  }
  const pgConfig: pg.PoolConfig = { ...pgClientConfig(target.url), max: 10 };
  const pool = new pg.Pool(pgConfig);
  // An idle connection the server ends (restart, admin termination, a dropped test database while the
  // pool closes) is removed by the pool, which then emits 'error': unheard, that would crash the process.
  pool.on('error', () => undefined);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Applies every pending migration; throws with the failing migration's error. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async (): Promise<Record<string, Migration>> => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
