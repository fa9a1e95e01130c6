import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema.js';
import { sha256 } from '../lib/tokens.js';
import { unauthorized } from './errors.js';

/** The signed-in caller of an authenticated route. */
export interface AuthInfo {
  sessionId: number;
  expiresAt: number;
  user: UserRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    authInfo: AuthInfo | null;
  }
}

type SessionLookup = (tokenHash: string) => Promise<AuthInfo | undefined>;

// Our tokens are 43 base64url characters; anything far off that is refused before touching the database.
const BEARER = /^Bearer\s+([A-Za-z0-9_-]{16,256})$/;

/** onRequest hook of every /v1 route: `Authorization: Bearer <token>`, a live (unexpired, unrevoked)
 *  session, else 401. */
export function authenticate(lookup: SessionLookup) {
  return async (req: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const m = BEARER.exec(req.headers.authorization ?? '');
    const token = m?.[1];
    if (!token) throw unauthorized();
    const info = await lookup(sha256(token));
    if (!info) throw unauthorized();
    req.authInfo = info;
  };
}

/** The caller of a route that ran `authenticate`. */
export function caller(req: FastifyRequest): AuthInfo {
  if (!req.authInfo) throw unauthorized();
  return req.authInfo;
}

/** Guest routes that behave differently for a signed-in caller (an invitation to an existing
 *  account): the session when a valid Bearer is sent, undefined when none is; a bad token is a 401. */
export function optionalCaller(lookup: SessionLookup) {
  return async (req: FastifyRequest): Promise<AuthInfo | undefined> => {
    const header = req.headers.authorization;
    if (!header) return undefined;
    const token = BEARER.exec(header)?.[1];
    const info = token ? await lookup(sha256(token)) : undefined;
    if (!info) throw unauthorized();
    return info;
  };
}
