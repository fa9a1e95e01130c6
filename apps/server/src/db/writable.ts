import { closeSync, constants, existsSync, openSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import type { DatabaseTarget } from '../config.js';
import { isDatabaseBusy } from './errors.js';
import type { Db } from './index.js';

/** Why the database file or its folder cannot be written, or undefined when both can. */
function sqliteUnwritable(path: string): string | undefined {
  const folder = dirname(path);
  try {
    // Opening for writing is the check that also holds for root, whom file modes do not stop: a
    // read-only mount (EROFS) or an immutable file (EPERM) still refuse it.
    if (existsSync(path)) closeSync(openSync(path, constants.O_RDWR));
  } catch (err) {
    return `the database file ${path} cannot be written (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  // SQLite makes its -wal and -shm files beside the database: a folder it cannot write makes every
  // write fail as surely as a read-only file.
  const probe = join(folder, `.tlprt-write-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL));
    rmSync(probe, { force: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    return `the folder ${folder} of the database file ${path} cannot be written (${code})`;
  }
  return undefined;
}

/**
 * Refuses to start on a database that cannot take writes: a SQLite file (or its folder) on a
 * read-only mount, immutable or without write permission, or a PostgreSQL server that takes only reads
 * (a standby). Started on one, the server would answer and then drop every report it accepted.
 */
export async function assertDatabaseWritable(target: DatabaseTarget, db?: Db): Promise<void> {
  if (target.kind === 'sqlite') {
    if (target.path === ':memory:') return;
    const why = sqliteUnwritable(target.path);
    if (why) throw new Error(`Cannot start: ${why}`);
    return;
  }
  if (!db) return;
  const { rows } = await sql<{ ro: string }>`select current_setting('transaction_read_only') as ro`.execute(
    db,
  );
  if (rows[0]?.ro === 'on') {
    throw new Error('Cannot start: the PostgreSQL database of DATABASE_URL takes only reads (a standby?)');
  }
}

const SQLITE_OUTAGE =
  /^SQLITE_(FULL|READONLY|IOERR|BUSY|LOCKED|CANTOPEN|NOMEM|PROTOCOL|NOLFS|CORRUPT|NOTADB)/;
/** PostgreSQL's classes of failures that are the server's state, not the data: connection (08),
 *  insufficient resources such as a full disk (53), operator intervention (57), system errors (58),
 *  serialization and deadlock (40), locks (55P03) and read-only transactions (25006). */
const PG_OUTAGE = /^(08|53|57|58|40)[0-9A-Z]{3}$|^55P03$|^25006$/;
const NODE_OUTAGE = new Set([
  // db/errors.ts DatabaseBusyError: another process held SQLite's lock past SQLITE_LOCK_WAIT_MS.
  'DATABASE_BUSY',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOSPC',
  'EROFS',
  'EIO',
  'EDQUOT',
]);
/** What node-postgres throws without a code when the connection goes or never comes. */
const PG_CONNECTION =
  /Connection terminated|timeout exceeded when trying to connect|connection error|not queryable/i;

/**
 * Whether an error is the storage failing (down, unreachable, full, read-only, locked, I/O) rather than
 * something wrong with what was written: such a write is kept and retried, never dropped.
 */
export function isStorageUnavailable(err: unknown): boolean {
  if (isDatabaseBusy(err)) return true;
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (SQLITE_OUTAGE.test(code) || PG_OUTAGE.test(code) || NODE_OUTAGE.has(code))
    )
      return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && PG_CONNECTION.test(message)) return true;
    // An AggregateError (pg's connection to several addresses) or a wrapped cause.
    const inner = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.some((x) => isStorageUnavailable(x))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
