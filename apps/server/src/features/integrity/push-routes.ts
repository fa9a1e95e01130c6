import { PLAYER_ENDPOINTS as E, HASH_PUSH_RATE, LIMITS, MSG, MSG_HASHES } from '@tlprt/contract';
import type { FastifyPluginAsync, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { errorAnswer, HttpError, tooManyRequests } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { SlidingWindowCounter } from '../../lib/sliding-window.js';
import { pushHashes } from './push.js';
import { TeamHosts } from './team-hosts.js';

/** The one `Bearer` value of an Authorization header, or undefined. */
const bearerOf = (header: string | undefined) => /^Bearer ([^\s]+)$/.exec(header ?? '')?.[1];

/**
 * POST /player/v1/hashes: the token (a live one of scope `hashes`, else 401) and its budget of pushes
 * (429) are checked before the body is read, so a stranger never has 4 MiB parsed; then the request's
 * schema (400), the token's budget of hashes (429), and the items one by one (push.ts).
 */
export function hashPushRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    const hosts = new TeamHosts(ctx.db, ctx.now);
    const pushes = new SlidingWindowCounter(HASH_PUSH_RATE.requestsPerMinute, 60_000, ctx.now);
    const hashes = new SlidingWindowCounter(HASH_PUSH_RATE.hashesPerMinute, 60_000, ctx.now);
    const callers = new WeakMap<FastifyRequest, { teamId: number; token: string }>();

    const admit: onRequestHookHandler = async (req) => {
      const token = bearerOf(req.headers.authorization);
      const teamId = token === undefined ? null : await ctx.teamTokens.teamOf(token, 'hashes');
      if (teamId === null || token === undefined) throw new HttpError(401, MSG_HASHES.badToken);
      const wait = pushes.hit(token);
      if (wait > 0) throw tooManyRequests(wait, MSG_HASHES.tooManyRequests);
      callers.set(req, { teamId, token });
    };

    route(
      app,
      E.hashes,
      async (req, reply) => {
        const from = callers.get(req);
        if (!from) throw new HttpError(401, MSG_HASHES.badToken);
        const items = req.body.hashes;
        const wait = hashes.hit(from.token, items.length);
        if (wait > 0) throw tooManyRequests(wait, MSG_HASHES.tooManyHashes);
        reply.header('Cache-Control', 'no-store');
        return pushHashes(ctx, hosts, from.teamId, items);
      },
      {
        onRequest: admit,
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
