import { ORIGIN_ENDPOINTS as E, MSG, MSG_DOMAIN_RULES } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { route, teamAccess } from '../../http/route.js';
import * as origins from './service.js';

export function originRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.list, async (req) => ({
      message: MSG.ok,
      data: await origins.listTeamOrigins(ctx, teamAccess(req)),
    }));

    route(app, E.create, async (req) => ({
      message: MSG.created,
      data: await origins.createOrigin(ctx, teamAccess(req), req.body.name),
    }));

    route(app, E.toggle, async (req) => ({
      message: MSG.ok,
      data: await origins.toggleOrigin(ctx, teamAccess(req), req.params.id),
    }));

    route(app, E.verify, async (req) => ({
      message: MSG_DOMAIN_RULES.originVerified,
      data: await origins.verifyOrigin(ctx, teamAccess(req), req.params.id),
    }));

    route(app, E.remove, async (req) => {
      await origins.removeOrigin(ctx, teamAccess(req), req.params.id);
      return { message: MSG_DOMAIN_RULES.originDeleted };
    });
  };
}
