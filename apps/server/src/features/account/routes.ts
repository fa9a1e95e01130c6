import {
  API,
  MSG,
  MSG_TEAMS,
  ZChangeEmailRequest,
  ZChangeEmailResendRequest,
  ZChangeEmailRevokeRequest,
  ZChangePasswordRequest,
  ZDeleteInfoResponse,
  ZDeleteUserRequest,
  ZHashRequest,
  ZId,
  ZMessage,
  ZUserResendRequest,
  ZUserRevokeRequest,
} from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/schemas.js';
import * as account from './service.js';

const tags = ['user'];
const params = z.object({ id: ZId });

/** Account self-service: password, e-mail, account deletion (inside the authenticated scope). */
export function accountRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/v1/profile_settings/user/:id/change_password', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        body: ZChangePasswordRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403) },
      },
      handler: async (req) => {
        const { user, sessionId } = caller(req);
        await account.changePassword(ctx, user, sessionId, req.params.id, req.body);
        return { message: MSG_TEAMS.passwordChanged };
      },
    });

    app.post('/api/v1/profile_settings/user/:id/change_email', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        body: ZChangeEmailRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 409) },
      },
      handler: async (req) => {
        await account.requestEmailChange(ctx, caller(req).user, req.params.id, req.body);
        return { message: MSG_TEAMS.linkSent };
      },
    });

    app.post(API.users.changeEmailAccept, {
      schema: {
        tags,
        security: bearerSecurity,
        body: ZHashRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404, 409) },
      },
      handler: async (req) => {
        await account.acceptEmailChange(ctx, caller(req).user, req.body.hash);
        return { message: MSG_TEAMS.success };
      },
    });

    app.post(API.users.changeEmailResend, {
      schema: {
        tags,
        security: bearerSecurity,
        body: ZChangeEmailResendRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 409) },
      },
      handler: async (req) => {
        await account.resendEmailChange(ctx, caller(req).user, req.body.url);
        return { message: MSG_TEAMS.linkSent };
      },
    });

    app.post(API.users.changeEmailRevoke, {
      schema: {
        tags,
        security: bearerSecurity,
        body: ZChangeEmailRevokeRequest.nullish(),
        response: { 200: ZMessage, ...errorResponses(400, 401, 409) },
      },
      handler: async (req) => {
        await account.revokeEmailChange(ctx, caller(req).user);
        return { message: MSG_TEAMS.success };
      },
    });

    app.post('/api/v1/user/:id/info_delete', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        response: { 200: ZDeleteInfoResponse, ...errorResponses(400, 401, 403) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await account.deletionInfo(ctx, caller(req).user, req.params.id),
      }),
    });

    app.delete(API.users.deleteAccept, {
      schema: {
        tags,
        security: bearerSecurity,
        body: ZHashRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404, 409) },
      },
      handler: async (req) => {
        await account.acceptAccountDeletion(ctx, caller(req).user, req.body.hash);
        return { message: MSG_TEAMS.success };
      },
    });

    app.delete('/api/v1/user/:id', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        body: ZDeleteUserRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 409) },
      },
      handler: async (req) => {
        await account.requestAccountDeletion(ctx, caller(req).user, req.params.id, req.body);
        return { message: MSG_TEAMS.linkSent };
      },
    });

    app.post('/api/v1/user/:id/resend', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        body: ZUserResendRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 409) },
      },
      handler: async (req) => {
        await account.resendAccountDeletion(ctx, caller(req).user, req.params.id, req.body.url);
        return { message: MSG_TEAMS.linkSent };
      },
    });

    app.post('/api/v1/user/:id/revoke', {
      schema: {
        tags,
        security: bearerSecurity,
        params,
        body: ZUserRevokeRequest.nullish(),
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 409) },
      },
      handler: async (req) => {
        await account.revokeAccountDeletion(ctx, caller(req).user, req.params.id);
        return { message: MSG_TEAMS.success };
      },
    });
  };
}
