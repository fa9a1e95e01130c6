import { LIVE_ENDPOINTS as E } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { route } from '../../http/route.js';

/** The live event stream of docs/DESIGN.md §5. */
export function liveRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, E.stream, async (req, reply) => {
      const { sessionId, expiresAt, user } = caller(req);
      // The stream outlives the handler: Fastify hands the raw response over to the hub.
      reply.hijack();
      const headers = Object.fromEntries(
        Object.entries(reply.getHeaders()).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
      );
      ctx.hub.open(reply.raw, { userId: user.id, sessionId, expiresAt }, headers);
    });
  };
}
