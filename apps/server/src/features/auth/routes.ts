import { AUTH_ENDPOINTS as E, MSG } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { route } from '../../http/route.js';
import * as auth from './service.js';

/** Guest calls (spec §7 Auth): no token; JSON, form or multipart bodies (the guest scope that
 *  registers them parses those). */
export function guestAuthRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.login, (req) => auth.login(ctx, req.body, req.ip));

    route(app, E.register, async (req) => {
      await auth.register(ctx, req.body);
      return { message: MSG.registered };
    });

    route(app, E.recoveryPassword, async (req) => {
      await auth.requestRecovery(ctx, req.body);
      return { message: MSG.recoverySent };
    });

    route(app, E.setNewPassword, (req) => auth.setNewPassword(ctx, req.body));

    route(app, E.passwordRecoveryAccept, (req) => auth.acceptRecovery(ctx, req.body));

    route(app, E.checkHash, async (req, reply) => {
      const kind = await auth.checkHash(ctx, req.params.hash);
      return kind
        ? { message: MSG.hashValid, data: { kind } }
        : reply.code(404).send({ message: MSG.hashInvalid });
    });
  };
}

/** Signed-in calls of the auth API. */
export function sessionRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.logout, async (req) => {
      await auth.logout(ctx, caller(req));
      return { message: MSG.loggedOut };
    });

    route(app, E.check, async (req) => ({ message: MSG.ok, data: await auth.check(ctx, caller(req)) }));
  };
}
