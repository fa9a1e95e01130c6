import { TEAM_ENDPOINTS as E, MSG, ZTeamSearchRequest } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { route } from '../../http/route.js';
import { searchTeamsFor } from './service.js';

/** The team list: the caller's own teams (the switcher), every team for a supervisor (Team Management). */
export function teamSearchRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.search, async (req) => {
      const input = ZTeamSearchRequest.parse(req.body ?? {});
      const { data, total } = await searchTeamsFor(ctx, caller(req).user, input);
      return { message: MSG.ok, data, pagination: { total, page: input.page, limit: input.limit } };
    });
  };
}
