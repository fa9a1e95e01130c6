import { type FieldErrors, issuesToFieldErrors, MSG } from '@tlprt/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { DatabaseBusyError, isDataException } from '../db/errors.js';

/** Retry-After of a call refused because another process held SQLite's lock past SQLITE_LOCK_WAIT_MS. */
const DATABASE_BUSY_RETRY_AFTER_S = 2;

/** An error a service throws on purpose: the status and body of spec §8 / docs/DESIGN.md §4. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
    /** Extra response headers (Retry-After on 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: FieldErrors) => new HttpError(400, message, errors);
export const unauthorized = () => new HttpError(401, MSG.unauthorized);
export const forbidden = () => new HttpError(403, MSG.forbiddenText);
export const notFound = (message: string = MSG.notFound) => new HttpError(404, message);
export const tooManyRequests = (retryAfterMs: number, message: string = MSG.tooManyRequests) =>
  new HttpError(429, message, undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))),
  });

/** What the zod validator compiler raises: keeps zod's issues so field errors use the contract's texts. */
export class RequestValidationError extends Error {
  readonly statusCode = 400;
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super(MSG.validationFailed);
  }
}

/** Fastify's own client errors (body parsing, content type, limits) mapped to our messages. */
function clientErrorMessage(status: number): string {
  if (status === 413) return MSG.payloadTooLarge;
  if (status === 415) return MSG.unsupportedMediaType;
  if (status === 429) return MSG.tooManyRequests;
  if (status === 404) return MSG.notFound;
  if (status === 401) return MSG.unauthorized;
  if (status === 403) return MSG.forbiddenText;
  // Bad JSON, empty JSON body, broken multipart or form data: the body could not be read.
  if (status === 400) return MSG.malformedBody;
  return MSG.cantPerformTitle;
}

/** What an error is answered with: status, body and any extra headers. */
export interface ErrorAnswer {
  status: number;
  body: { message: string; errors?: FieldErrors };
  headers?: Record<string, string>;
}

interface ErrorLog {
  debug(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * One place that turns any error into `{message, errors?}`: never a stack trace, never a 5xx for
 * something the client sent. Fastify's error handler answers with it, and so does the ingest's own
 * HTTP path (features/statistics/ingest-http.ts).
 */
export function errorAnswer(err: unknown, log: ErrorLog): ErrorAnswer {
  if (err instanceof RequestValidationError) {
    return { status: 400, body: { message: MSG.validationFailed, errors: issuesToFieldErrors(err.issues) } };
  }
  if (err instanceof HttpError) {
    return {
      status: err.statusCode,
      body: err.errors ? { message: err.message, errors: err.errors } : { message: err.message },
      ...(err.headers ? { headers: err.headers } : {}),
    };
  }
  if (err instanceof DatabaseBusyError) {
    // Another process holds SQLite's lock: nothing was changed, and asking again soon is right. Not
    // logged per request: the database logs the episode once when it starts and once when it ends.
    return {
      status: 503,
      body: { message: MSG.cantPerformText },
      headers: { 'Retry-After': String(DATABASE_BUSY_RETRY_AFTER_S) },
    };
  }
  if (isDataException(err)) {
    // The client's mistake, one line per request: debug, as every request's line (request-log.ts).
    log.debug({ code: (err as { code?: unknown }).code }, 'value the database cannot store');
    return { status: 400, body: { message: MSG.invalidData } };
  }
  const { statusCode, code } = (err ?? {}) as { statusCode?: unknown; code?: unknown };
  const status = typeof statusCode === 'number' ? statusCode : 500;
  if (status >= 400 && status < 500) {
    log.debug({ code, status }, 'client error');
    return { status, body: { message: clientErrorMessage(status) } };
  }
  log.error({ err }, 'unexpected error');
  return { status: 500, body: { message: MSG.serverErrorTitle } };
}

/** Answers every error of `app`'s routes with errorAnswer; `translate` first turns an error into
 *  another (a feature's own 503, say) within the plugin it is registered in. */
export function registerErrorHandler(app: FastifyInstance, translate = (err: unknown) => err): void {
  app.setErrorHandler<FastifyError | HttpError | RequestValidationError>((err, req, reply) => {
    const answer = errorAnswer(translate(err), req.log);
    if (answer.headers) reply.headers(answer.headers);
    return reply.code(answer.status).send(answer.body);
  });
}
