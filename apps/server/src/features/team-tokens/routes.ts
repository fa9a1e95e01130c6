import { TEAM_TOKEN_ENDPOINTS as E, MSG, MSG_TOKENS } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { route, teamAccess } from '../../http/route.js';
import * as tokens from './service.js';

export function teamTokenRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.list, async (req) => ({
      message: MSG.ok,
      data: await tokens.listTeamTokens(ctx, teamAccess(req)),
    }));

    route(app, E.create, async (req, reply) => {
      const data = await tokens.createTeamToken(ctx, teamAccess(req), req.body.name, req.body.scope);
      // The answer holds the secret: no cache on the way may keep a copy.
      reply.header('Cache-Control', 'no-store');
      return { message: MSG_TOKENS.created, data };
    });

    route(app, E.revoke, async (req) => {
      await tokens.revokeTeamToken(ctx, teamAccess(req), req.params.id);
      return { message: MSG_TOKENS.revoked };
    });
  };
}
