import { PLAYER_ENDPOINTS as E, HASH_PUSH_RATE, LIMITS, MSG, MSG_HASHES } from '@tlprt/contract';
import type { FastifyPluginAsync, onRequestHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { errorAnswer, HttpError, tooManyRequests } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { tokenGuard } from '../../http/token-guard.js';
import { SlidingWindowCounter } from '../../lib/sliding-window.js';
import { pushHashes } from './push.js';
import { TeamHosts } from './team-hosts.js';

/**
 * POST /player/v1/hashes: the token (a live one of scope `hashes`, else 401: the token guard of
 * http/token-guard.ts, shared with the ingest and the export) and its budget of pushes (429) are
 * checked before the body is read, so a stranger never has 4 MiB parsed; then the request's
 * schema (400), the token's budget of hashes (429), and the items one by one (push.ts).
 */
export function hashPushRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    const hosts = new TeamHosts(ctx.db, ctx.now);
    const pushes = new SlidingWindowCounter(HASH_PUSH_RATE.requestsPerMinute, 60_000, ctx.now);
    const hashes = new SlidingWindowCounter(HASH_PUSH_RATE.hashesPerMinute, 60_000, ctx.now);
    const guard = tokenGuard(ctx, 'hashes', MSG_HASHES.badToken);

    const admit: onRequestHookHandler = async (req) => {
      const from = guard.callerOf(req);
      if (!from) throw new HttpError(401, MSG_HASHES.badToken);
      const wait = pushes.hit(from.token);
      if (wait > 0) throw tooManyRequests(wait, MSG_HASHES.tooManyRequests);
    };

    route(
      app,
      E.hashes,
      async (req, reply) => {
        const from = guard.callerOf(req);
        if (!from) throw new HttpError(401, MSG_HASHES.badToken);
        const items = req.body.hashes;
        const wait = hashes.hit(from.token, items.length);
        if (wait > 0) throw tooManyRequests(wait, MSG_HASHES.tooManyHashes);
        reply.header('Cache-Control', 'no-store');
        return pushHashes(ctx, hosts, from.teamId, items);
      },
      {
        onRequest: [guard.onRequest, admit],
        bodyLimit: LIMITS.hashPushBodyBytes,
        // A body past the limit is a request with too many hashes: answered like the array's own limit.
        errorHandler: (err, req, reply) => {
          const tooLarge = (err as { code?: unknown }).code === 'FST_ERR_CTP_BODY_TOO_LARGE';
          const answer = errorAnswer(
            tooLarge
              ? new HttpError(400, MSG.validationFailed, {
                  hashes: MSG_HASHES.bodyTooLarge(LIMITS.hashPushBodyBytes),
                })
              : err,
            req.log,
          );
          if (answer.headers) reply.headers(answer.headers);
          return reply.code(answer.status).send(answer.body);
        },
        // Called by packagers, never by a page: no CORS, and no helmet headers to spend on it.
        helmet: false,
      },
    );
  };
}
