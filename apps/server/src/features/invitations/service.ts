import {
  EventCode,
  InviteStatus,
  LinkKind,
  MSG,
  MSG_TEAMS,
  type TInvitation,
  type TInviteAcceptResponse,
  type ZInvitationCreateRequest,
  type ZInvitationResendRequest,
  type ZInviteNewAccountRequest,
} from '@tlprt/contract';
import type { z } from 'zod';
import { findMember, insertMember, listMemberIds } from '../../access/membership.js';
import { authorizeTeam, denied, type TeamAccess } from '../../access/team-access.js';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Db } from '../../db/index.js';
import type { UserRow } from '../../db/schema.js';
import { type InvitationView, listPendingOfTeam } from '../../directory/invitations.js';
import { openSession } from '../../directory/sessions.js';
import { findUserByEmail, insertUserIfAbsent } from '../../directory/users.js';
import { type Outgoing, publishAll, toUsers } from '../../events/publish.js';
import { badRequest, HttpError, notFound, unauthorized } from '../../http/errors.js';
import { assertOwnLinkBases, linkWithHash } from '../../http/link-base.js';
import { hashPassword } from '../../lib/passwords.js';
import { createLink, killLinkByHash, peekLink, storedHash } from '../../links/service.js';
import { invitationExistingUserMail, invitationNewUserMail } from '../../mail/templates.js';
import { isInvitee, mayManage, mayOfferRole } from './policy.js';
import { presentInvitation } from './presenter.js';
import {
  closeExpiredPending,
  closeInvitation,
  findInvitationByTokenHash,
  findInvitationOfTeam,
  findPendingForEmail,
  insertInvitation,
  listPendingForUser,
  updateInvitation,
} from './queries.js';

type LinkBases = Pick<
  z.output<typeof ZInvitationCreateRequest>,
  'accept_new_user_url' | 'accept_url' | 'decline_url'
>;

/** `<base>/<hash>?teamIdInvite=<teamId>` */
function inviteLink(base: string, hash: string, teamId: number): string {
  const u = new URL(linkWithHash(base, hash));
  u.searchParams.set('teamIdInvite', String(teamId));
  return u.toString();
}

interface Invitee {
  teamId: number;
  teamName: string;
  email: string;
  invitedUserId: number | null;
  role: number;
}

/** The invitation's link (7 days; the person's other invitations stay alive), stored through `db`. */
function mintInviteLink(ctx: AppContext, db: Db, i: Invitee) {
  return createLink(
    { db, now: ctx.now },
    { kind: LinkKind.Invite, userId: i.invitedUserId, email: i.email, teamId: i.teamId, supersede: false },
  );
}

/** Mails an invitation link; called once the transaction that made it live has committed. */
async function mailInvitation(
  ctx: AppContext,
  i: Invitee,
  inviter: UserRow,
  bases: LinkBases,
  hash: string,
): Promise<void> {
  const existing = i.invitedUserId !== null;
  const facts = {
    teamName: i.teamName,
    teamId: i.teamId,
    inviterEmail: inviter.email,
    role: i.role,
    acceptLink: inviteLink(existing ? bases.accept_url : bases.accept_new_user_url, hash, i.teamId),
    declineLink: inviteLink(bases.decline_url, hash, i.teamId),
  };
  const frame = { supportEmail: ctx.config.supportEmail };
  await ctx.mailer.send(
    i.email,
    existing ? invitationExistingUserMail(frame, facts) : invitationNewUserMail(frame, facts),
  );
}

const assertInviteBases = (ctx: AppContext, bases: LinkBases) =>
  assertOwnLinkBases(ctx.config.publicUrl, {
    accept_new_user_url: bases.accept_new_user_url,
    accept_url: bases.accept_url,
    decline_url: bases.decline_url,
  });

const invitePending = () =>
  new HttpError(409, MSG_TEAMS.invitePending, { invited_email: MSG_TEAMS.invitePending });

/**
 * The link and the invitation are written together; the mail
 * and the live events follow the commit, so nobody is mailed a link to an invitation that does not exist.
 */
