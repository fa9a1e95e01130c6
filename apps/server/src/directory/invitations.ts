import { InviteStatus } from '@tlprt/contract';
import type { Db } from '../db/index.js';
import type { InvitationRow } from '../db/schema.js';

/** Invitations as both the team view (its pending invitees) and the invitations feature read them.
 *  An invitation with what its card shows: the team's name and the inviter. */
export type InvitationView = InvitationRow & {
  team_name: string;
  inviter_email: string | null;
  inviter_name: string | null;
  inviter_surname: string | null;
};

/** Invitations joined with what their cards show. */
export function withNames(db: Db) {
  return db
    .selectFrom('invitations as i')
    .innerJoin('teams as t', 't.id', 'i.team_id')
    .leftJoin('users as iu', 'iu.id', 'i.inviting_user_id')
    .selectAll('i')
    .select([
      't.name as team_name',
      'iu.email as inviter_email',
      'iu.name as inviter_name',
      'iu.surname as inviter_surname',
    ]);
}

export function listPendingOfTeam(db: Db, teamId: number, now: number): Promise<InvitationView[]> {
  return withNames(db)
    .where('i.team_id', '=', teamId)
    .where('i.status', '=', InviteStatus.Pending)
    .where('i.expires_at', '>', now)
    .orderBy('i.id', 'asc')
    .execute();
}
