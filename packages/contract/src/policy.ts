import { TeamStatus, UserStatus } from './constants.js';
import { isAdminRole, ROLE_ROWS, Role, type RoleId, roleRights, roleRow } from './roles.js';

/**
 * Who may do what (spec §6 and the team states of §4), as small named predicates combined per action.
 * The server authorizes every call with `can`; the web app asks the same function to hide or disable
 * controls, so the two never disagree.
 */
export interface PolicyActor {
  id: number;
  supervisor: boolean;
  userStatusId: number;
}
export interface PolicyTeam {
  statusId: number;
  suspended: number;
  suspendedProcess: number;
}
export interface PolicyContext {
  actor: PolicyActor;
  /** The actor's effective role in the team (50 for the supervisor flag), or null for a non-member. */
  role: RoleId | null;
  /** The actor has a membership row in the team (a supervisor working in a picked team may not). */
  member: boolean;
  team: PolicyTeam;
}

/** The supervisor flag makes the user act as role 50 (spec §6). `memberRole` stays a number while the
 *  answers' schemas carry roles as numbers (the web passes them); membership rows hold role ids only. */
export function effectiveRole(
  actor: Pick<PolicyActor, 'supervisor'>,
  memberRole: number | null | undefined,
): RoleId | null {
  if (actor.supervisor) return Role.Supervisor;
  return (memberRole ?? null) as RoleId | null;
}

type Predicate = (c: PolicyContext) => boolean;

export const isMember: Predicate = (c) => c.role !== null;
export const isSupervisorRole: Predicate = (c) => c.role === Role.Supervisor;
/** The rights columns of the roles table (roles.ts) say who administers, manages domains and keys,
 *  manages API tokens, may leave; the predicates only read them. */
export const isTeamAdmin: Predicate = (c) => roleRights(c.role).administers;
/** API tokens (who may make machines report or read the team's statistics). */
export const isTokenManager: Predicate = (c) => roleRights(c.role).managesTokens;
/** Alert rules (docs/DESIGN.md §13): Admins and Key masters (and supervisors) manage them. */
export const isAlertManager: Predicate = (c) => roleRights(c.role).managesAlerts;
/** Spec §6: every role but Viewer adds, verifies, deactivates and deletes domains and manages keys. */
export const isDomainManager: Predicate = (c) => roleRights(c.role).managesDomains;
/** Spec §6: a role that may offer some role in an invitation (the table's invitedBy). */
export const isInviter: Predicate = (c) => {
  const key = roleRow(c.role)?.key;
  return key !== undefined && ROLE_ROWS.some((r) => r.invitedBy.includes(key));
};
/** The member list is the members' own business: a supervisor working in a team they are not in sees
 *  it read-only (no invitations, role changes or removals). */
export const isInTeam: Predicate = (c) => c.member;
/** A suspended team is view-only for everybody. */
export const isNotSuspended: Predicate = (c) => c.team.suspended === 0;
/** While deletion is requested nobody can edit settings, invite or change roles (spec §4). */
export const isNotDeleting: Predicate = (c) => c.team.statusId !== TeamStatus.DeletionRequested;
export const isTeamMutable: Predicate = (c) => isNotSuspended(c) && isNotDeleting(c);
export const isDeleting: Predicate = (c) => c.team.statusId === TeamStatus.DeletionRequested;
/** Only some roles see the leave option (the table's rights.leaves). */
export const mayLeaveByRole: Predicate = (c) => roleRights(c.role).leaves;
/** Statuses 30 (Blocked) and 40 (Deleting): such a user may not edit a profile nor create a team
 *  (spec §4, §6). The one home of that rule. */
export const isBlockedOrDeleting = (actor: Pick<PolicyActor, 'userStatusId'>): boolean =>
  actor.userStatusId === UserStatus.Blocked || actor.userStatusId === UserStatus.Deleting;
export const canEditOwnProfile = (actor: Pick<PolicyActor, 'userStatusId'>): boolean =>
  !isBlockedOrDeleting(actor);
export const canCreateTeam = (actor: Pick<PolicyActor, 'userStatusId'>): boolean =>
  !isBlockedOrDeleting(actor);
