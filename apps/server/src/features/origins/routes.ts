import {
  MSG,
  MSG_DOMAIN_RULES,
  ZCreateOriginRequest,
  ZMessage,
  ZOriginListResponse,
  ZOriginResponse,
} from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { bearerSecurity, errorResponses, ZTeamItemParams, ZTeamParams } from '../../http/schemas.js';
import * as origins from './service.js';

const tags = ['origins'];

/** Origin calls (inside the authenticated scope). */
export function originRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/v1/origins/:teamId', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamParams,
        response: { 200: ZOriginListResponse, ...errorResponses(400, 401, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await origins.listTeamOrigins(ctx, caller(req).user, req.params.teamId),
      }),
    });

    app.post('/api/v1/origins/:teamId', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamParams,
        body: ZCreateOriginRequest,
        response: { 201: ZOriginResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req, reply) =>
        reply.code(201).send({
          message: MSG.created,
          data: await origins.createOrigin(ctx, caller(req).user, req.params.teamId, req.body.name),
        }),
    });

    app.get('/api/v1/origins/:teamId/:id/toggle', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamItemParams,
        response: { 200: ZOriginResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await origins.toggleOrigin(ctx, caller(req).user, req.params.teamId, req.params.id),
      }),
    });

    app.delete('/api/v1/origins/:teamId/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamItemParams,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        await origins.removeOrigin(ctx, caller(req).user, req.params.teamId, req.params.id);
        return { message: MSG_DOMAIN_RULES.originDeleted };
      },
    });
  };
}