export async function inviteMember(
  ctx: AppContext,
  access: TeamAccess,
  input: z.output<typeof ZInvitationCreateRequest>,
): Promise<void> {
  const { actor, team } = access;
  const teamId = team.id;
  const role = input.role;
  if (!mayOfferRole(access, role))
    throw badRequest(MSG_TEAMS.roleNotAllowed, { role: MSG_TEAMS.roleNotAllowed });
  assertInviteBases(ctx, input);
  const email = input.invited_email;
  const invited = await findUserByEmail(ctx.db, email);
  if (invited && (await findMember(ctx.db, teamId, invited.id)))
    throw new HttpError(409, MSG_TEAMS.alreadyMember, { invited_email: MSG_TEAMS.alreadyMember });
  const invitee: Invitee = {
    teamId,
    teamName: access.team.name,
    email,
    invitedUserId: invited?.id ?? null,
    role,
  };
  const now = ctx.now();
  const created = await ctx.db
    .transaction()
    .execute(async (trx) => {
      if (await findPendingForEmail(trx, teamId, email, now)) throw invitePending();
      await closeExpiredPending(trx, teamId, email, now);
      const link = await mintInviteLink(ctx, trx, invitee);
      const id = await insertInvitation(trx, {
        teamId,
        email,
        invitedUserId: invitee.invitedUserId,
        role,
        invitingUserId: actor.id,
        tokenHash: storedHash(link.hash),
        createdAt: now,
        expiresAt: link.expiresAt,
      });
      return { id, hash: link.hash };
    })
    .catch((err: unknown) => {
      // Two invitations of one address at once: the unique index (migration 0010) lets one through.
      throw isUniqueViolation(err) ? invitePending() : err;
    });
  await mailInvitation(ctx, invitee, actor, input, created.hash);
  // Event 80 to the invitee and to the team (its pending invitations changed); nobody was added yet.
  await publishAll(ctx, [
    toUsers([...(invited ? [invited.id] : []), ...(await listMemberIds(ctx.db, teamId))], {
      code: EventCode.Invited,
      invited_user: invited?.id ?? null,
      team_id: teamId,
      invite_id: created.id,
    }),
  ]);
  ctx.log.debug({ invitationId: created.id, teamId }, 'invitation sent');
}

/** The team's pending invitations (inviters). */
export async function teamInvitations(ctx: AppContext, access: TeamAccess): Promise<TInvitation[]> {
  const teamId = access.team.id;
  return (await listPendingOfTeam(ctx.db, teamId, ctx.now())).map(presentInvitation);
}

/** The caller's pending invitations. */
export async function myInvitations(ctx: AppContext, actor: UserRow): Promise<TInvitation[]> {
  return (await listPendingForUser(ctx.db, actor.id, actor.email, ctx.now())).map(presentInvitation);
}

/** 81 {invited_user, invited_info} to the invited account, if there is one. */
function inviteChanged(i: InvitationView, userId: number | null, status: number): Outgoing[] {
  if (userId === null) return [];
  return [
    toUsers([userId], {
      code: EventCode.InviteChanged,
      invited_user: userId,
      invited_info: { id: i.id, team_id: i.team_id, status },
    }),
  ];
}

const isLive = (i: InvitationView, now: number) => i.status === InviteStatus.Pending && i.expires_at > now;

/** Accepting: the member joins with the offered role, the link is spent, the team refreshes. */
async function join(ctx: AppContext, db: Db, i: InvitationView, userId: number): Promise<Outgoing[]> {
  const now = ctx.now();
  if (!(await closeInvitation(db, i.id, InviteStatus.Accepted, now)))
    throw notFound(MSG_TEAMS.invitationNotPending);
  await updateInvitation(db, i.id, { invited_user_id: userId });
  await killLinkByHash({ db, now: ctx.now }, i.token_hash);
  const before = await listMemberIds(db, i.team_id);
  await insertMember(db, { teamId: i.team_id, userId, role: i.role, createdAt: now });
  return [
    toUsers([...new Set([...before, userId])], {
      code: EventCode.UserAdded,
      team_id: i.team_id,
      add_user: userId,
    }),
    ...inviteChanged(i, userId, InviteStatus.Accepted),
  ];
}

async function closeAs(ctx: AppContext, i: InvitationView, status: number): Promise<void> {
  const events = await ctx.db.transaction().execute(async (trx) => {
    if (!(await closeInvitation(trx, i.id, status, ctx.now())))
      throw notFound(MSG_TEAMS.invitationNotPending);
    await killLinkByHash({ db: trx, now: ctx.now }, i.token_hash);
    const invitee = i.invited_user_id ?? (await findUserByEmail(trx, i.invited_email))?.id ?? null;
    return inviteChanged(i, invitee, status);
  });
  await publishAll(ctx, events);
}

/** The live invitation behind a mailed hash, or 404. */
async function invitationOfHash(ctx: AppContext, hash: string): Promise<InvitationView> {
  const link = await peekLink(ctx, hash, [LinkKind.Invite]);
  const i = link && (await findInvitationByTokenHash(ctx.db, link.token_hash));
  if (!i || !isLive(i, ctx.now())) throw notFound(MSG.linkExpiredTitle);
  return i;
}

/**
 * An address without an account: the body is the invite-account
 * form and the answer signs the new user in. An existing account: the caller must be signed in as it.
 */
