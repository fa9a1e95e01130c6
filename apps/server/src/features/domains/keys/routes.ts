import { KEY_ENDPOINTS as E, MSG, MSG_DOMAIN_RULES } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../../context.js';
import { route, teamAccess } from '../../../http/route.js';
import * as keys from './service.js';

export function keyRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.create, async (req) => {
      const { domainId } = req.params;
      const key = await keys.createKey(ctx, teamAccess(req), domainId, req.body?.name ?? '');
      return { message: MSG.created, data: key };
    });

    route(app, E.list, async (req) => ({
      message: MSG.ok,
      data: await keys.listTeamKeys(ctx, teamAccess(req)),
    }));

    route(app, E.read, async (req) => ({
      message: MSG.ok,
      data: await keys.readKey(ctx, teamAccess(req), req.params.id),
    }));

    route(app, E.rename, async (req) => ({
      message: MSG.ok,
      data: await keys.renameKey(ctx, teamAccess(req), req.params.id, req.body.name),
    }));

    route(app, E.toggleActive, async (req) => ({
      message: MSG.ok,
      data: await keys.toggleKey(ctx, teamAccess(req), req.params.id),
    }));

    route(app, E.remove, async (req) => {
      await keys.deleteKey(ctx, teamAccess(req), req.params.id);
      return { message: MSG_DOMAIN_RULES.keyDeleted };
    });

    route(app, E.suspend, async (req) => ({
      message: MSG.ok,
      data: await keys.toggleKeySuspension(ctx, teamAccess(req), req.params.id),
    }));
  };
}
