import { Readable } from 'node:stream';
import { API } from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/schemas.js';
import { type ExportKind, exportCsv, exportFileName } from './service.js';

const tags = ['export'];

/** GET /api/v1/export/{users,teams}.csv (supervisors): streamed CSV attachments. */
export function exportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    for (const kind of ['users', 'teams'] as ExportKind[]) {
      app.get(API.export[kind], {
        schema: {
          tags,
          security: bearerSecurity,
          summary: `CSV list of all ${kind} (supervisors)`,
          description:
            'text/csv attachment (RFC 4180, CRLF); 401 without a session, 403 for non-supervisors.',
          produces: ['text/csv'],
          // 200 is the CSV stream itself: described, not serialized.
          response: { 200: z.unknown().describe('text/csv'), ...errorResponses(401, 403) },
        },
        handler: async (req, reply) => {
          const chunks = exportCsv(ctx, caller(req).user, kind);
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${exportFileName(kind, ctx.now())}"`)
            .header('cache-control', 'no-store')
            .send(Readable.from(chunks));
        },
      });
    }
  };
}
