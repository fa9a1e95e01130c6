import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SqliteDialect,
  type TransactionSettings,
} from 'kysely';
import { DatabaseBusyError } from './errors.js';

/**
 * SQLite without a frozen server (issue 37 item 4). better-sqlite3 is synchronous: with a long
 * `busy_timeout`, a statement that waits for a lock another process holds (the supervisor CLI, a backup,
 * anything with the file open) waits on Node's only thread, and every request, the tracker and the
 * timers stop with it; 5 s of busy timeout froze the whole server for as long as the lock was held.
 *
 * So SQLite itself does not wait (BUSY_SPIN_MS), and the waiting is done here, between attempts
 * on timers, up to a total budget (SQLITE_LOCK_WAIT_MS), then a DatabaseBusyError (503 with Retry-After).
 * What can be retried is retried whole: a statement outside a transaction (one that failed with
 * SQLITE_BUSY had no effect), and a transaction's `BEGIN IMMEDIATE`, which takes the write lock before
 * anything runs — once it holds it, no statement of the transaction can be BUSY for another writer, and
 * in WAL mode COMMIT needs no other lock (it is still retried, as SQLite allows). A deferred BEGIN would
 * fail at its first write, half done, with nothing safe to retry (SQLITE_BUSY_SNAPSHOT in WAL mode).
 *
 * Three handles on the file, because Kysely's own driver has one connection behind a mutex: a write
 * waiting for the lock would hold that mutex and every read would queue behind it. Here:
 * - `writer`: write transactions and single writes, one at a time (a FIFO mutex, as before);
 * - `reader`: single read statements, never waiting for the mutex — WAL readers do not wait for
 *   writers, so a sign-in's lookups, the key settings read and the tracker's key checks go on while
 *   another process (or this one's own open transaction) writes; each statement sees what was committed
 *   when it starts, as a PostgreSQL pool would give;
 * - `snapshot`: read-only transactions (`setAccessMode('read only')`: one snapshot over several
 *   statements, never taking the write lock) and streamed selects, one at a time.
 * Whether a statement writes is SQLite's own answer (`Statement.readonly`), remembered per SQL text.
 * An in-memory database cannot be shared between handles: there everything runs on the writer, which
 * no other process can lock.
 */

/**
 * What SQLite may wait synchronously per attempt: none. Measured with another process holding the lock
 * 3 s and one write waiting (event-loop utilization over 2 s of the wait, 5 ms probe): 2% of the thread
 * at 0 ms, 15–17% at 2 ms, 19–22% at 5 ms (SQLite's busy handler sleeps on the thread), and the write
 * done within a pause after the release in each case; the old 5 s busy timeout held the thread 3.0 s.
 * A brief overlap with another process's commit costs one 2 ms timer instead.
 */
export const BUSY_SPIN_MS = 0;
/** Timer pauses between attempts double from the first to the last, then stay there: a lock freed is
 *  noticed within MAX_PAUSE_MS, and a lock held long costs about 1000 / MAX_PAUSE_MS attempts a second. */
const FIRST_PAUSE_MS = 2;
const MAX_PAUSE_MS = 25;
/** A wait this long (or a refusal) is an episode worth one log line; its end is another. */
const LOG_AFTER_MS = 1000;
/** Bound of the remembered "does this SQL write" answers (SQL texts vary with list lengths). */
const CLASSIFIED_MAX = 2000;

export interface LockLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface SqliteOptions {
  /** The total wait for a lock another process holds before DatabaseBusyError. */
  lockWaitMs: number;
  log?: LockLog;
}

const isBusy = (e: unknown): boolean => e instanceof SQLite.SqliteError && e.code.startsWith('SQLITE_BUSY');

/** First come, first served: the writer's transactions and single writes. */
class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves with the release function once every earlier holder has released. */
  lock(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => held);
    return ready;
  }
}

/** Contention episodes, logged once when they start and once when they end. */
class LockWatch {
  #since: number | undefined;
  #refused = 0;

  constructor(
    private readonly file: string,
    private readonly lockWaitMs: number,
    private readonly log: LockLog | undefined,
  ) {}

