import { InviteStatus, type RoleId } from '@tlprt/contract';
import type { Db } from '../../db/index.js';
import type { InvitationRow } from '../../db/schema.js';
import { type InvitationView, withNames } from '../../directory/invitations.js';

export async function insertInvitation(
  db: Db,
  i: {
    teamId: number;
    email: string;
    invitedUserId: number | null;
    role: RoleId;
    invitingUserId: number;
    tokenHash: string;
    createdAt: number;
    expiresAt: number;
  },
): Promise<number> {
  const row = await db
    .insertInto('invitations')
    .values({
      team_id: i.teamId,
      invited_email: i.email,
      invited_user_id: i.invitedUserId,
      role: i.role,
      status: InviteStatus.Pending,
      inviting_user_id: i.invitingUserId,
      token_hash: i.tokenHash,
      created_at: i.createdAt,
      expires_at: i.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Pending invitations of this e-mail to this team that expired: closed, so a new one may take their
 *  place (one pending invitation per address and team, migration 0010). */
export async function closeExpiredPending(db: Db, teamId: number, email: string, now: number): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ status: InviteStatus.Revoked })
    .where('team_id', '=', teamId)
    .where('invited_email', '=', email)
    .where('status', '=', InviteStatus.Pending)
    .where('expires_at', '<=', now)
    .execute();
}

/** A live pending invitation of this e-mail to this team. */
export function findPendingForEmail(db: Db, teamId: number, email: string, now: number) {
  return db
    .selectFrom('invitations')
    .select('id')
    .where('team_id', '=', teamId)
    .where('invited_email', '=', email)
    .where('status', '=', InviteStatus.Pending)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** The caller's pending invitations: addressed to their account or to their e-mail. */
export function listPendingForUser(
  db: Db,
  userId: number,
  email: string,
  now: number,
): Promise<InvitationView[]> {
  return withNames(db)
    .where((eb) => eb.or([eb('i.invited_user_id', '=', userId), eb('i.invited_email', '=', email)]))
    .where('i.status', '=', InviteStatus.Pending)
    .where('i.expires_at', '>', now)
    .orderBy('i.id', 'asc')
    .execute();
}

/** One invitation of one team (the id alone never finds another team's). */
export function findInvitationOfTeam(
  db: Db,
  teamId: number,
  id: number,
): Promise<InvitationView | undefined> {
  return withNames(db).where('i.team_id', '=', teamId).where('i.id', '=', id).executeTakeFirst();
}

export function findInvitationByTokenHash(db: Db, tokenHash: string): Promise<InvitationView | undefined> {
  return withNames(db).where('i.token_hash', '=', tokenHash).executeTakeFirst();
}

export async function updateInvitation(
  db: Db,
  id: number,
  patch: Partial<
    Pick<InvitationRow, 'status' | 'responded_at' | 'token_hash' | 'expires_at' | 'invited_user_id'>
  >,
): Promise<void> {
  await db.updateTable('invitations').set(patch).where('id', '=', id).execute();
}

/** Moves a pending invitation to a final status once; false when it was no longer pending. */
export async function closeInvitation(db: Db, id: number, status: number, at: number): Promise<boolean> {
  const r = await db
    .updateTable('invitations')
    .set({ status, responded_at: at })
    .where('id', '=', id)
    .where('status', '=', InviteStatus.Pending)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
