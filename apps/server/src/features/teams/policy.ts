import { Role, UserStatus } from '@tlprt/contract';
import type { TeamAccess } from '../../access/team-access.js';
import type { UserRow } from '../../db/schema.js';

/** Users whose status is Blocked (30) or Deleting (40) cannot create teams (spec §6). */
export const canCreateTeam = (user: Pick<UserRow, 'user_status_id'>): boolean =>
  user.user_status_id !== UserStatus.Blocked && user.user_status_id !== UserStatus.Deleting;

export const isSelf = (access: TeamAccess, userId: number): boolean => access.actor.id === userId;

/** The last admin cannot be demoted or removed (spec §6: "The team must have at least one admin"). */
export const leavesTeamWithoutAdmin = (targetRole: number, newRole: number | null, admins: number): boolean =>
  targetRole === Role.Admin && newRole !== Role.Admin && admins <= 1;

/** Leaving is refused to the only member and to the sole admin (spec §6). */
export const mayLeaveTeam = (myRole: number | null, members: number, admins: number): boolean =>
  members > 1 && !(myRole === Role.Admin && admins <= 1);
