import {
  MSG,
  MSG_DOMAIN_RULES,
  ZCreateKeyRequest,
  ZId,
  ZKeyListResponse,
  ZKeyResponse,
  ZMessage,
  ZRenameKeyRequest,
} from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { bearerSecurity, errorResponses, ZTeamItemParams, ZTeamParams } from '../../http/schemas.js';
import * as keys from './service.js';

const tags = ['keys'];
/** 0 means "every domain of the team". */
export const ZIdOrZero = z.coerce
  .number({ error: 'Must be a number' })
  .int('Must be a whole number')
  .min(0, 'Must not be negative')
  .max(2_147_483_647, 'Number is too large');

/** Key calls of docs/domains-and-keys.md (inside the authenticated scope). */
export function keyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/v1/keys/create/:teamId/:domainId', {
      schema: {
        tags,
        security: bearerSecurity,
        params: z.object({ teamId: ZId, domainId: ZIdOrZero }),
        body: ZCreateKeyRequest.nullish(),
        response: { 201: ZKeyResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
      handler: async (req, reply) => {
        const { teamId, domainId } = req.params;
        const key = await keys.createKey(ctx, caller(req).user, teamId, domainId, req.body?.name ?? '');
        return reply.code(201).send({ message: MSG.created, data: key });
      },
    });

    app.post('/api/v1/keys/:teamId', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamParams,
        response: { 200: ZKeyListResponse, ...errorResponses(400, 401, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await keys.listTeamKeys(ctx, caller(req).user, req.params.teamId),
      }),
    });

    app.get('/api/v1/keys/:teamId/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamItemParams,
        response: { 200: ZKeyResponse, ...errorResponses(400, 401, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await keys.readKey(ctx, caller(req).user, req.params.teamId, req.params.id),
      }),
    });

    app.put('/api/v1/keys/:teamId/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamItemParams,
        body: ZRenameKeyRequest,
        response: { 200: ZKeyResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await keys.renameKey(ctx, caller(req).user, req.params.teamId, req.params.id, req.body.name),
      }),
    });

    app.get('/api/v1/keys/active_key/:teamId/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamItemParams,
        response: { 200: ZKeyResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await keys.toggleKey(ctx, caller(req).user, req.params.teamId, req.params.id),
      }),
    });

    app.delete('/api/v1/keys/:teamId/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamItemParams,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        await keys.deleteKey(ctx, caller(req).user, req.params.teamId, req.params.id);
        return { message: MSG_DOMAIN_RULES.keyDeleted };
      },
    });

    app.post('/api/v1/keys/suspended/:teamId/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamItemParams,
        response: { 200: ZKeyResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await keys.toggleKeySuspension(ctx, caller(req).user, req.params.teamId, req.params.id),
      }),
    });
  };
}
