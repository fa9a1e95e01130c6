import {
  API,
  MSG,
  ZId,
  ZUpdateUserRequest,
  ZUserResponse,
  ZUserSearchRequest,
  ZUserSearchResponse,
} from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/schemas.js';
import * as users from './service.js';

const tags = ['user'];
const params = z.object({ id: ZId });

/** GET and PUT /api/v1/user/{id} (inside the authenticated scope). */
export function userRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(API.users.search, {
      schema: {
        tags,
        security: bearerSecurity,
        body: ZUserSearchRequest.nullish(),
        response: { 200: ZUserSearchResponse, ...errorResponses(400, 401, 403) },
      },
      handler: async (req) => {
        const input = ZUserSearchRequest.parse(req.body ?? {});
        const { data, total } = await users.searchUsersFor(ctx, caller(req).user, input);
        return { message: MSG.ok, data, pagination: { total, page: input.page, limit: input.limit } };
      },
    });

    app.get('/api/v1/user/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        response: { 200: ZUserResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await users.getUser(ctx, caller(req).user, req.params.id),
      }),
    });

    app.put('/api/v1/user/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        body: ZUpdateUserRequest,
        response: { 200: ZUserResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.updated,
        data: await users.updateUser(ctx, caller(req).user, req.params.id, req.body),
      }),
    });
  };
}
