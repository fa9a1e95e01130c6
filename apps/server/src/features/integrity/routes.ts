import { PLAYER_ENDPOINTS as E, MSG_INTEGRITY, parseIntegrityRange } from '@tlprt/contract';
import type { FastifyPluginAsync, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { UsableKey } from '../../access/usable-keys.js';
import type { AppContext } from '../../context.js';
import { allowOrigin, preflight } from '../../http/cors.js';
import type { Edge } from '../../http/edge.js';
import { HttpError, tooManyRequests } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { createGate, HASH_ANSWER_CACHE_CONTROL } from './gate.js';
import { integrityFastPath } from './integrity-http.js';
import { createIntegrityService, type IntegrityServiceOptions } from './service.js';
import { deleteExpiredHashes } from './store.js';

/** How often expired segment hashes are deleted. */
const EXPIRED_SWEEP_MS = 10 * 60_000;

/** Deletes expired segment hashes from the shared table every EXPIRED_SWEEP_MS (every node sweeps; a
 *  row deleted twice is no harm). Returns what stops it. */
export function sweepExpiredHashes(ctx: AppContext): () => void {
  const sweep = setInterval(() => {
    deleteExpiredHashes(ctx.db, ctx.now()).catch((err: unknown) =>
      ctx.log.warn({ err }, 'integrity: expired hashes not deleted'),
    );
  }, EXPIRED_SWEEP_MS);
  sweep.unref();
  return () => clearInterval(sweep);
}

/**
 * GET /player/v1/integrity (docs/DESIGN.md §11, issue 36). One question per P2P segment of every viewer, so it
 * is answered ahead of Fastify's router (integrity-http.ts, through `edge`) by the same gate and service;
 * the route below answers what that path leaves (a closing server) and `inject`, and documents the call.
 */
export function integrityRoutes(
  ctx: AppContext,
  edge: Edge,
  count?: IntegrityServiceOptions['countVerification'],
): FastifyPluginAsync {
  return async (app) => {
    const svc = createIntegrityService(ctx, count ? { countVerification: count } : {});
    const gate = createGate(ctx, svc);
    const admitted = new WeakMap<FastifyRequest, UsableKey>();

    const perAddress: onRequestHookHandler = async (req) => {
      const wait = gate.addressWait(req.ip);
      if (wait > 0) throw tooManyRequests(wait, MSG_INTEGRITY.tooManyForAddress);
    };
    /** Runs before the schema, so that a browser can read the 400s and 429s of a key it may use. */
    const admit: onRequestHookHandler = async (req, reply) => {
      const origin = req.headers.origin;
      try {
        const key = await gate.admit((req.query as Record<string, unknown>).key, origin);
        if (key) {
          admitted.set(req, key);
          allowOrigin(reply, origin);
        }
      } catch (err) {
        // A key past its budget is still one of this page's: its 429 is readable.
        if (err instanceof HttpError && err.statusCode === 429) allowOrigin(reply, origin);
        throw err;
      }
    };

    route(
      app,
      E.integrity,
      async (req, reply) => {
        const key = admitted.get(req);
        if (!key) throw new HttpError(404, MSG_INTEGRITY.keyNotUsable);
        const url = new URL(req.query.url);
        const range = req.query.range === undefined ? undefined : parseIntegrityRange(req.query.range);
        const sha256 =
          svc.cached(key, url, range) ?? (await svc.sha256Of({ key, url, range, stream: req.query.stream }));
        reply.header('Cache-Control', HASH_ANSWER_CACHE_CONTROL);
        return { sha256 };
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
    // Errors are never reused by a cache in front: the next question may well be answered.
    app.addHook('onSend', async (req, reply) => {
      if (req.routeOptions.url !== E.integrity.path || req.method !== 'GET') return;
      reply.header('X-Content-Type-Options', 'nosniff');
      if (reply.statusCode !== 200) reply.header('Cache-Control', 'no-store');
    });

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

    edge.add(integrityFastPath(gate));
  };
}
