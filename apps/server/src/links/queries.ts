import type { Db } from '../db/index.js';
import type { EmailLinkRow } from '../db/schema.js';

interface LinkInsert {
  kind: string;
  userId: number | null;
  email: string;
  tokenHash: string;
  payload: string;
  teamId?: number | null;
  expiresAt: number;
  createdAt: number;
}

export async function insertLink(db: Db, l: LinkInsert): Promise<void> {
  await db
    .insertInto('email_links')
    .values({
      kind: l.kind,
      user_id: l.userId,
      email: l.email,
      token_hash: l.tokenHash,
      payload: l.payload,
      team_id: l.teamId ?? null,
      expires_at: l.expiresAt,
      created_at: l.createdAt,
    })
    .execute();
}

/** Expires the live links of one kind for one user (a newer link supersedes them). */
export async function expireLiveLinks(db: Db, userId: number, kind: string, now: number): Promise<void> {
  await db
    .updateTable('email_links')
    .set({ expires_at: now })
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
}

/** Expires the live links of one kind for one team (deletion and suspension links of that team). */
export async function expireTeamLinks(db: Db, teamId: number, kind: string, now: number): Promise<void> {
  await db
    .updateTable('email_links')
    .set({ expires_at: now })
    .where('team_id', '=', teamId)
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
}

/** Expires one live link by its stored hash (an invitation's link when it is resent or revoked). */
export async function expireLinkByHash(db: Db, tokenHash: string, now: number): Promise<void> {
  await db
    .updateTable('email_links')
    .set({ expires_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
}

/**
 * Marks a live link used and returns it, in one statement: of two concurrent requests with the same
 * hash only one matches `used_at IS NULL`, so a link works exactly once.
 */
export function consumeLiveLink(
  db: Db,
  tokenHash: string,
  kinds: readonly string[],
  now: number,
): Promise<EmailLinkRow | undefined> {
  return db
    .updateTable('email_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('kind', 'in', kinds)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
}

export function findLiveLink(
  db: Db,
  tokenHash: string,
  kinds: readonly string[],
  now: number,
): Promise<EmailLinkRow | undefined> {
  return db
    .selectFrom('email_links')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('kind', 'in', kinds)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}
