import {
  AUDIT_ACTIONS,
  canCreateTeam,
  EventCode,
  findTimeZone,
  isAssignableRole,
  leavesTeamWithoutAdmin,
  MSG,
  MSG_TEAMS,
  mayLeaveTeam,
  type TCreateTeamRequest,
  TEAM_CREATOR_ROLE,
  type TTeamDetail,
  type TTeamSummary,
  type ZSetVersionRequest,
  type ZUpdateTeamRequest,
} from '@tlprt/contract';
import type { z } from 'zod';
import { countAdmins, findMember, listMemberIds } from '../../access/membership.js';
import { assertOwnPassword } from '../../access/own-password.js';
import { authorizeTeam, policyActor, type TeamAccess } from '../../access/team-access.js';
import { recordAudit } from '../../audit/record.js';
import type { AppContext } from '../../context.js';
import { lockTeam } from '../../db/locks.js';
import type { UserRow } from '../../db/schema.js';
import { listPendingOfTeam } from '../../directory/invitations.js';
import { listTeamsOfUser, presentTeamSummary, updateTeam } from '../../directory/teams.js';
import { type Outgoing, publishAll, toUsers } from '../../events/publish.js';
import { badRequest, forbidden, HttpError, notFound } from '../../http/errors.js';
import { isSelf } from './policy.js';
import { presentTeamDetail } from './presenter.js';
import {
  deleteTag,
  findTeamOfUser,
  insertTag,
  insertTeamWithMember,
  listMembers,
  listTags,
  removeFavourite,
  removeMember,
  setMemberRole,
  toggleFavourite,
} from './queries.js';

/** The create-team block: the creator becomes the new team's admin (the contract's TEAM_CREATOR_ROLE). */
export async function createTeam(
  ctx: AppContext,
  actor: UserRow,
  input: TCreateTeamRequest,
): Promise<TTeamSummary> {
  if (!canCreateTeam(policyActor(actor))) throw forbidden();
  const teamId = await insertTeamWithMember(
    ctx.db,
    { name: input.name, createdAt: ctx.now() },
    { userId: actor.id, role: TEAM_CREATOR_ROLE },
  );
  const row = await findTeamOfUser(ctx.db, actor.id, teamId);
  if (!row) throw new Error(`team ${teamId} vanished after creation`);
  await ctx.bus.publish(
    { userIds: [actor.id] },
    { code: EventCode.UserAdded, team_id: teamId, add_user: actor.id },
  );
  return presentTeamSummary(row, new Date(ctx.now()));
}

/** Members other than `exceptUserId`. */
async function othersOf(ctx: AppContext, teamId: number, exceptUserId: number): Promise<number[]> {
  return (await listMemberIds(ctx.db, teamId)).filter((id) => id !== exceptUserId);
}

/** Event 10 {team_id} ("refresh") to the team's members except the one who changed it. */
async function refreshOthers(ctx: AppContext, teamId: number, actorId: number): Promise<void> {
  await publishAll(ctx, [
    toUsers(await othersOf(ctx, teamId, actorId), { code: EventCode.UserAdded, team_id: teamId }),
  ]);
}

async function detailOf(ctx: AppContext, access: TeamAccess): Promise<TTeamDetail> {
  const now = ctx.now();
  const [members, invitations, tags] = await Promise.all([
    listMembers(ctx.db, access.team.id),
    listPendingOfTeam(ctx.db, access.team.id, now),
    listTags(ctx.db, access.team.id),
  ]);
  return presentTeamDetail(access, members, invitations, tags, new Date(now));
}

export async function readTeam(ctx: AppContext, access: TeamAccess): Promise<TTeamDetail> {
  return detailOf(ctx, access);
}

/** Name and website (Admin). */
export async function updateTeamInfo(
  ctx: AppContext,
  access: TeamAccess,
  input: z.output<typeof ZUpdateTeamRequest>,
): Promise<TTeamDetail> {
  const { actor, team } = access;
  const teamId = team.id;
  if (input.id !== undefined && input.id !== teamId)
    throw badRequest('The id in the body does not match the path', { id: 'Does not match the path' });
  await updateTeam(ctx.db, teamId, {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.website !== undefined && { website: input.website }),
  });
  await refreshOthers(ctx, teamId, actor.id);
  return detailOf(ctx, await authorizeTeam(ctx, actor, teamId, 'team.read'));
}

export async function setTimeZone(
  ctx: AppContext,
  access: TeamAccess,
  timezoneId: number,
): Promise<TTeamDetail> {
  const { actor, team } = access;
  const teamId = team.id;
  if (!findTimeZone(timezoneId))
    throw badRequest(MSG_TEAMS.timeZoneUnknown, { timezoneId: MSG_TEAMS.timeZoneUnknown });
  await updateTeam(ctx.db, teamId, { time_zone_id: timezoneId });
  await refreshOthers(ctx, teamId, actor.id);
  return detailOf(ctx, await authorizeTeam(ctx, actor, teamId, 'team.read'));
}

export async function setVersion(
  ctx: AppContext,
  access: TeamAccess,
  input: z.output<typeof ZSetVersionRequest>,
): Promise<TTeamDetail> {
  const { actor, team } = access;
  const teamId = team.id;
  await ctx.db.transaction().execute(async (trx) => {
    await updateTeam(trx, teamId, { version: input.version });
    if (team.version !== input.version) {
      await recordAudit(trx, actor, ctx.now(), {
        teamId,
        action: AUDIT_ACTIONS.teamVersion,
        target: { type: 'team', id: teamId, label: team.name },
        oldValue: team.version,
        newValue: input.version,
      });
    }
  });
  await refreshOthers(ctx, teamId, actor.id);
  return detailOf(ctx, await authorizeTeam(ctx, actor, teamId, 'team.read'));
}