  waiting(waitedMs: number, refused: boolean): void {
    if (refused) this.#refused += 1;
    if (this.#since !== undefined || (!refused && waitedMs < LOG_AFTER_MS)) return;
    this.#since = performance.now() - waitedMs;
    this.log?.warn(
      { file: this.file, lockWaitMs: this.lockWaitMs },
      'SQLite is locked by another process: writes wait (503 past SQLITE_LOCK_WAIT_MS), reads go on',
    );
  }

  acquired(): void {
    if (this.#since === undefined) return;
    this.log?.info(
      { file: this.file, lockedMs: Math.round(performance.now() - this.#since), refused: this.#refused },
      'SQLite lock free again',
    );
    this.#since = undefined;
    this.#refused = 0;
  }
}

function open(path: string, readonly: boolean): SQLite.Database {
  const db = new SQLite(path, { readonly, fileMustExist: readonly });
  db.pragma(`busy_timeout = ${BUSY_SPIN_MS}`);
  return db;
}

function run(
  db: SQLite.Database,
  stmt: SQLite.Statement | undefined,
  q: CompiledQuery,
): QueryResult<unknown> {
  const s = stmt ?? db.prepare(q.sql);
  const parameters = q.parameters as unknown[];
  if (s.reader) return { rows: s.all(parameters) };
  const { changes, lastInsertRowid } = s.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

class Handles {
  readonly writer: SQLite.Database;
  readonly reader: SQLite.Database;
  readonly snapshot: SQLite.Database;
  readonly writes = new Mutex();
  readonly snapshots = new Mutex();
  readonly watch: LockWatch;
  readonly #readonlyBySql = new Map<string, boolean>();

  constructor(
    path: string,
    readonly options: SqliteOptions,
  ) {
    this.writer = open(path, false);
    const memory = path === ':memory:' || path === '';
    let mode: unknown;
    try {
      mode = this.writer.pragma('journal_mode = WAL', { simple: true });
    } catch (e) {
      mode = (e as Error).message;
    }
    if (!memory && mode !== 'wal') {
      this.writer.close();
      throw new Error(`SQLite could not put ${path} in WAL mode (${String(mode)})`);
    }
    this.writer.pragma('foreign_keys = ON');
    const opened = [this.writer];
    const openReader = () => {
      const db = open(path, true);
      opened.push(db);
      return db;
    };
    try {
      this.reader = memory ? this.writer : openReader();
      this.snapshot = memory ? this.writer : openReader();
    } catch (e) {
      for (const db of opened) db.close();
      throw e;
    }
    this.watch = new LockWatch(path, options.lockWaitMs, options.log);
  }

  get shared(): boolean {
    return this.reader === this.writer;
  }

  /** Runs `attempt` until it is not SQLITE_BUSY, pausing on timers, until `startedAt + lockWaitMs`. */
  async retry<T>(startedAt: number, attempt: () => T, writes: boolean): Promise<T> {
    let pause = FIRST_PAUSE_MS;
    for (;;) {
      try {
        const result = attempt();
        if (writes) this.watch.acquired();
        return result;
      } catch (e) {
        if (!isBusy(e)) throw e;
        const waited = performance.now() - startedAt;
        const left = this.options.lockWaitMs - waited;
        if (left <= 0) {
          this.watch.waiting(waited, true);
          throw new DatabaseBusyError(waited, { cause: e });
        }
        this.watch.waiting(waited, false);
        await sleep(Math.min(pause, left));
        pause = Math.min(pause * 2, MAX_PAUSE_MS);
      }
    }
  }

  /** A statement outside any transaction: a read on the reader at once, a write in the writer's turn. */
  async single(q: CompiledQuery): Promise<QueryResult<unknown>> {
    const startedAt = performance.now();
    if (!this.shared) {
      const read = await this.retry(startedAt, () => this.readOnReader(q), false);
      if (read) return read;
    }
    const release = await this.writes.lock();
    try {
      return await this.retry(startedAt, () => run(this.writer, undefined, q), true);
    } finally {
      release();
    }
  }

  /** The statement's rows if it only reads; undefined if it writes (or the reader cannot prepare it). */
  private readOnReader(q: CompiledQuery): QueryResult<unknown> | undefined {
    if (this.#readonlyBySql.get(q.sql) === false) return undefined;
    let stmt: SQLite.Statement;
    try {
      stmt = this.reader.prepare(q.sql);
    } catch (e) {
      if (isBusy(e)) throw e;
      return undefined; // the writer reports the error, with its own view of the schema
    }
    if (this.#readonlyBySql.size >= CLASSIFIED_MAX) this.#readonlyBySql.clear();
    this.#readonlyBySql.set(q.sql, stmt.readonly);
    return stmt.readonly ? run(this.reader, stmt, q) : undefined;
  }
}

type Mode = { kind: 'write'; release: () => void } | { kind: 'read'; release: () => void };

class LockAwareConnection implements DatabaseConnection {
  mode: Mode | undefined;

  constructor(readonly handles: Handles) {}

  /** The handle of the open transaction. */
  get txHandle(): SQLite.Database | undefined {
    if (!this.mode) return undefined;
    return this.mode.kind === 'write' ? this.handles.writer : this.handles.snapshot;
  }

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const db = this.txHandle;
    if (!db) return (await this.handles.single(q)) as QueryResult<R>;
    try {
      return run(db, undefined, q) as QueryResult<R>;
    } catch (e) {
      // Not expected while holding the write lock; still a lock problem, not a bug of the caller.
      if (isBusy(e)) throw new DatabaseBusyError(0, { cause: e });
      throw e;
    }
  }

  async *streamQuery<R>(q: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // An open iterator occupies its handle: outside a transaction it takes the snapshot handle's turn.
    const release = this.txHandle ? undefined : await this.handles.snapshots.lock();
    try {
      const db = this.txHandle ?? this.handles.snapshot;
      const stmt = db.prepare(q.sql);
      if (!stmt.reader) throw new Error('Only statements that return rows can be streamed');
      for (const row of stmt.iterate(q.parameters as unknown[])) yield { rows: [row as R] };
    } finally {
      release?.();
    }
  }

  async begin(settings: TransactionSettings): Promise<void> {
    const h = this.handles;
    if (settings.accessMode === 'read only' && !h.shared) {
      const release = await h.snapshots.lock();
      try {
        h.snapshot.exec('BEGIN');
      } catch (e) {
        release();
        throw e;
      }
      this.mode = { kind: 'read', release };
      return;
    }
    const startedAt = performance.now();
    const release = await h.writes.lock();
    try {
      await h.retry(startedAt, () => h.writer.exec('BEGIN IMMEDIATE'), true);
    } catch (e) {
      release();
      throw e;
    }
    this.mode = { kind: 'write', release };
  }

  async end(statement: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    const db = this.txHandle;
    if (!db) return;
    if (statement === 'COMMIT') {
      // A COMMIT refused as BUSY leaves the transaction open and may be asked again; past the budget
      // the caller's rollback follows.
      await this.handles.retry(performance.now(), () => db.exec('COMMIT'), this.mode?.kind === 'write');
    } else if (db.inTransaction) {
      // SQLite has already rolled back after some errors (a full disk, an I/O error): a ROLLBACK then
      // would fail with "no transaction is active" and hide the error that mattered.
      db.exec('ROLLBACK');
    }
    this.finish();
  }

  finish(): void {
    this.mode?.release();
    this.mode = undefined;
  }
}

class LockAwareSqliteDriver implements Driver {
  constructor(private readonly handles: Handles) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // Cheap, and nothing is taken yet: a transaction takes its handle's turn at BEGIN, a single
    // statement when it runs.
    return new LockAwareConnection(this.handles);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return (connection as LockAwareConnection).begin(settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as LockAwareConnection).end('COMMIT');
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as LockAwareConnection).end('ROLLBACK');
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoted(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoted(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoted(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // A transaction whose COMMIT and ROLLBACK both failed must not keep its handle's turn.
    const c = connection as LockAwareConnection;
    if (c.mode) {
      const db = c.txHandle;
      try {
        if (db?.inTransaction) db.exec('ROLLBACK');
      } finally {
        c.finish();
      }
    }
  }

  async destroy(): Promise<void> {
    const h = this.handles;
    for (const db of new Set([h.snapshot, h.reader, h.writer])) db.close();
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Kysely's SQLite dialect (compiler, adapter, introspector) with the driver above. The file is opened
 *  here, at once, so a file that cannot be opened fails the caller, not its first query. */
export class LockAwareSqliteDialect extends SqliteDialect {
  readonly #driver: LockAwareSqliteDriver;

  constructor(path: string, options: SqliteOptions) {
    const handles = new Handles(path, options);
    // The base class's own driver is never created; it only needs something to hold.
    super({ database: handles.writer });
    this.#driver = new LockAwareSqliteDriver(handles);
  }

  override createDriver(): Driver {
    return this.#driver;
  }
}
