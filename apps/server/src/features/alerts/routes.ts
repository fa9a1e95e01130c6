import { ALERT_ENDPOINTS as E, MSG, MSG_ALERTS } from '@tlprt/contract';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { route, teamAccess } from '../../http/route.js';
import * as alerts from './service.js';

/** A save's or a rotation's answer may hold a signing secret: no cache on the way may keep a copy. */
const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');

/** The rules' CRUD and the secret's rotation (docs/DESIGN.md §13); the test, the delivery log and the preview
 *  are registered by their own parts. */
export function alertRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.list, async (req) => ({
      message: MSG.ok,
      data: await alerts.listAlerts(ctx, teamAccess(req)),
    }));

    route(app, E.create, async (req, reply) => {
      const data = await alerts.createAlert(ctx, teamAccess(req), req.body);
      noStore(reply);
      return { message: MSG_ALERTS.created, data };
    });

    route(app, E.update, async (req, reply) => {
      const data = await alerts.updateAlert(ctx, teamAccess(req), req.params.id, req.body);
      noStore(reply);
      return { message: MSG_ALERTS.updated, data };
    });

    route(app, E.remove, async (req) => {
      await alerts.removeAlert(ctx, teamAccess(req), req.params.id);
      return { message: MSG_ALERTS.deleted };
    });

    route(app, E.rotateSecret, async (req, reply) => {
      const data = await alerts.rotateAlertSecret(ctx, teamAccess(req), req.params.id);
      noStore(reply);
      return { message: MSG_ALERTS.secretRotated, data };
    });
  };
}
