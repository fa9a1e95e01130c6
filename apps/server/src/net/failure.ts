/**
 * A check or guarded fetch that did not pass, with a short human reason (logs, answers). Internal
 * helpers throw it so each check reads as straight-line code; domain verification turns it into
 * `{ ok: false }`, the integrity service into a 502.
 */
export class CheckFailed extends Error {
  override readonly name = 'CheckFailed';
}

/** The reason to log for any error: our own message, or a code-only summary (never a stack trace). */
export function reasonOf(error: unknown): string {
  if (error instanceof CheckFailed) return error.message;
  const code = errorCode(error);
  return code ? `unexpected error (${code})` : 'unexpected error';
}

export function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Waits for `promise` unless `signal` aborts first; then rejects with the signal's reason. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
