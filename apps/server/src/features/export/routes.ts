import { Readable } from 'node:stream';
import { EXPORT_ENDPOINTS as E } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { route } from '../../http/route.js';
import { type ExportKind, exportCsv, exportFileName } from './service.js';

/** The supervisors' CSV lists: streamed attachments. */
export function exportRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    for (const kind of ['users', 'teams'] as ExportKind[]) {
      route(app, E[kind], async (req, reply) => {
        const chunks = exportCsv(ctx, caller(req).user, kind);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${exportFileName(kind, ctx.now())}"`)
          .header('cache-control', 'no-store')
          .send(Readable.from(chunks));
      });
    }
  };
}
