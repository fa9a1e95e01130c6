import {
  API,
  MSG,
  ZCheckHashResponse,
  ZCheckResponse,
  ZHash,
  ZLoginRequest,
  ZLoginResponse,
  ZMessage,
  ZPasswordRecoveryAcceptRequest,
  ZRecoveryRequest,
  ZRegisterRequest,
  ZSetNewPasswordRequest,
} from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/schemas.js';
import * as auth from './service.js';

const tags = ['auth'];

/** Guest calls (spec §7 Auth): no token; JSON, form or multipart bodies; rate-limited per address by
 *  the guest scope that registers them. */
export function guestAuthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(API.auth.login, {
      schema: {
        tags,
        body: ZLoginRequest,
        response: { 200: ZLoginResponse, ...errorResponses(400, 401, 429) },
      },
      handler: (req) => auth.login(ctx, req.body, req.ip),
    });

    app.post(API.auth.register, {
      schema: { tags, body: ZRegisterRequest, response: { 201: ZMessage, ...errorResponses(400, 429) } },
      handler: async (req, reply) => {
        await auth.register(ctx, req.body);
        return reply.code(201).send({ message: MSG.registered });
      },
    });

    app.post(API.auth.recoveryPassword, {
      schema: { tags, body: ZRecoveryRequest, response: { 200: ZMessage, ...errorResponses(400, 429) } },
      handler: async (req) => {
        await auth.requestRecovery(ctx, req.body);
        return { message: MSG.recoverySent };
      },
    });

    app.post(API.auth.setNewPassword, {
      schema: {
        tags,
        body: ZSetNewPasswordRequest,
        response: { 200: ZLoginResponse, ...errorResponses(400, 404, 429) },
      },
      handler: (req) => auth.setNewPassword(ctx, req.body),
    });

    app.post(API.auth.passwordRecoveryAccept, {
      schema: {
        tags,
        body: ZPasswordRecoveryAcceptRequest,
        response: { 200: ZLoginResponse, ...errorResponses(400, 404, 429) },
      },
      handler: (req) => auth.acceptRecovery(ctx, req.body),
    });

    app.get('/auth/guest/check_hash/:hash', {
      schema: {
        tags,
        params: z.object({ hash: ZHash }),
        response: { 200: ZCheckHashResponse, 404: ZCheckHashResponse, ...errorResponses(400, 429) },
      },
      handler: async (req, reply) => {
        const kind = await auth.checkHash(ctx, req.params.hash);
        return kind
          ? { message: MSG.hashValid, data: { kind } }
          : reply.code(404).send({ message: MSG.hashInvalid });
      },
    });
  };
}

/** Signed-in calls of the auth API (registered inside the authenticated scope). */
export function sessionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(API.auth.logout, {
      schema: { tags, security: bearerSecurity, response: { 200: ZMessage, ...errorResponses(401) } },
      handler: async (req) => {
        await auth.logout(ctx, caller(req));
        return { message: MSG.loggedOut };
      },
    });

    app.get(API.auth.check, {
      schema: { tags, security: bearerSecurity, response: { 200: ZCheckResponse, ...errorResponses(401) } },
      handler: async (req) => ({ message: MSG.ok, data: await auth.check(ctx, caller(req)) }),
    });
  };
}
