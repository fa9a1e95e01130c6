import { KEY_ENDPOINTS as E, MSG, MSG_DOMAIN_RULES } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../../context.js';
import { caller } from '../../../http/auth.js';
import { route } from '../../../http/route.js';
import * as keys from './service.js';

export function keyRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.create, async (req) => {
      const { teamId, domainId } = req.params;
      const key = await keys.createKey(ctx, caller(req).user, teamId, domainId, req.body?.name ?? '');
      return { message: MSG.created, data: key };
    });

    route(app, E.list, async (req) => ({
      message: MSG.ok,
      data: await keys.listTeamKeys(ctx, caller(req).user, req.params.teamId),
    }));

    route(app, E.read, async (req) => ({
      message: MSG.ok,
      data: await keys.readKey(ctx, caller(req).user, req.params.teamId, req.params.id),
    }));

    route(app, E.rename, async (req) => ({
      message: MSG.ok,
      data: await keys.renameKey(ctx, caller(req).user, req.params.teamId, req.params.id, req.body.name),
    }));

    route(app, E.toggleActive, async (req) => ({
      message: MSG.ok,
      data: await keys.toggleKey(ctx, caller(req).user, req.params.teamId, req.params.id),
    }));

    route(app, E.remove, async (req) => {
      await keys.deleteKey(ctx, caller(req).user, req.params.teamId, req.params.id);
      return { message: MSG_DOMAIN_RULES.keyDeleted };
    });

    route(app, E.suspend, async (req) => ({
      message: MSG.ok,
      data: await keys.toggleKeySuspension(ctx, caller(req).user, req.params.teamId, req.params.id),
    }));
  };
}
