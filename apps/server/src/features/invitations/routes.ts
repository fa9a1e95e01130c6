import {
  API,
  MSG,
  MSG_TEAMS,
  ZHash,
  ZId,
  ZInvitationCreateRequest,
  ZInvitationListResponse,
  ZInvitationResendRequest,
  ZInviteAcceptResponse,
  ZInviteNewAccountRequest,
  ZMessage,
} from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { caller, optionalCaller } from '../../http/auth.js';
import { bearerSecurity, errorResponses, ZTeamParams } from '../../http/schemas.js';
import { lookupSession } from '../auth/service.js';
import * as invitations from './service.js';

const tags = ['invitations'];
const one = z.object({ teamId: ZId, inviteId: ZId });

/** Signed-in invitation calls (inside the authenticated scope). */
export function invitationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/v1/teams/:teamId/invitation/create', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamParams,
        body: ZInvitationCreateRequest,
        response: { 201: ZMessage, ...errorResponses(400, 401, 403, 404, 409) },
      },
      handler: async (req, reply) => {
        await invitations.inviteMember(ctx, caller(req).user, req.params.teamId, req.body);
        return reply.code(201).send({ message: MSG_TEAMS.inviteSent });
      },
    });

    app.post('/api/v1/teams/:teamId/invitation/search', {
      schema: {
        tags,
        security: bearerSecurity,
        params: ZTeamParams,
        response: { 200: ZInvitationListResponse, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await invitations.teamInvitations(ctx, caller(req).user, req.params.teamId),
      }),
    });

    app.post(API.users.invitations, {
      schema: {
        tags,
        security: bearerSecurity,
        response: { 200: ZInvitationListResponse, ...errorResponses(401) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        data: await invitations.myInvitations(ctx, caller(req).user),
      }),
    });

    app.put('/api/v1/teams/:teamId/invitation/:inviteId', {
      schema: {
        tags,
        security: bearerSecurity,
        params: one,
        response: { 200: ZInviteAcceptResponse, ...errorResponses(400, 401, 404) },
      },
      handler: async (req) => ({
        message: MSG_TEAMS.success,
        data: {
          team_id: await invitations.acceptById(
            ctx,
            caller(req).user,
            req.params.teamId,
            req.params.inviteId,
          ),
        },
      }),
    });

    app.delete('/api/v1/teams/:teamId/invitation/:inviteId', {
      schema: {
        tags,
        security: bearerSecurity,
        params: one,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        const r = await invitations.cancelById(ctx, caller(req).user, req.params.teamId, req.params.inviteId);
        return { message: r === 'declined' ? MSG_TEAMS.inviteDeclined : MSG_TEAMS.success };
      },
    });

    app.post('/api/v1/teams/:teamId/invitation/:inviteId/resend', {
      schema: {
        tags,
        security: bearerSecurity,
        params: one,
        body: ZInvitationResendRequest,
        response: { 200: ZMessage, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (req) => {
        await invitations.resendInvitation(
          ctx,
          caller(req).user,
          req.params.teamId,
          req.params.inviteId,
          req.body,
        );
        return { message: MSG_TEAMS.inviteSent };
      },
    });
  };
}

/** The mailed invitation links (guest scope: rate limited; an existing account sends its Bearer). */
export function guestInvitationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const params = z.object({ hash: ZHash });
    const whoIsSignedIn = optionalCaller((hash) => lookupSession(ctx, hash));

    app.put('/auth/guest/invitation/:hash', {
      schema: {
        tags,
        params,
        body: ZInviteNewAccountRequest.nullish(),
        response: { 200: ZInviteAcceptResponse, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
      handler: async (req) =>
        invitations.acceptByHash(
          ctx,
          req.params.hash,
          (await whoIsSignedIn(req))?.user,
          req.body ?? undefined,
        ),
    });

    app.delete('/auth/guest/invitation/:hash', {
      schema: { tags, params, response: { 200: ZMessage, ...errorResponses(400, 404, 429) } },
      handler: async (req) => {
        await invitations.declineByHash(ctx, req.params.hash);
        return { message: MSG_TEAMS.inviteDeclined };
      },
    });
  };
}
