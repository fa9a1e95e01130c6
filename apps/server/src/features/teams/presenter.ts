import {
  can,
  canManageInvitation,
  InviteStatus,
  isAdminRole,
  type TTeamDetail,
  type TTeamMember,
} from '@tlprt/contract';
import type { TeamAccess } from '../../access/team-access.js';
import type { InvitationView } from '../../directory/invitations.js';
import { presentTeamSummary } from '../../directory/teams.js';
import type { MemberRow } from './queries.js';

const fullName = (m: { name: string; surname: string }) => `${m.name} ${m.surname}`.trim();

/** Members first, then pending invitations (invite_status 10), as the caller sees
 *  them (which controls they may use). */
export function presentTeamDetail(
  access: TeamAccess,
  members: MemberRow[],
  invitations: InvitationView[],
  tags: string[],
  at: Date,
): TTeamDetail {
  const admins = members.filter((m) => isAdminRole(m.role)).length;
  const mayChangeRoles = can('team.setRole', access.policy);
  const users: TTeamMember[] = members.map((m) => ({
    id: m.id,
    name: fullName(m),
    email: m.email,
    roles: m.role,
    image: m.image,
    invite_status: 0,
    invite_id: null,
    inviting_user: null,
    isAdminUser: isAdminRole(m.role) && admins > 1,
    isSelectRole: mayChangeRoles,
    isResendInviteUserTeam: false,
  }));
  const invited: TTeamMember[] = invitations.map((i) => ({
    id: i.invited_user_id ?? 0,
    name: '',
    email: i.invited_email,
    roles: i.role,
    image: 0,
    invite_status: InviteStatus.Pending,
    invite_id: i.id,
    inviting_user: i.inviting_user_id,
    isAdminUser: false,
    isSelectRole: false,
    isResendInviteUserTeam: canManageInvitation(access.policy, i.inviting_user_id),
  }));
  const soleAdminWithOthers = isAdminRole(access.memberRole) && admins === 1 && members.length > 1;
  return {
    ...presentTeamSummary({ ...access.team, role: access.role, favourite: access.favourite ? 1 : 0 }, at),
    users: [...users, ...invited],
    invited,
    tags,
    members: members.length,
    countAdmin: admins,
    countUser: members.length,
    permissionToDelete: soleAdminWithOthers ? 20 : 10,
  };
}
