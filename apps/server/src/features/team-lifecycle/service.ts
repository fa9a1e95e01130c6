import {
  AUDIT_ACTIONS,
  can,
  EventCode,
  LinkKind,
  type LinkKindValue,
  MSG,
  MSG_TEAMS,
  TeamStatus,
  type ZDeleteLockRequest,
  type ZLinkPathsRequest,
  type ZSuspendRequest,
} from '@tlprt/contract';
import type { z } from 'zod';
import { listMemberIds } from '../../access/membership.js';
import { assertOwnPassword } from '../../access/own-password.js';
import { authorizeTeam, denied, type TeamAccess } from '../../access/team-access.js';
import { recordAudit } from '../../audit/record.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { TeamRow, UserRow } from '../../db/schema.js';
import { deleteTeam, updateTeam } from '../../directory/teams.js';
import { publishAll, toUsers } from '../../events/publish.js';
import { badRequest, HttpError, notFound } from '../../http/errors.js';
import { assertOwnLinkBases, linkWithHash } from '../../http/link-base.js';
import { consumeLink, createLink, killTeamLinks, peekLink } from '../../links/service.js';
import { teamDeletionMail, teamSuspensionMail } from '../../mail/templates.js';

/**
 * Team deletion and suspension (spec §4): a request, an e-mail with a confirm and a cancel link (one
 * hash, used once), resend, cancel/revoke, and the confirmation by hash.
 */

type Paths = z.output<typeof ZLinkPathsRequest>;

/** `confirmPath/hash` and `cancelPath/<name>=<teamId>/hash` (the name URL-encoded: it may contain anything). */
function teamLinks(paths: Paths, team: Pick<TeamRow, 'id' | 'name'>, hash: string) {
  return {
    confirmLink: linkWithHash(paths.confirmPath, hash),
    cancelLink: linkWithHash(paths.cancelPath, `${encodeURIComponent(team.name)}=${team.id}`, hash),
  };
}

type TeamLinkKind = typeof LinkKind.DeleteTeam | typeof LinkKind.SuspendTeam;

/** One live pair per team and kind, stored through `db` (a fresh one kills the older). */
async function mintTeamLink(ctx: AppContext, db: Db, kind: TeamLinkKind, to: UserRow, teamId: number) {
  const { hash } = await createLink(
    { db, now: ctx.now },
    { kind, userId: to.id, email: to.email, teamId, payload: { teamId } },
  );
  return hash;
}

/** Mails a team link; called once the transaction that made it live has committed. */
async function mailTeamLink(
  ctx: AppContext,
  kind: TeamLinkKind,
  to: UserRow,
  team: TeamRow,
  paths: Paths,
  hash: string,
): Promise<void> {
  const facts = { teamName: team.name, teamId: team.id, ...teamLinks(paths, team, hash) };
  const frame = { supportEmail: ctx.config.supportEmail };
  await ctx.mailer.send(
    to.email,
    kind === LinkKind.DeleteTeam ? teamDeletionMail(frame, facts) : teamSuspensionMail(frame, facts),
  );
}

/** A fresh link of a process already started (resend): minted, then mailed. */
async function remintTeamLink(ctx: AppContext, kind: TeamLinkKind, to: UserRow, team: TeamRow, paths: Paths) {
  assertOwnLinkBases(ctx.config.publicUrl, { confirmPath: paths.confirmPath, cancelPath: paths.cancelPath });
  const hash = await mintTeamLink(ctx, ctx.db, kind, to, team.id);
  await mailTeamLink(ctx, kind, to, team, paths, hash);
}

async function teamStatusEvent(ctx: AppContext, teamId: number, actorId: number, newStatus: number) {
  await publishAll(ctx, [
    toUsers(await listMemberIds(ctx.db, teamId), {
      code: EventCode.TeamStatus,
      team_id: teamId,
      user_id: actorId,
      new_status: newStatus,
    }),
  ]);
}

