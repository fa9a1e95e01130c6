import { MSG, ZAuditQuery, ZAuditResponse } from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/schemas.js';
import { readAudit } from './service.js';

/** The supervisor audit log of DESIGN §12 (inside the authenticated scope). */
export function auditRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/v1/supervisor/audit', {
      schema: {
        tags: ['supervisor'],
        security: bearerSecurity,
        summary: 'A team’s supervisor history, newest first (supervisors only)',
        querystring: ZAuditQuery,
        response: { 200: ZAuditResponse, ...errorResponses(400, 401, 403) },
      },
      handler: async (req) => ({
        message: MSG.ok,
        ...(await readAudit(ctx, caller(req).user, req.query.team_id, req.query.page)),
      }),
    });
  };
}
