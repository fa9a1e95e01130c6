import { API, MSG, ZCreateTeamRequest, ZTeamResponse } from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import * as teams from './service.js';

const tags = ['teams'];

/** Team calls (inside the authenticated scope). */
export function teamRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(API.dashboard.createTeam, {
      schema: {
        tags,
        security: [{ bearer: [] }],
        body: ZCreateTeamRequest,
        response: { 201: ZTeamResponse, ...errorResponses(400, 401, 403) },
      },
      handler: async (req, reply) =>
        reply
          .code(201)
          .send({ message: MSG.created, data: await teams.createTeam(ctx, caller(req).user, req.body) }),
    });
  };
}
