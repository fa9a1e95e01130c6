import { ACCOUNT_ENDPOINTS as E, MSG, MSG_TEAMS } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { route } from '../../http/route.js';
import * as account from './service.js';

/** Account self-service: password, e-mail, account deletion. */
export function accountRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.changePassword, async (req) => {
      const { user, sessionId } = caller(req);
      await account.changePassword(ctx, user, sessionId, req.params.id, req.body);
      return { message: MSG_TEAMS.passwordChanged };
    });

    route(app, E.changeEmail, async (req) => {
      await account.requestEmailChange(ctx, caller(req).user, req.params.id, req.body);
      return { message: MSG_TEAMS.linkSent };
    });

    route(app, E.changeEmailAccept, async (req) => {
      await account.acceptEmailChange(ctx, caller(req).user, req.body.hash);
      return { message: MSG_TEAMS.success };
    });

    route(app, E.changeEmailResend, async (req) => {
      await account.resendEmailChange(ctx, caller(req).user, req.body.url);
      return { message: MSG_TEAMS.linkSent };
    });

    route(app, E.changeEmailRevoke, async (req) => {
      await account.revokeEmailChange(ctx, caller(req).user);
      return { message: MSG_TEAMS.success };
    });

    route(app, E.deletionInfo, async (req) => ({
      message: MSG.ok,
      data: await account.deletionInfo(ctx, caller(req).user, req.params.id),
    }));

    route(app, E.deleteAccept, async (req) => {
      await account.acceptAccountDeletion(ctx, caller(req).user, req.body.hash);
      return { message: MSG_TEAMS.success };
    });

    route(app, E.remove, async (req) => {
      await account.requestAccountDeletion(ctx, caller(req).user, req.params.id, req.body);
      return { message: MSG_TEAMS.linkSent };
    });

    route(app, E.deleteResend, async (req) => {
      await account.resendAccountDeletion(ctx, caller(req).user, req.params.id, req.body.url);
      return { message: MSG_TEAMS.linkSent };
    });

    route(app, E.deleteRevoke, async (req) => {
      await account.revokeAccountDeletion(ctx, caller(req).user, req.params.id);
      return { message: MSG_TEAMS.success };
    });
  };
}
