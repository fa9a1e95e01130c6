import { ZApiError } from '@tlprt/contract';

/** Documents (OpenAPI) and serializes the error statuses a route can answer, all `{message, errors?}`. */
export function errorResponses<C extends number>(...codes: C[]): Record<C, typeof ZApiError> {
  return Object.fromEntries(codes.map((c) => [c, ZApiError])) as Record<C, typeof ZApiError>;
}
