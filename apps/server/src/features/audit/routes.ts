import { AUDIT_ENDPOINTS as E, MSG } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { route } from '../../http/route.js';
import { readAudit } from './service.js';

/** The supervisor audit log of docs/DESIGN.md §12. */
export function auditRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.read, async (req) => ({
      message: MSG.ok,
      ...(await readAudit(ctx, caller(req).user, req.query.team_id, req.query.page)),
    }));
  };
}
