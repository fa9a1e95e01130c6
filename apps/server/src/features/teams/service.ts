import { EventCode, Role, type TCreateTeamRequest, type TTeamSummary } from '@tlprt/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { forbidden } from '../../http/errors.js';
import { canCreateTeam } from './policy.js';
import { presentTeamSummary } from './presenter.js';
import { findTeamOfUser, insertTeamWithMember, listTeamsOfUser } from './queries.js';

/** The create-team block: the creator becomes Admin of the new team. */
export async function createTeam(
  ctx: AppContext,
  actor: UserRow,
  input: TCreateTeamRequest,
): Promise<TTeamSummary> {
  if (!canCreateTeam(actor)) throw forbidden();
  const teamId = await insertTeamWithMember(
    ctx.db,
    { name: input.name, createdAt: ctx.now() },
    { userId: actor.id, role: Role.Admin },
  );
  const row = await findTeamOfUser(ctx.db, actor.id, teamId);
  if (!row) throw new Error(`team ${teamId} vanished after creation`);
  await ctx.bus.publish(
    { userIds: [actor.id] },
    { code: EventCode.UserAdded, team_id: teamId, add_user: actor.id },
  );
  return presentTeamSummary(row, new Date(ctx.now()));
}

/** TeamsRender of a user. */
export async function teamsOf(ctx: AppContext, userId: number): Promise<TTeamSummary[]> {
  const at = new Date(ctx.now());
  return (await listTeamsOfUser(ctx.db, userId)).map((r) => presentTeamSummary(r, at));
}