/** Never oneself, never the last admin. */
export async function removeTeamMember(ctx: AppContext, access: TeamAccess, userId: number): Promise<void> {
  const teamId = access.team.id;
  if (isSelf(access, userId))
    throw badRequest(MSG_TEAMS.cannotRemoveSelf, { userId: MSG_TEAMS.cannotRemoveSelf });
  const events = await ctx.db.transaction().execute(async (trx) => {
    // The admins are counted under the team's lock: two admins removing each other cannot both pass.
    await lockTeam(trx, teamId);
    const target = await findMember(trx, teamId, userId);
    if (!target) throw notFound();
    if (leavesTeamWithoutAdmin(target.role, null, await countAdmins(trx, teamId)))
      throw new HttpError(409, MSG.teamNeedsAdmin);
    await removeMember(trx, teamId, userId);
    await removeFavourite(trx, userId, teamId);
    const others = await listMemberIds(trx, teamId);
    return [
      toUsers([userId], { code: EventCode.UserRemoved, team_id: teamId, deleted_user: userId }),
      toUsers(others, { code: EventCode.UserAdded, team_id: teamId }),
    ];
  });
  await publishAll(ctx, events);
}

/** Only an assignable role, and the team keeps an admin. */
export async function setRole(
  ctx: AppContext,
  access: TeamAccess,
  userId: number,
  roleId: number,
): Promise<void> {
  const teamId = access.team.id;
  if (!isAssignableRole(roleId))
    throw badRequest(MSG_TEAMS.roleNotAllowed, { role: MSG_TEAMS.roleNotAllowed });
  const events = await ctx.db.transaction().execute(async (trx) => {
    // Under the team's lock: two admins demoting each other at once cannot both pass the count.
    await lockTeam(trx, teamId);
    const target = await findMember(trx, teamId, userId);
    if (!target) throw notFound();
    if (leavesTeamWithoutAdmin(target.role, roleId, await countAdmins(trx, teamId)))
      throw new HttpError(409, MSG.teamNeedsAdmin);
    await setMemberRole(trx, teamId, userId, roleId);
    const members = await listMemberIds(trx, teamId);
    return [
      toUsers(members, {
        code: EventCode.RoleChanged,
        team_id: teamId,
        changed_role_user: userId,
        new_role: roleId,
      }),
    ];
  });
  await publishAll(ctx, events);
}

/** Refused to the only member and to the sole admin. */
export async function leaveTeam(ctx: AppContext, access: TeamAccess, password: string): Promise<void> {
  const { actor } = access;
  const teamId = access.team.id;
  const members = await listMemberIds(ctx.db, teamId);
  if (!mayLeaveTeam(access.memberRole, members.length, await countAdmins(ctx.db, teamId)))
    throw new HttpError(409, MSG_TEAMS.unableLeaveTitle);
  await assertOwnPassword(ctx, actor, password);
  const events: Outgoing[] = await ctx.db.transaction().execute(async (trx) => {
    // Re-checked under the team's lock: two admins leaving at once must not both succeed.
    await lockTeam(trx, teamId);
    if (
      !mayLeaveTeam(
        access.memberRole,
        (await listMemberIds(trx, teamId)).length,
        await countAdmins(trx, teamId),
      )
    )
      throw new HttpError(409, MSG_TEAMS.unableLeaveTitle);
    await removeMember(trx, teamId, actor.id);
    await removeFavourite(trx, actor.id, teamId);
    const remaining = await listMemberIds(trx, teamId);
    const left = await listTeamsOfUser(trx, actor.id);
    return [
      toUsers(remaining, { code: EventCode.UserLeft, team_id: teamId, leaved_user: actor.id }),
      ...(left.length === 0 ? [toUsers([actor.id], { code: EventCode.GoToSettings })] : []),
    ];
  });
  await publishAll(ctx, events);
}

/** Toggles the caller's own star (members and supervisors). */
export async function toggleTeamFavourite(ctx: AppContext, access: TeamAccess): Promise<boolean> {
  const { actor } = access;
  const teamId = access.team.id;
  return toggleFavourite(ctx.db, actor.id, teamId, ctx.now());
}

/** tag/add (supervisors): trimmed by the schema; a duplicate is 409. */
export async function addTag(ctx: AppContext, access: TeamAccess, tag: string): Promise<string[]> {
  const { actor, team } = access;
  const teamId = team.id;
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await insertTag(trx, teamId, tag, ctx.now())))
      throw new HttpError(409, MSG_TEAMS.tagExists, { tag: MSG_TEAMS.tagExists });
    await recordAudit(trx, actor, ctx.now(), {
      teamId,
      action: AUDIT_ACTIONS.tagAdded,
      target: { type: 'team', id: teamId, label: team.name },
      newValue: tag,
    });
  });
  return listTags(ctx.db, teamId);
}

export async function removeTag(ctx: AppContext, access: TeamAccess, tag: string): Promise<string[]> {
  const { actor, team } = access;
  const teamId = team.id;
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await deleteTag(trx, teamId, tag))) throw notFound(MSG_TEAMS.tagNotFound);
    await recordAudit(trx, actor, ctx.now(), {
      teamId,
      action: AUDIT_ACTIONS.tagRemoved,
      target: { type: 'team', id: teamId, label: team.name },
      oldValue: tag,
    });
  });
  return listTags(ctx.db, teamId);
}
