import { PLAYER_ENDPOINTS as E, MSG_INTEGRITY, parseIntegrityRange } from '@tlprt/contract';
import type { FastifyPluginAsync, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { UsableKey } from '../../access/usable-keys.js';
import type { AppContext } from '../../context.js';
import { allowOrigin, preflight } from '../../http/cors.js';
import { HttpError, tooManyRequests } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { SlidingWindowCounter } from '../../lib/sliding-window.js';
import { createIntegrityService } from './service.js';

/**
 * GET /player/v1/integrity (DESIGN §11): per-address limit → the key usable and the Origin one of its
 * pages (else 404; CORS from here on) → per-key limit → the query's schema → the service.
 */
export function integrityRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    const svc = createIntegrityService(ctx);
    const { perAddressPerMinute, perKeyPerMinute } = ctx.config.integrity;
    // @fastify/rate-limit runs one limit per request, so the per-key one is a counter of our own.
    const perAddress = app.rateLimit({
      max: perAddressPerMinute,
      timeWindow: 60_000,
      errorResponseBuilder: (_req: unknown, c: { ttl: number }) =>
        tooManyRequests(c.ttl, MSG_INTEGRITY.tooManyForAddress),
    });
    const perKey = new SlidingWindowCounter(perKeyPerMinute, 60_000, ctx.now);
    const admitted = new WeakMap<FastifyRequest, UsableKey>();

    /** Runs before the schema, so that a browser can read the 400s and 429s of a key it may use. */
    const admit: onRequestHookHandler = async (req, reply) => {
      const hash = (req.query as Record<string, unknown>).key;
      // Left to the schema's 400 (missing, repeated, too long).
      if (typeof hash !== 'string' || hash === '' || hash.length > 200) return;
      const origin = req.headers.origin;
      const key = await ctx.keys.find(hash);
      if (key === null || (origin !== undefined && !(await ctx.origins.forKey(hash, origin))))
        throw new HttpError(404, MSG_INTEGRITY.keyNotUsable);
      allowOrigin(reply, origin);
      const wait = perKey.hit(key.hash);
      if (wait > 0) throw tooManyRequests(wait, MSG_INTEGRITY.tooManyForKey);
      admitted.set(req, key);
    };

    route(
      app,
      E.integrity,
      async (req, reply) => {
        const key = admitted.get(req);
        if (!key) throw new HttpError(404, MSG_INTEGRITY.keyNotUsable);
        reply.header('X-Content-Type-Options', 'nosniff');
        const range = req.query.range === undefined ? undefined : parseIntegrityRange(req.query.range);
        return { sha256: await svc.sha256Of(key, new URL(req.query.url), range) };
      },
      {
        onRequest: [perAddress, admit],
        // One request per P2P segment of every viewer: no access log line each (warnings still are).
        logLevel: 'warn',
        // An answer under 100 bytes to a script's fetch: neither compression nor the page security headers apply.
        compress: false,
        helmet: false,
      },
    );

    // The request is a simple GET; a page that adds headers of its own gets a preflight answered here.
    app.options(E.integrity.path, { schema: { hide: true }, onRequest: perAddress }, async (req, reply) => {
      const origin = req.headers.origin;
      const hash = (req.query as Record<string, unknown>).key;
      const ok =
        origin !== undefined &&
        (typeof hash === 'string'
          ? await ctx.origins.forKey(hash, origin)
          : await ctx.origins.forAnyKey(origin));
      if (!ok) throw new HttpError(404, MSG_INTEGRITY.keyNotUsable);
      return preflight(reply, origin, 'GET');
    });
  };
}
