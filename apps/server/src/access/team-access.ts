import {
  can,
  effectiveRole,
  MSG,
  type PolicyActor,
  type PolicyContext,
  type RoleId,
  type TeamAction,
} from '@tlprt/contract';
import type { AppContext } from '../context.js';
import type { TeamRow, UserRow } from '../db/schema.js';
import { HttpError, notFound } from '../http/errors.js';
import { findTeamAccessRow } from './queries.js';

/**
 * Team access, shared by every feature (ARCHITECTURE "Imports flow one way"): a feature asks here who
 * the caller is in a team, never another feature's policy or queries.
 */

/** A role or a team state forbids the call (spec §8: the access-forbidden popup). */
export const denied = () => new HttpError(403, MSG.forbidden);

/** What a team call knows about its caller once authorized. */
export interface TeamAccess {
  actor: UserRow;
  team: TeamRow;
  /** The caller's own membership role (null for a supervisor who is not a member). */
  memberRole: RoleId | null;
  /** Effective role: 50 for the supervisor flag (spec §6). */
  role: RoleId;
  favourite: boolean;
  policy: PolicyContext;
}

/** A user row as the contract's policy sees it. */
export const policyActor = (u: Pick<UserRow, 'id' | 'supervisor' | 'user_status_id'>): PolicyActor => ({
  id: u.id,
  supervisor: u.supervisor === 1,
  userStatusId: u.user_status_id,
});

function policyContext(
  actor: UserRow,
  team: TeamRow,
  role: RoleId | null,
  memberRole: RoleId | null,
): PolicyContext {
  return {
    actor: policyActor(actor),
    role,
    member: memberRole !== null,
    team: { statusId: team.status_id, suspended: team.suspended, suspendedProcess: team.suspended_process },
  };
}

/**
 * The one gate of every team call: loads the team with the caller's membership in one query, answers
 * 404 for a team the caller has no role in (never revealing that it exists) and 403 when the contract's
 * `can(action)` says no.
 */
export async function authorizeTeam(
  ctx: AppContext,
  actor: UserRow,
  teamId: number,
  action: TeamAction,
): Promise<TeamAccess> {
  const row = await findTeamAccessRow(ctx.db, teamId, actor.id);
  if (!row) throw notFound();
  const { member_role: memberRole, favourite, ...team } = row;
  const role = effectiveRole(policyActor(actor), memberRole);
  if (role === null) throw notFound();
  const policy = policyContext(actor, team, role, memberRole);
  if (!can(action, policy)) throw denied();
  return { actor, team, memberRole, role, favourite: favourite === 1, policy };
}
