import { ZApiError, ZId } from '@tlprt/contract';
import { z } from 'zod';

/** Documents (OpenAPI) and serializes the error statuses a route can answer, all `{message, errors?}`. */
export function errorResponses<C extends number>(...codes: C[]): Record<C, typeof ZApiError> {
  return Object.fromEntries(codes.map((c) => [c, ZApiError])) as Record<C, typeof ZApiError>;
}

/** OpenAPI: the route needs `Authorization: Bearer <token>`. */
export const bearerSecurity = [{ bearer: [] }];

/** Path parameters of the calls scoped to one team, and to one item of that team. */
export const ZTeamParams = z.object({ teamId: ZId });
export const ZTeamItemParams = z.object({ teamId: ZId, id: ZId });
