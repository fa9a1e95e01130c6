import { TEAM_TOKEN_ENDPOINTS as E, MSG, MSG_TOKENS } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { route } from '../../http/route.js';
import * as tokens from './service.js';

export function teamTokenRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.list, async (req) => ({
      message: MSG.ok,
      data: await tokens.listTeamTokens(ctx, caller(req).user, req.params.teamId),
    }));

    route(app, E.create, async (req, reply) => {
      const data = await tokens.createTeamToken(
        ctx,
        caller(req).user,
        req.params.teamId,
        req.body.name,
        req.body.scope,
      );
      // The answer holds the secret: no cache on the way may keep a copy.
      reply.header('Cache-Control', 'no-store');
      return { message: MSG_TOKENS.created, data };
    });

    route(app, E.revoke, async (req) => {
      await tokens.revokeTeamToken(ctx, caller(req).user, req.params.teamId, req.params.id);
      return { message: MSG_TOKENS.revoked };
    });
  };
}
