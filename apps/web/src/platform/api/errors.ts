import type { TApiError } from '@tlprt/contract';

/** Any non-200/201 answer (status 0 = the request never got an answer). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: TApiError;
  constructor(status: number, body: TApiError) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
  get fieldErrors(): Record<string, string> {
    return this.body.errors ?? {};
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
