import { MSG, TIMINGS, type TLoginResponse } from '@tlprt/contract';
import type { AppContext } from '../context.js';
import type { Db } from '../db/index.js';
import type { UserRow } from '../db/schema.js';
import type { AuthInfo } from '../http/auth.js';
import { randomToken, sha256 } from '../lib/tokens.js';

/** Sessions (bearer tokens): opened at sign-in and by invitations, looked up by the token check of every
 *  signed-in call and by the live streams' heartbeat, revoked by sign-out and account changes. */

export async function insertSession(
  db: Db,
  s: { userId: number; tokenHash: string; createdAt: number; expiresAt: number },
): Promise<number> {
  const row = await db
    .insertInto('sessions')
    .values({ user_id: s.userId, token_hash: s.tokenHash, created_at: s.createdAt, expires_at: s.expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A live session (not revoked, not expired) with its user. */
export async function findLiveSession(
  db: Db,
  tokenHash: string,
  now: number,
): Promise<{ sessionId: number; expiresAt: number; user: UserRow } | undefined> {
  const session = await db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!session) return undefined;
  const user = await db.selectFrom('users').selectAll().where('id', '=', session.user_id).executeTakeFirst();
  return user && { sessionId: session.id, expiresAt: session.expires_at, user };
}

/** Which of these sessions are still live (not revoked, not expired): the live streams recheck theirs at
 *  each heartbeat, so a revocation made by another process (the CLI on SQLite) ends them too. */
export async function liveSessionIds(db: Db, ids: number[], now: number): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', 'in', ids)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function revokeSession(db: Db, sessionId: number, now: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live session of a user; returns their ids (their streams get a forced logout). */
export async function revokeUserSessions(db: Db, userId: number, now: number): Promise<number[]> {
  const rows = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Revokes every live session of a user but one (a password change keeps the caller signed in). */
export async function revokeOtherSessions(
  db: Db,
  userId: number,
  keep: number,
  now: number,
): Promise<number[]> {
  const rows = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '!=', keep)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function openSession(db: Db, now: number, userId: number): Promise<TLoginResponse> {
  const token = randomToken(32);
  const expiresAt = now + TIMINGS.sessionTtlMs;
  await insertSession(db, { userId, tokenHash: sha256(token), createdAt: now, expiresAt });
  return {
    message: MSG.loggedIn,
    data: {
      access_token: token,
      token_type: 'Bearer',
      expires_at: Math.floor(expiresAt / 1000),
      user_id: userId,
    },
    access_token: token,
  };
}

/** The auth hook's lookup. */
export async function lookupSession(ctx: AppContext, tokenHash: string): Promise<AuthInfo | undefined> {
  return findLiveSession(ctx.db, tokenHash, ctx.now());
}
