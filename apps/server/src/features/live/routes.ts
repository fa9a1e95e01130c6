import { API } from '@tlprt/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { caller } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/schemas.js';

/** GET /auth/v1/sse/handle: the live event stream of DESIGN §5 (inside the authenticated scope). */
export function liveRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(API.auth.sse, {
      schema: {
        tags: ['auth'],
        security: bearerSecurity,
        description: 'text/event-stream: `data: {"code": N, ...}` per event, `: ping` heartbeats.',
        response: errorResponses(401),
      },
      handler: async (req, reply) => {
        const { sessionId, expiresAt, user } = caller(req);
        // The stream outlives the handler: Fastify hands the raw response over to the hub.
        reply.hijack();
        const headers = Object.fromEntries(
          Object.entries(reply.getHeaders()).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
        );
        ctx.hub.open(reply.raw, { userId: user.id, sessionId, expiresAt }, headers);
      },
    });
  };
}
