import { canManageInvitation, mayInviteRole, type RoleId } from '@tlprt/contract';
import type { TeamAccess } from '../../access/team-access.js';
import type { UserRow } from '../../db/schema.js';
import type { InvitationView } from '../../directory/invitations.js';

/** The roles this inviter may offer (the roles table's invitedBy). */
export const mayOfferRole = (access: TeamAccess, role: number): role is RoleId =>
  mayInviteRole(access.role, role);

/** The invitation is addressed to this account (by id, or by its e-mail). */
export const isInvitee = (user: Pick<UserRow, 'id' | 'email'>, i: InvitationView): boolean =>
  i.invited_user_id === user.id || i.invited_email === user.email;

/** Resend and revoke: an admin, or the Key master who sent it. */
export const mayManage = (access: TeamAccess, i: InvitationView): boolean =>
  canManageInvitation(access.policy, i.inviting_user_id);
