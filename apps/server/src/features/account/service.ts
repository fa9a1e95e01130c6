import {
  DELETE_CHECK_MESSAGES,
  DeleteCheckStatus,
  EventCode,
  isAdminRole,
  LinkKind,
  MSG,
  MSG_TEAMS,
  type TDeleteInfo,
  type ZChangeEmailRequest,
  type ZChangePasswordRequest,
} from '@tlprt/contract';
import type { z } from 'zod';
import {
  inTeamWithSuspensionPending,
  listMemberIds,
  type MembershipFacts,
  membershipFacts,
} from '../../access/membership.js';
import { assertOwnPassword } from '../../access/own-password.js';
import { denied } from '../../access/team-access.js';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { revokeOtherSessions, revokeUserSessions } from '../../directory/sessions.js';
import { deleteTeam } from '../../directory/teams.js';
import { findUserByEmail, setPasswordHash } from '../../directory/users.js';
import { type Outgoing, publishAll, toUsers } from '../../events/publish.js';
import { HttpError, notFound } from '../../http/errors.js';
import { assertOwnLinkBases, linkWithHash } from '../../http/link-base.js';
import { hashPassword } from '../../lib/passwords.js';
import { consumeLink, createLink, killUserLinks, peekLink } from '../../links/service.js';
import { accountDeletionMail, changeEmailMail } from '../../mail/templates.js';
import { isOwnAccount, mayChangeCredentials, mayChangeEmail } from './policy.js';
import { anonymiseUser, applyEmailChange, setDeleteProgress, setEmailChange } from './queries.js';

function assertOwn(actor: UserRow, userId: number): void {
  if (!isOwnAccount(actor, userId)) throw denied();
}

// ----- password -----

/** Every other session is signed out (20). */
export async function changePassword(
  ctx: AppContext,
  actor: UserRow,
  sessionId: number,
  userId: number,
  input: z.output<typeof ZChangePasswordRequest>,
): Promise<void> {
  assertOwn(actor, userId);
  if (!mayChangeCredentials(actor, await inTeamWithSuspensionPending(ctx.db, actor.id))) throw denied();
  await assertOwnPassword(ctx, actor, input.password);
  const passwordHash = await hashPassword(input.new_password);
  const now = ctx.now();
  const revoked = await ctx.db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, actor.id, passwordHash, now);
    return revokeOtherSessions(trx, actor.id, sessionId, now);
  });
  await publishAll(ctx, [
    { target: { sessionIds: revoked }, event: { code: EventCode.ForcedLogoutPassword }, close: true },
  ]);
}

// ----- e-mail -----

async function assertMayChangeEmail(ctx: AppContext, actor: UserRow): Promise<void> {
  if (!mayChangeEmail(actor, await inTeamWithSuspensionPending(ctx.db, actor.id))) throw denied();
}

async function mailEmailChange(
  ctx: AppContext,
  actor: UserRow,
  newEmail: string,
  url: string,
): Promise<void> {
  assertOwnLinkBases(ctx.config.publicUrl, { url });
  const { hash } = await createLink(ctx, { kind: LinkKind.ChangeEmail, userId: actor.id, email: newEmail });
  await ctx.mailer.send(
    newEmail,
    changeEmailMail(
      { supportEmail: ctx.config.supportEmail },
      { newEmail, confirmLink: linkWithHash(url, hash) },
    ),
  );
}

/** A link to the NEW address. */
export async function requestEmailChange(
  ctx: AppContext,
  actor: UserRow,
  userId: number,
  input: z.output<typeof ZChangeEmailRequest>,
): Promise<void> {
  assertOwn(actor, userId);
  await assertMayChangeEmail(ctx, actor);
  assertOwnLinkBases(ctx.config.publicUrl, { url: input.url });
  await assertOwnPassword(ctx, actor, input.password);
  if (input.email === actor.email || (await findUserByEmail(ctx.db, input.email)))
    throw new HttpError(409, MSG_TEAMS.emailInUse, { email: MSG_TEAMS.emailInUse });
  await setEmailChange(ctx.db, actor.id, input.email);
  await mailEmailChange(ctx, actor, input.email, input.url);
}

/** POST .../change_email/accept {hash}: the signed-in owner of the request. */
export async function acceptEmailChange(ctx: AppContext, actor: UserRow, hash: string): Promise<void> {
  const link = await peekLink(ctx, hash, [LinkKind.ChangeEmail]);
  if (!link) throw notFound(MSG.linkExpiredTitle);
  if (link.user_id !== actor.id) throw denied();
  await assertMayChangeEmail(ctx, actor);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeLink({ db: trx, now: ctx.now }, hash, [LinkKind.ChangeEmail])))
      throw notFound(MSG.linkExpiredTitle);
    if (await findUserByEmail(trx, link.email)) throw new HttpError(409, MSG_TEAMS.emailInUse);
    await applyEmailChange(trx, actor.id, link.email);
  });
}

/** POST .../change_email/resend {url}: a fresh link to the pending address; the old one dies. */
export async function resendEmailChange(ctx: AppContext, actor: UserRow, url: string): Promise<void> {
  await assertMayChangeEmail(ctx, actor);
  if (actor.status_change_email !== 10 || !actor.new_change_email)
    throw new HttpError(409, MSG_TEAMS.noEmailChangeInProgress);
  await mailEmailChange(ctx, actor, actor.new_change_email, url);
}

/** POST .../change_email/revoke: the request and its link are gone. */
export async function revokeEmailChange(ctx: AppContext, actor: UserRow): Promise<void> {
  if (actor.status_change_email !== 10) throw new HttpError(409, MSG_TEAMS.noEmailChangeInProgress);
  await setEmailChange(ctx.db, actor.id, null);
  await killUserLinks(ctx, actor.id, LinkKind.ChangeEmail);
}

