import {
  can,
  effectiveRole,
  type PolicyContext,
  type RoleRights,
  roleRights,
  type TeamAction,
  type TTeamSummary,
} from '@tlprt/contract';
import { useMemo } from 'react';
import { useSession } from './SessionProvider';

/**
 * The contract's policy for the signed-in user in a team: the web asks the same `can` the server
 * enforces, so a hidden or disabled control always matches a 403.
 */
export function usePolicy(
  team: Pick<TTeamSummary, 'id' | 'role' | 'statusId' | 'suspended' | 'suspendedProcess'> | null,
) {
  const { user, teams } = useSession();
  return useMemo(() => {
    const ctx: PolicyContext | null = team
      ? {
          actor: { id: user.id, supervisor: user.supervisor, userStatusId: user.userStatusId },
          role: effectiveRole(user, team.role),
          // TeamsRender lists the user's memberships; a team picked in Team Management may not be one.
          member: teams.some((t) => t.id === team.id),
          team: {
            statusId: team.statusId,
            suspended: team.suspended,
            suspendedProcess: team.suspendedProcess,
          },
        }
      : null;
    return { ctx, can: (action: TeamAction) => (ctx ? can(action, ctx) : false) };
  }, [team, user, teams]);
}

/**
 * The rights of the signed-in user's role in the current team (the contract's roles table), for what
 * depends on the role alone, whatever the team's state: which screens and links a role has at all.
 */
export function useRoleRights(): RoleRights {
  return roleRights(useSession().role);
}
