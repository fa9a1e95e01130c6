import { TEAM_LIFECYCLE_ENDPOINTS as E, MSG_TEAMS } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { route, teamAccess } from '../../http/route.js';
import * as lifecycle from './service.js';

const ok = (message: string) => ({ message });

/** Team deletion and suspension. */
export function teamLifecycleRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.deleteLock, async (req) => {
      await lifecycle.lockForDeletion(ctx, teamAccess(req), req.body);
      return ok(MSG_TEAMS.teamDeletionRequested);
    });

    route(app, E.deleteResend, async (req) => {
      await lifecycle.resendDeletion(ctx, teamAccess(req), req.body);
      return ok(MSG_TEAMS.linkSent);
    });

    route(app, E.deleteCancel, async (req) => {
      await lifecycle.cancelDeletion(ctx, teamAccess(req), req.body?.hash);
      return ok(MSG_TEAMS.teamDeletionCancelled);
    });

    route(app, E.deleteConfirm, async (req) => {
      await lifecycle.confirmDeletion(ctx, caller(req).user, req.body.hash);
      return ok(MSG_TEAMS.teamDeletedByLink);
    });

    route(app, E.suspend, async (req) => {
      const r = await lifecycle.suspendOrUnsuspend(ctx, teamAccess(req), req.body);
      return ok(r === 'unsuspended' ? MSG_TEAMS.teamUnsuspended : MSG_TEAMS.teamSuspensionRequested);
    });

    route(app, E.suspendResend, async (req) => {
      await lifecycle.resendSuspension(ctx, teamAccess(req), req.body);
      return ok(MSG_TEAMS.linkSent);
    });

    route(app, E.suspendRevoke, async (req) => {
      await lifecycle.revokeSuspension(ctx, teamAccess(req), req.body?.hash);
      return ok(MSG_TEAMS.teamSuspensionRevoked);
    });

    route(app, E.suspendConfirm, async (req) => {
      await lifecycle.confirmSuspension(ctx, caller(req).user, req.body.hash);
      return ok(MSG_TEAMS.teamSuspendedByLink);
    });
  };
}
