import { USER_ENDPOINTS as E, MSG, ZUserSearchRequest } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { route } from '../../http/route.js';
import * as users from './service.js';

/** The user search and one user's profile. */
export function userRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.search, async (req) => {
      const input = ZUserSearchRequest.parse(req.body ?? {});
      const { data, total } = await users.searchUsersFor(ctx, caller(req).user, input);
      return { message: MSG.ok, data, pagination: { total, page: input.page, limit: input.limit } };
    });

    route(app, E.read, async (req) => ({
      message: MSG.ok,
      data: await users.getUser(ctx, caller(req).user, req.params.id),
    }));

    route(app, E.update, async (req) => ({
      message: MSG.updated,
      data: await users.updateUser(ctx, caller(req).user, req.params.id, req.body),
    }));
  };
}