/** A hash from a cancel link must be a live link of this team (used up by the cancellation). */
async function spendTeamHash(
  ctx: AppContext,
  kind: LinkKindValue,
  teamId: number,
  hash: string,
): Promise<void> {
  const link = await peekLink(ctx, hash, [kind]);
  if (!link || link.team_id !== teamId) throw notFound(MSG.linkExpiredTitle);
  if (!(await consumeLink(ctx, hash, [kind]))) throw notFound(MSG.linkExpiredTitle);
}

// ----- deletion -----

/** Confirmed by the caller's password. */
export async function lockForDeletion(
  ctx: AppContext,
  access: TeamAccess,
  input: z.output<typeof ZDeleteLockRequest>,
): Promise<void> {
  const { actor, team } = access;
  const teamId = team.id;
  assertOwnLinkBases(ctx.config.publicUrl, { confirmPath: input.confirmPath, cancelPath: input.cancelPath });
  await assertOwnPassword(ctx, actor, input.password);
  // The lock and its link together; the mail and the event after the commit.
  const hash = await ctx.db.transaction().execute(async (trx) => {
    await updateTeam(trx, teamId, { status_id: TeamStatus.DeletionRequested, delete_requested_by: actor.id });
    return mintTeamLink(ctx, trx, LinkKind.DeleteTeam, actor, teamId);
  });
  await mailTeamLink(ctx, LinkKind.DeleteTeam, actor, team, input, hash);
  await teamStatusEvent(ctx, teamId, actor.id, EventCode.TeamBlocked);
}

/** A fresh pair to the caller; the old one dies. */
export async function resendDeletion(ctx: AppContext, access: TeamAccess, paths: Paths): Promise<void> {
  const { actor, team } = access;
  await remintTeamLink(ctx, LinkKind.DeleteTeam, actor, team, paths);
}

/** The hash, when sent, is the mailed cancel link's. */
export async function cancelDeletion(
  ctx: AppContext,
  access: TeamAccess,
  hash: string | undefined,
): Promise<void> {
  const { actor } = access;
  const teamId = access.team.id;
  if (hash) await spendTeamHash(ctx, LinkKind.DeleteTeam, teamId, hash);
  await updateTeam(ctx.db, teamId, { status_id: TeamStatus.Active, delete_requested_by: null });
  await killTeamLinks(ctx, teamId, LinkKind.DeleteTeam);
  await teamStatusEvent(ctx, teamId, actor.id, EventCode.TeamReactivated);
}

/** The requester or another admin of that team. */
export async function confirmDeletion(ctx: AppContext, actor: UserRow, hash: string): Promise<number> {
  const link = await peekLink(ctx, hash, [LinkKind.DeleteTeam]);
  if (!link || link.team_id === null) throw notFound(MSG.linkExpiredTitle);
  const teamId = link.team_id;
  // Authorized before the link is spent: a wrong account must not burn it.
  await authorizeTeam(ctx, actor, teamId, 'team.deleteManage');
  const members = await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeLink({ db: trx, now: ctx.now }, hash, [LinkKind.DeleteTeam])))
      throw notFound(MSG.linkExpiredTitle);
    const ids = await listMemberIds(trx, teamId);
    await deleteTeam(trx, teamId);
    return ids;
  });
  await publishAll(ctx, [toUsers(members, { code: EventCode.TeamDeleted, team_id: teamId })]);
  return teamId;
}

// ----- suspension -----

/**
 * Starts a suspension (name check, mail), or, for a team
 * already suspended, unsuspends it at once. Answers what happened.
 */
