import type { IncomingMessage } from 'node:http';
import {
  isTeamTokenFormat,
  MSG,
  PLAYER_ENDPOINTS,
  STATISTICS_ENDPOINTS,
  TEAM_TOKEN_PREFIX,
  type TTeamTokenScope,
} from '@tlprt/contract';
import type { FastifyReply, FastifyRequest, FastifyServerOptions, onRequestHookHandler } from 'fastify';
import type { AppContext } from '../context.js';
import { addressGroup } from './client-address.js';
import type { AheadPath } from './edge.js';

/** The team of the API token a guarded request carried, once the guard admitted it. */
export interface TokenCaller {
  teamId: number;
  token: string;
}

/** Why a token call was refused before its body was read (the label of tlprt_token_refused_total). */
export type TokenRefusal = 'malformed' | 'unknown' | 'budget';

/** The one `Bearer` value of an Authorization header, or undefined. */
export const bearerOf = (header: string | undefined): string | undefined =>
  /^Bearer ([^\s]+)$/.exec(header ?? '')?.[1];

/** A body the client announced (and may be sending): the refusal closes the connection instead of
 *  reading it to reach the next request. */
const announcesBody = (req: { headers: IncomingMessage['headers'] }): boolean => {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
};

const retryAfter = (waitMs: number) => String(Math.max(1, Math.ceil(waitMs / 1000)));

export interface TokenGuard {
  /** The onRequest hook: admits a live token of the scope, else answers 401 (or 429) unread. */
  onRequest: onRequestHookHandler;
  /** The admitted caller; null for a request the guard let through without a token (`optional`). */
  callerOf(req: FastifyRequest): TokenCaller | null;
}

/**
 * The check of the public calls that take a team API token (the ingest's batches, the statistics
 * export, the hash push), run in onRequest, before Fastify reads a byte of the body:
 * - an address past its budget of refused attempts (TeamTokens.failures) is answered 429 with
 *   Retry-After at once, before any look-up, whatever its token;
 * - no Bearer value, or one not in the token format, is refused (401) without a database query;
 * - a well-formed one is looked up (TeamTokens.teamOf: cached, unknown ones too) and refused (401) if
 *   it is not a live token of `scope`.
 * Every 401 is charged to the address. A refused request that announced a body is answered with
 * `Connection: close`: Node stops reading after the answer instead of draining megabytes to reach the
 * next request on the connection, so a flood of large bodies with made-up tokens costs a connection
 * each, not a parse (before, each 1 MiB was read and parsed first).
 * `optional`: a request without an Authorization header passes untouched (the ingest's browsers).
 */
export function tokenGuard(
  ctx: AppContext,
  scope: TTeamTokenScope,
  badToken: string,
  options: { optional?: boolean } = {},
): TokenGuard {
  const callers = new WeakMap<FastifyRequest, TokenCaller>();
  const tokens = ctx.teamTokens;
  const counted = {
    malformed: ctx.metrics.tokenRefused.labels('malformed'),
    unknown: ctx.metrics.tokenRefused.labels('unknown'),
    budget: ctx.metrics.tokenRefused.labels('budget'),
  } satisfies Record<TokenRefusal, unknown>;
  // Answered here rather than thrown: a flood is refused thousands of times a second, and building an
  // Error (its stack trace) took a tenth of the server's time under one in a profile.
  const refuse = (
    req: FastifyRequest,
    reply: FastifyReply,
    reason: TokenRefusal,
    status: 401 | 429,
    message: string,
    headers: Record<string, string> = {},
  ) => {
    counted[reason].inc();
    if (announcesBody(req)) headers.Connection = 'close';
    return reply.code(status).headers(headers).send({ message });
  };
  const onRequest: onRequestHookHandler = async (req, reply) => {
    const header = req.headers.authorization;
    if (header === undefined && options.optional) return;
    const address = addressGroup(req.ip);
    const wait = tokens.failures.spent(address);
    if (wait > 0)
      return refuse(req, reply, 'budget', 429, MSG.tooManyRequests, { 'Retry-After': retryAfter(wait) });
    const token = bearerOf(header);
    let reason: TokenRefusal = 'malformed';
    if (token !== undefined && isTeamTokenFormat(token)) {
      const teamId = await tokens.teamOf(token, scope);
      if (teamId !== null) {
        callers.set(req, { teamId, token });
        return;
      }
      reason = 'unknown';
    }
    tokens.failures.hit(address);
    return refuse(req, reply, reason, 401, badToken);
  };
  return { onRequest, callerOf: (req) => callers.get(req) ?? null };
}