/** The platform supervisor flag (spec §6: acts as role 50 in every team; Team management, CSV lists). */
export const isPlatformSupervisor = (actor: Pick<PolicyActor, 'supervisor'>): boolean => actor.supervisor;

/** The sole-admin rule (spec §6 "The team must have at least one admin"): changing `targetRole` to
 *  `newRole` (null: removal) would leave none. */
export const leavesTeamWithoutAdmin = (targetRole: RoleId, newRole: RoleId | null, admins: number): boolean =>
  isAdminRole(targetRole) && !isAdminRole(newRole) && admins <= 1;
/** Leaving is refused to the only member and to the sole admin (spec §6). `myRole` is the membership
 *  role (admins are members holding a role of rights.administers, roles.ts ADMIN_ROLES). */
export const mayLeaveTeam = (myRole: RoleId | null, members: number, admins: number): boolean =>
  members > 1 && !(isAdminRole(myRole) && admins <= 1);

const all =
  (...ps: Predicate[]): Predicate =>
  (c) =>
    ps.every((p) => p(c));

export const TEAM_POLICY = {
  'team.read': isMember,
  'team.update': all(isTeamAdmin, isTeamMutable),
  'team.setTimeZone': all(isTeamAdmin, isTeamMutable),
  'team.setVersion': all(isSupervisorRole, isTeamMutable),
  'team.viewVersion': isSupervisorRole,
  'team.invite': all(isInviter, isInTeam, isTeamMutable),
  'team.searchInvitations': all(isInviter),
  'team.setRole': all(isTeamAdmin, isInTeam, isTeamMutable),
  'team.removeMember': all(isTeamAdmin, isInTeam, isTeamMutable),
  'team.leave': all(mayLeaveByRole, isNotSuspended),
  /** Spec §6: deleting the team is the Admins' (a member); a supervisor working in a team they are not
   *  in (acting as 50) has no delete option, only the deletion state once requested. */
  'team.deleteLock': all(isTeamAdmin, isInTeam, isNotSuspended, isNotDeleting),
  'team.deleteManage': all(isTeamAdmin, isDeleting),
  'team.deleteView': (c) => (isTeamAdmin(c) && isInTeam(c)) || isDeleting(c),
  'team.suspend': all(isSupervisorRole, isNotDeleting),
  'team.favourite': isMember,
  'team.tag': isSupervisorRole,
  'keys.manage': all(isDomainManager, isNotSuspended),
  'domains.manage': all(isDomainManager, isNotSuspended),
  /** Supervisor-only changes: suspend domains and keys, bypass verification, write supervisor settings. */
  'domains.supervise': all(isSupervisorRole, isNotSuspended),
  /** The supervisor settings table (read). */
  'domains.superviseRead': isSupervisorRole,
  'statistics.read': isMember,
  /** API tokens (server-side reporters, the export API): Admins, Billing masters and supervisors.
   *  Creating one is a change like any other (not while suspended or being deleted); revoking only
   *  takes access away, so it stays open while the team's deletion waits for confirmation. */
  'tokens.read': isTokenManager,
  'tokens.create': all(isTokenManager, isTeamMutable),
  'tokens.revoke': all(isTokenManager, isNotSuspended),
  /** Alert rules: every member sees them and their delivery log; managing them (and sending a test,
   *  rotating a secret) is a change like any other. Deleting one stays open while suspended: it only
   *  silences notifications. */
  'alerts.read': isMember,
  'alerts.manage': all(isAlertManager, isTeamMutable),
  'alerts.delete': all(isAlertManager),
} as const satisfies Record<string, Predicate>;
export type TeamAction = keyof typeof TEAM_POLICY;

export function can(action: TeamAction, c: PolicyContext): boolean {
  return TEAM_POLICY[action](c);
}

/** An invitation may be resent or revoked by an admin, or by the inviter (a Key master) who sent it. */
export function canManageInvitation(c: PolicyContext, invitingUserId: number | null): boolean {
  if (!isTeamMutable(c)) return false;
  if (isTeamAdmin(c)) return true;
  return isInviter(c) && invitingUserId === c.actor.id;
}