export async function suspendOrUnsuspend(
  ctx: AppContext,
  access: TeamAccess,
  input: z.output<typeof ZSuspendRequest>,
): Promise<'unsuspended' | 'requested'> {
  const { actor, team } = access;
  const teamId = team.id;
  if (team.suspended === 1) {
    await ctx.db.transaction().execute(async (trx) => {
      await updateTeam(trx, teamId, { suspended: 0, suspended_process: 0, suspend_requested_by: null });
      await recordAudit(trx, actor, ctx.now(), {
        teamId,
        action: AUDIT_ACTIONS.teamUnsuspended,
        target: { type: 'team', id: teamId, label: team.name },
        oldValue: 'suspended',
        newValue: 'active',
      });
    });
    await teamStatusEvent(ctx, teamId, actor.id, EventCode.TeamReactivated);
    return 'unsuspended';
  }
  if (team.name !== '' && input.name !== team.name)
    throw badRequest(MSG.incorrectTeamName, { name: MSG.incorrectTeamName });
  if (!input.confirmPath || !input.cancelPath) {
    throw badRequest(MSG.validationFailed, {
      ...(!input.confirmPath && { confirmPath: MSG.required }),
      ...(!input.cancelPath && { cancelPath: MSG.required }),
    });
  }
  if (team.suspended_process === 1) throw new HttpError(409, MSG_TEAMS.suspensionPending);
  const paths = { confirmPath: input.confirmPath, cancelPath: input.cancelPath };
  assertOwnLinkBases(ctx.config.publicUrl, paths);
  const hash = await ctx.db.transaction().execute(async (trx) => {
    await updateTeam(trx, teamId, { suspended_process: 1, suspend_requested_by: actor.id });
    return mintTeamLink(ctx, trx, LinkKind.SuspendTeam, actor, teamId);
  });
  await mailTeamLink(ctx, LinkKind.SuspendTeam, actor, team, paths, hash);
  return 'requested';
}

/** Resend and revoke only mean something while a suspension awaits confirmation. */
function assertSuspensionPending(access: TeamAccess): void {
  if (access.team.suspended_process !== 1) throw denied();
}

export async function resendSuspension(ctx: AppContext, access: TeamAccess, paths: Paths): Promise<void> {
  assertSuspensionPending(access);
  await remintTeamLink(ctx, LinkKind.SuspendTeam, access.actor, access.team, paths);
}

export async function revokeSuspension(
  ctx: AppContext,
  access: TeamAccess,
  hash: string | undefined,
): Promise<void> {
  assertSuspensionPending(access);
  const { actor } = access;
  const teamId = access.team.id;
  if (hash) await spendTeamHash(ctx, LinkKind.SuspendTeam, teamId, hash);
  await updateTeam(ctx.db, teamId, { suspended_process: 0, suspend_requested_by: null });
  await killTeamLinks(ctx, teamId, LinkKind.SuspendTeam);
  await teamStatusEvent(ctx, teamId, actor.id, EventCode.TeamReactivated);
}

/** Any supervisor, with the mailed link's hash. */
export async function confirmSuspension(ctx: AppContext, actor: UserRow, hash: string): Promise<number> {
  const link = await peekLink(ctx, hash, [LinkKind.SuspendTeam]);
  if (!link || link.team_id === null) throw notFound(MSG.linkExpiredTitle);
  const teamId = link.team_id;
  const access = await authorizeTeam(ctx, actor, teamId, 'team.read');
  if (!can('team.suspend', access.policy) || access.team.suspended_process !== 1) throw denied();
  if (!(await consumeLink(ctx, hash, [LinkKind.SuspendTeam]))) throw notFound(MSG.linkExpiredTitle);
  await ctx.db.transaction().execute(async (trx) => {
    await updateTeam(trx, teamId, { suspended: 1, suspended_process: 0 });
    await recordAudit(trx, actor, ctx.now(), {
      teamId,
      action: AUDIT_ACTIONS.teamSuspended,
      target: { type: 'team', id: teamId, label: access.team.name },
      oldValue: 'active',
      newValue: 'suspended',
    });
  });
  await teamStatusEvent(ctx, teamId, actor.id, EventCode.TeamSuspended);
  return teamId;
}
