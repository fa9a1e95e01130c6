import { INVITATION_ENDPOINTS as E, MSG, MSG_TEAMS } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { lookupSession } from '../../directory/sessions.js';
import { caller, optionalCaller } from '../../http/auth.js';
import { route, teamAccess } from '../../http/route.js';
import * as invitations from './service.js';

/** Signed-in invitation calls. */
export function invitationRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.create, async (req) => {
      await invitations.inviteMember(ctx, teamAccess(req), req.body);
      return { message: MSG_TEAMS.inviteSent };
    });

    route(app, E.search, async (req) => ({
      message: MSG.ok,
      data: await invitations.teamInvitations(ctx, teamAccess(req)),
    }));

    route(app, E.mine, async (req) => ({
      message: MSG.ok,
      data: await invitations.myInvitations(ctx, caller(req).user),
    }));

    route(app, E.accept, async (req) => ({
      message: MSG_TEAMS.success,
      data: {
        team_id: await invitations.acceptById(ctx, caller(req).user, req.params.teamId, req.params.inviteId),
      },
    }));

    route(app, E.cancel, async (req) => {
      const r = await invitations.cancelById(ctx, caller(req).user, req.params.teamId, req.params.inviteId);
      return { message: r === 'declined' ? MSG_TEAMS.inviteDeclined : MSG_TEAMS.success };
    });

    route(app, E.resend, async (req) => {
      await invitations.resendInvitation(
        ctx,
        caller(req).user,
        req.params.teamId,
        req.params.inviteId,
        req.body,
      );
      return { message: MSG_TEAMS.inviteSent };
    });
  };
}

/** The mailed invitation links (guest calls; an existing account sends its Bearer). */
export function guestInvitationRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    const whoIsSignedIn = optionalCaller((hash) => lookupSession(ctx, hash));

    route(app, E.acceptByLink, async (req) =>
      invitations.acceptByHash(ctx, req.params.hash, (await whoIsSignedIn(req))?.user, req.body ?? undefined),
    );

    route(app, E.declineByLink, async (req) => {
      await invitations.declineByHash(ctx, req.params.hash);
      return { message: MSG_TEAMS.inviteDeclined };
    });
  };
}