export async function acceptByHash(
  ctx: AppContext,
  hash: string,
  signedIn: UserRow | undefined,
  form: z.output<typeof ZInviteNewAccountRequest> | undefined,
): Promise<TInviteAcceptResponse> {
  const i = await invitationOfHash(ctx, hash);
  const existing =
    i.invited_user_id !== null || (await findUserByEmail(ctx.db, i.invited_email)) !== undefined;
  if (existing) {
    if (!signedIn) throw unauthorized();
    if (!isInvitee(signedIn, i)) throw denied();
    const events = await ctx.db.transaction().execute((trx) => join(ctx, trx, i, signedIn.id));
    await publishAll(ctx, events);
    return { message: MSG_TEAMS.success, data: { team_id: i.team_id } };
  }
  if (!form) throw badRequest(MSG.validationFailed, { password: MSG.fieldRequired });
  const passwordHash = await hashPassword(form.password);
  const { events, session } = await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.now();
    const userId = await insertUserIfAbsent(trx, {
      email: i.invited_email,
      passwordHash,
      name: form.name ?? '',
      surname: form.surname ?? '',
      supervisor: ctx.config.supervisorEmails.includes(i.invited_email),
      subscription: false,
      createdAt: now,
    });
    if (userId === undefined) throw new HttpError(409, MSG_TEAMS.emailInUse);
    const events = await join(ctx, trx, i, userId);
    return { events, session: await openSession(trx, now, userId) };
  });
  await publishAll(ctx, events);
  return {
    message: MSG_TEAMS.success,
    access_token: session.access_token,
    data: { team_id: i.team_id, session: session.data },
  };
}

/** The mailed decline link. */
export async function declineByHash(ctx: AppContext, hash: string): Promise<void> {
  await closeAs(ctx, await invitationOfHash(ctx, hash), InviteStatus.Declined);
}

async function invitationById(ctx: AppContext, teamId: number, inviteId: number): Promise<InvitationView> {
  const i = await findInvitationOfTeam(ctx.db, teamId, inviteId);
  if (!i) throw notFound();
  return i;
}

/** The invited user accepts. */
export async function acceptById(
  ctx: AppContext,
  actor: UserRow,
  teamId: number,
  inviteId: number,
): Promise<number> {
  const i = await invitationById(ctx, teamId, inviteId);
  // Someone else's invitation is "not found": the id reveals nothing.
  if (!isInvitee(actor, i)) throw notFound();
  if (!isLive(i, ctx.now())) throw notFound(MSG_TEAMS.invitationNotPending);
  const events = await ctx.db.transaction().execute((trx) => join(ctx, trx, i, actor.id));
  await publishAll(ctx, events);
  return i.team_id;
}

/** DELETE same path: the invited user declines, or an admin / the Key master who sent it revokes. */
export async function cancelById(
  ctx: AppContext,
  actor: UserRow,
  teamId: number,
  inviteId: number,
): Promise<'declined' | 'revoked'> {
  const i = await invitationById(ctx, teamId, inviteId);
  if (isInvitee(actor, i)) {
    if (!isLive(i, ctx.now())) throw notFound(MSG_TEAMS.invitationNotPending);
    await closeAs(ctx, i, InviteStatus.Declined);
    return 'declined';
  }
  const access = await authorizeTeam(ctx, actor, teamId, 'team.read');
  if (!mayManage(access, i)) throw denied();
  if (i.status !== InviteStatus.Pending) throw notFound(MSG_TEAMS.invitationNotPending);
  await closeAs(ctx, i, InviteStatus.Revoked);
  return 'revoked';
}

/** POST .../invitation/{inviteId}/resend: a fresh link (7 days from now); the old one dies. */
export async function resendInvitation(
  ctx: AppContext,
  actor: UserRow,
  teamId: number,
  inviteId: number,
  input: z.output<typeof ZInvitationResendRequest>,
): Promise<void> {
  const access = await authorizeTeam(ctx, actor, teamId, 'team.read');
  const i = await invitationById(ctx, teamId, inviteId);
  if (!mayManage(access, i)) throw denied();
  if (i.status !== InviteStatus.Pending) throw notFound(MSG_TEAMS.invitationNotPending);
  assertInviteBases(ctx, input);
  const invitedUserId = i.invited_user_id ?? (await findUserByEmail(ctx.db, i.invited_email))?.id ?? null;
  const invitee: Invitee = {
    teamId,
    teamName: access.team.name,
    email: i.invited_email,
    invitedUserId,
    role: i.role,
  };
  // The old link dies and the new one lives with the invitation's row, in one transaction.
  const hash = await ctx.db.transaction().execute(async (trx) => {
    await killLinkByHash({ db: trx, now: ctx.now }, i.token_hash);
    const link = await mintInviteLink(ctx, trx, invitee);
    await updateInvitation(trx, i.id, {
      token_hash: storedHash(link.hash),
      expires_at: link.expiresAt,
      invited_user_id: invitedUserId,
    });
    return link.hash;
  });
  await mailInvitation(ctx, invitee, actor, input, hash);
}