// ----- account deletion -----

const asTeam = (m: MembershipFacts) => ({ id: m.team_id, name: m.name, role: m.role });

/** The deletion check of spec §4 (see docs/teams-and-accounts.md for the order of the rules). */
function deletionCheck(teams: MembershipFacts[]): TDeleteInfo {
  const result = (status: number, blocking: MembershipFacts[] = []): TDeleteInfo => ({
    status,
    statusMessage: DELETE_CHECK_MESSAGES[status] ?? '',
    teams: teams.map(asTeam),
    arrayCannotDelete: blocking.map(asTeam),
  });
  const suspended = teams.filter((t) => t.suspended === 1);
  if (suspended.length) return result(DeleteCheckStatus.CannotDelete, suspended);
  const blocking = teams.filter((t) => isAdminRole(t.role) && t.admins === 1 && t.members > 1);
  if (blocking.length === 1) return result(DeleteCheckStatus.CannotDeleteSoleAdminManyUsers, blocking);
  if (blocking.length > 1) return result(DeleteCheckStatus.CannotDeleteManyTeams, blocking);
  if (teams.length === 0) return result(DeleteCheckStatus.CanDelete);
  if (teams.some((t) => t.members === 1)) return result(DeleteCheckStatus.CanDeleteSoloTeam);
  if (teams.some((t) => isAdminRole(t.role))) return result(DeleteCheckStatus.CanDeleteNoSoloAdmin);
  return result(DeleteCheckStatus.CanDeleteNoAdminRole);
}

const mayGoOn = (info: TDeleteInfo) => info.status < 300;

export async function deletionInfo(ctx: AppContext, actor: UserRow, userId: number): Promise<TDeleteInfo> {
  assertOwn(actor, userId);
  return deletionCheck(await membershipFacts(ctx.db, actor.id));
}

async function mailDeletion(ctx: AppContext, actor: UserRow, url: string): Promise<void> {
  assertOwnLinkBases(ctx.config.publicUrl, { url });
  const { hash } = await createLink(ctx, { kind: LinkKind.DeleteUser, userId: actor.id, email: actor.email });
  await ctx.mailer.send(
    actor.email,
    accountDeletionMail({ supportEmail: ctx.config.supportEmail }, { confirmLink: linkWithHash(url, hash) }),
  );
}

/** Only when the check allows it. */
export async function requestAccountDeletion(
  ctx: AppContext,
  actor: UserRow,
  userId: number,
  input: { password: string; url: string },
): Promise<void> {
  assertOwn(actor, userId);
  assertOwnLinkBases(ctx.config.publicUrl, { url: input.url });
  const info = deletionCheck(await membershipFacts(ctx.db, actor.id));
  if (!mayGoOn(info)) throw new HttpError(409, MSG_TEAMS.unableDeleteAccountTitle);
  await assertOwnPassword(ctx, actor, input.password);
  await setDeleteProgress(ctx.db, actor.id, 1);
  await mailDeletion(ctx, actor, input.url);
}

export async function resendAccountDeletion(
  ctx: AppContext,
  actor: UserRow,
  userId: number,
  url: string,
): Promise<void> {
  assertOwn(actor, userId);
  if (actor.delete_progress !== 1) throw new HttpError(409, MSG_TEAMS.noDeletionInProgress);
  await mailDeletion(ctx, actor, url);
}

export async function revokeAccountDeletion(ctx: AppContext, actor: UserRow, userId: number): Promise<void> {
  assertOwn(actor, userId);
  if (actor.delete_progress !== 1) throw new HttpError(409, MSG_TEAMS.noDeletionInProgress);
  await setDeleteProgress(ctx.db, actor.id, 0);
  await killUserLinks(ctx, actor.id, LinkKind.DeleteUser);
}

/**
 * Memberships end, solo teams are deleted, the account is anonymised
 * (status 40) and every session is revoked (forced logout 100).
 */
export async function acceptAccountDeletion(ctx: AppContext, actor: UserRow, hash: string): Promise<void> {
  const link = await peekLink(ctx, hash, [LinkKind.DeleteUser]);
  if (!link) throw notFound(MSG.linkExpiredTitle);
  if (link.user_id !== actor.id) throw denied();
  const now = ctx.now();
  const { events, sessions } = await ctx.db.transaction().execute(async (trx) => {
    const facts = await membershipFacts(trx, actor.id);
    // The teams may have changed since the request: the check must still allow it.
    if (!mayGoOn(deletionCheck(facts))) throw new HttpError(409, MSG_TEAMS.unableDeleteAccountTitle);
    if (!(await consumeLink({ db: trx, now: ctx.now }, hash, [LinkKind.DeleteUser])))
      throw notFound(MSG.linkExpiredTitle);
    const events: Outgoing[] = [];
    for (const t of facts) {
      if (t.members === 1) {
        // The only member: the team goes with the account (event 31 has nobody left to reach).
        await deleteTeam(trx, t.team_id);
      }
    }
    await anonymiseUser(trx, actor.id);
    for (const t of facts.filter((f) => f.members > 1)) {
      events.push(
        toUsers(await listMemberIds(trx, t.team_id), {
          code: EventCode.UserLeft,
          team_id: t.team_id,
          leaved_user: actor.id,
        }),
      );
    }
    return { events, sessions: await revokeUserSessions(trx, actor.id, now) };
  });
  await publishAll(ctx, [
    ...events,
    { target: { sessionIds: sessions }, event: { code: EventCode.ForcedLogoutAccount }, close: true },
  ]);
}
