/** PostgreSQL's class 22 "data exception" (a NUL or an untranslatable character in text, a number out
 *  of range, a malformed value): what the client sent cannot be stored, so it is a 400, never a 500. */
export function isDataException(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/** A unique index refused the row: SQLite's SQLITE_CONSTRAINT_UNIQUE or PostgreSQL's 23505. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

/**
 * Another process held SQLite's write lock for longer than this server waits (SQLITE_LOCK_WAIT_MS):
 * the change was not made and can be asked again. Answered 503 with Retry-After (http/errors.ts); the
 * statistics flush keeps its data and retries.
 */
export class DatabaseBusyError extends Error {
  readonly code = 'DATABASE_BUSY';
  constructor(
    /** How long this call waited for the lock, in milliseconds. */
    readonly waitedMs: number,
    options?: { cause?: unknown },
  ) {
    super(`The database is locked by another process (waited ${Math.round(waitedMs)} ms)`, options);
  }
}

export function isDatabaseBusy(error: unknown): error is DatabaseBusyError {
  return error instanceof DatabaseBusyError;
}
