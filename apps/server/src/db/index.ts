import SQLite from 'better-sqlite3';
import { Kysely, type Migration, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

const PG_INT8_OID = 20;

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

export function openDatabase(target: DatabaseTarget): Db {
  if (target.kind === 'sqlite') {
    const sqlite = new SQLite(target.path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    // Concurrent writers (several requests) wait for the lock instead of failing with SQLITE_BUSY.
    sqlite.pragma('busy_timeout = 5000');
    return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
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
