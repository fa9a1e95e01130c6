import {
  API,
  MSG_TEAMS,
  ZDeleteLockRequest,
  ZHashRequest,
  ZId,
  ZLinkPathsRequest,
  ZMessage,
  ZOptionalHashRequest,
  ZSuspendRequest,
} from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/schemas.js';
import * as lifecycle from './service.js';

const tags = ['teams'];
const params = z.object({ id: ZId });
const ok = (message: string) => ({ message });

/** Team deletion and suspension (inside the authenticated scope). */
export function teamLifecycleRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/v1/teams/:id/delete/lock', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        body: ZDeleteLockRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        await lifecycle.lockForDeletion(ctx, caller(req).user, req.params.id, req.body);
        return ok(MSG_TEAMS.teamDeletionRequested);
      },
    });

    app.post('/api/v1/teams/:id/delete/resend', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        body: ZLinkPathsRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        await lifecycle.resendDeletion(ctx, caller(req).user, req.params.id, req.body);
        return ok(MSG_TEAMS.linkSent);
      },
    });

    app.post('/api/v1/teams/:id/delete/cancel', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        body: ZOptionalHashRequest.nullish(),
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        await lifecycle.cancelDeletion(ctx, caller(req).user, req.params.id, req.body?.hash);
        return ok(MSG_TEAMS.teamDeletionCancelled);
      },
    });

    app.delete(API.teams.deleteConfirm, {
      schema: {
        tags,
        security: bearerSecurity,
        body: ZHashRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        await lifecycle.confirmDeletion(ctx, caller(req).user, req.body.hash);
        return ok(MSG_TEAMS.teamDeletedByLink);
      },
    });

    app.post('/api/v1/teams/:id/suspended', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        body: ZSuspendRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404, 409) },
      },
      handler: async (req) => {
        const r = await lifecycle.suspendOrUnsuspend(ctx, caller(req).user, req.params.id, req.body);
        return ok(r === 'unsuspended' ? MSG_TEAMS.teamUnsuspended : MSG_TEAMS.teamSuspensionRequested);
      },
    });

    app.post('/api/v1/teams/:id/suspended/resend', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        body: ZLinkPathsRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        await lifecycle.resendSuspension(ctx, caller(req).user, req.params.id, req.body);
        return ok(MSG_TEAMS.linkSent);
      },
    });

    app.post('/api/v1/teams/:id/suspended/revoke', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        body: ZOptionalHashRequest.nullish(),
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        await lifecycle.revokeSuspension(ctx, caller(req).user, req.params.id, req.body?.hash);
        return ok(MSG_TEAMS.teamSuspensionRevoked);
      },
    });

    app.put(API.teams.suspendConfirm, {
      schema: {
        tags,
        security: bearerSecurity,
        body: ZHashRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        await lifecycle.confirmSuspension(ctx, caller(req).user, req.body.hash);
        return ok(MSG_TEAMS.teamSuspendedByLink);
      },
    });
  };
}