/** The token calls: method and path, and whether a request without an Authorization header is one. */
const TOKEN_CALLS = [
  { spec: STATISTICS_ENDPOINTS.ingest, withoutHeader: false },
  { spec: STATISTICS_ENDPOINTS.export, withoutHeader: true },
  { spec: PLAYER_ENDPOINTS.hashes, withoutHeader: true },
].map((c) => ({ method: c.spec.method, path: c.spec.path, withoutHeader: c.withoutHeader }));

/**
 * The same 429 as the guard's for an address past its budget, answered by Node's HTTP server ahead of
 * Fastify (http/edge.ts): once a flood has spent its budget every request it sends is this one,
 * and Fastify's request, reply and hooks were most of its cost. Anything else goes on to the routes.
 */
export function tokenBudgetAhead(ctx: AppContext): AheadPath {
  const budget = ctx.metrics.tokenRefused.labels('budget');
  const limited = TOKEN_CALLS.map((c) => ctx.metrics.rateLimited.labels(c.path));
  return (req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const i = TOKEN_CALLS.findIndex((c) => c.path === path && c.method === req.method);
    const call = TOKEN_CALLS[i];
    if (!call || (!call.withoutHeader && req.headers.authorization === undefined)) return false;
    let wait: number;
    try {
      wait = ctx.teamTokens.failures.spent(addressGroup(ctx.addressOf(req)));
    } catch {
      // An address this path cannot read (a forwarded one it cannot parse): the route decides.
      return false;
    }
    if (wait <= 0) return false;
    budget.inc();
    limited[i]?.inc();
    const text = JSON.stringify({ message: MSG.tooManyRequests });
    const headers: Record<string, string> = {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(text)),
      'Retry-After': retryAfter(wait),
    };
    if (announcesBody(req)) headers.Connection = 'close';
    res.writeHead(429, headers);
    res.end(text);
    return true;
  };
}

/** Anything that looks like a team token (the prefix and token characters, whatever their number: a
 *  mistyped one is still mostly a secret). */
const TOKEN_LIKE = new RegExp(`${TEAM_TOKEN_PREFIX}[A-Za-z0-9_-]*`, 'g');

/** A URL as the access log may hold it: every token-like value replaced (a token put in a query
 *  string by mistake must not be written in clear). */
export const redactTokens = (url: string): string =>
  url.includes(TEAM_TOKEN_PREFIX) ? url.replace(TOKEN_LIKE, `${TEAM_TOKEN_PREFIX}[redacted]`) : url;

type LoggerOption = FastifyServerOptions['logger'];

/**
 * The app's logger options with a request serializer that redacts tokens in the URL. Its fields are
 * Fastify's own (method, url, host, address, port): never a header, so the Authorization header is
 * never logged either.
 */
export function withTokenRedaction(logger: LoggerOption): LoggerOption {
  if (logger === false || logger === undefined) return logger;
  const base = logger === true ? {} : logger;
  return {
    ...base,
    serializers: {
      ...base.serializers,
      req: (req: {
        method?: string;
        url?: string;
        host?: string;
        ip?: string;
        socket?: { remotePort?: number };
      }) => ({
        method: req.method,
        url: redactTokens(req.url ?? ''),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}
