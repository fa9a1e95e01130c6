import {
  EventCode,
  LinkKind,
  MSG,
  type TLoginRequest,
  type TLoginResponse,
  type TPasswordRecoveryAcceptRequest,
  type TSetNewPasswordRequest,
  type TUser,
  type ZRecoveryRequest,
  type ZRegisterRequest,
} from '@tlprt/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { openSession, revokeSession, revokeUserSessions } from '../../directory/sessions.js';
import { describeUser, findUserByEmail, insertUserIfAbsent, setPasswordHash } from '../../directory/users.js';
import type { AuthInfo } from '../../http/auth.js';
import { HttpError, notFound, tooManyRequests } from '../../http/errors.js';
import { assertOwnLinkBases, linkWithHash } from '../../http/link-base.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { consumeLink, createLink, peekLink } from '../../links/service.js';
import { alreadyRegisteredMail, passwordRecoveryMail, registrationMail } from '../../mail/templates.js';

type RegisterInput = z.output<typeof ZRegisterRequest>;
type RecoveryInput = z.output<typeof ZRecoveryRequest>;

/** The hashes the password screens accept: the sign-up link, or a recovery link. */
const PASSWORD_LINK_KINDS = [LinkKind.Register, LinkKind.Recovery] as const;

// ----- guest calls -----

/**
 * Failures count per (login, address) and per address, each refused past its limit
 * (429); per login from anywhere they only slow the next attempts down, so nobody can lock the owner
 * out by failing on purpose from elsewhere (RATE_LIMITS; OWASP Authentication cheat sheet).
 */
export async function login(ctx: AppContext, input: TLoginRequest, ip: string): Promise<TLoginResponse> {
  const f = ctx.loginFailures;
  const pair = `${input.login}\n${ip}`;
  const wait = Math.max(await f.perLoginAndAddress.retryAfter(pair), await f.perAddress.retryAfter(ip));
  if (wait > 0) throw tooManyRequests(wait);
  const delay = f.delayFor(await f.perLogin.count(input.login));
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  const user = await findUserByEmail(ctx.db, input.login);
  // verifyPassword hashes a dummy when there is no user or no password, so timing does not tell.
  const ok = await verifyPassword(user?.password_hash ?? null, input.password);
  if (!user || !ok) {
    await f.perLoginAndAddress.record(pair);
    await f.perAddress.record(ip);
    await f.perLogin.record(input.login);
    throw new HttpError(401, MSG.incorrectLogin);
  }
  await f.perLoginAndAddress.clear(pair);
  await f.perLogin.clear(input.login);
  return openSession(ctx.db, ctx.now(), user.id);
}

/**
 * The answer is the same whether or not the e-mail has an account; only the mail
 * differs, so the form does not reveal who is registered.
 */
export async function register(ctx: AppContext, input: RegisterInput): Promise<void> {
  assertOwnLinkBases(ctx.config.publicUrl, {
    createPath: input.createPath,
    resetPath: input.resetPath,
    loginPath: input.loginPath,
  });
  const frame = { supportEmail: ctx.config.supportEmail };
  const newId = await insertUserIfAbsent(ctx.db, {
    email: input.login,
    supervisor: ctx.config.supervisorEmails.includes(input.login),
    subscription: input.subscription,
    createdAt: ctx.now(),
  });
  const existing = newId === undefined ? await findUserByEmail(ctx.db, input.login) : undefined;
  const userId = newId ?? existing?.id;
  if (userId === undefined) throw new Error('registered e-mail vanished');

  // A new account, or one whose owner never finished sign-up (lost the first mail): a fresh sign-up link.
  if (newId !== undefined || existing?.password_hash === null) {
    const { hash } = await createLink(ctx, { kind: LinkKind.Register, userId, email: input.login });
    await ctx.mailer.send(
      input.login,
      registrationMail(frame, { createLink: linkWithHash(input.createPath, hash) }),
    );
    return;
  }
  const { hash } = await createLink(ctx, { kind: LinkKind.Recovery, userId, email: input.login });
  await ctx.mailer.send(
    input.login,
    alreadyRegisteredMail(frame, {
      loginLink: input.loginPath,
      resetLink: linkWithHash(input.resetPath, hash),
    }),
  );
}

/** Always the same answer; a mail only if the account exists. */
export async function requestRecovery(ctx: AppContext, input: RecoveryInput): Promise<void> {
  assertOwnLinkBases(ctx.config.publicUrl, { url: input.url });
  const user = await findUserByEmail(ctx.db, input.login);
  if (!user) return;
  const { hash } = await createLink(ctx, { kind: LinkKind.Recovery, userId: user.id, email: user.email });
  await ctx.mailer.send(
    user.email,
    passwordRecoveryMail(
      { supportEmail: ctx.config.supportEmail },
      { resetLink: linkWithHash(input.url, hash) },
    ),
  );
}

/**
 * Uses a password link and sets the password. A recovery link also signs the account out everywhere
 * (code 20): whoever knew the old password loses access. Returns a fresh session.
 */
async function setPasswordFromLink(
  ctx: AppContext,
  input: TSetNewPasswordRequest,
  kinds: readonly (typeof PASSWORD_LINK_KINDS)[number][],
): Promise<TLoginResponse> {
  // Hash first: it is slow, and the link must be spent only when everything else is ready.
  const passwordHash = await hashPassword(input.password);
  const now = ctx.now();
  const { session, revoked } = await ctx.db.transaction().execute(async (trx) => {
    const link = await consumeLink({ db: trx, now: ctx.now }, input.hash, kinds);
    if (!link || link.user_id === null) throw notFound(MSG.linkExpiredTitle);
    await setPasswordHash(trx, link.user_id, passwordHash, now);
    const revoked = link.kind === LinkKind.Recovery ? await revokeUserSessions(trx, link.user_id, now) : [];
    return { session: await openSession(trx, now, link.user_id), revoked };
  });
  if (revoked.length) {
    await ctx.bus.publish({ sessionIds: revoked }, { code: EventCode.ForcedLogoutPassword }, { close: true });
  }
  return session;
}

/** The first password, from the sign-up mail (a recovery link works too). */
export function setNewPassword(ctx: AppContext, input: TSetNewPasswordRequest): Promise<TLoginResponse> {
  return setPasswordFromLink(ctx, input, PASSWORD_LINK_KINDS);
}

/** A reset from the recovery mail. */
export function acceptRecovery(
  ctx: AppContext,
  input: TPasswordRecoveryAcceptRequest,
): Promise<TLoginResponse> {
  return setPasswordFromLink(ctx, input, [LinkKind.Recovery]);
}

/** Which kind of live e-mail link this is, if any (every kind: each link
 *  screen checks its hash before anything else and compares the kind with what it expects). */
export async function checkHash(ctx: AppContext, hash: string): Promise<string | undefined> {
  return (await peekLink(ctx, hash, Object.values(LinkKind)))?.kind;
}

// ----- signed-in calls -----

/** This token stops working, and the other tabs sharing it sign out (code 11). */
export async function logout(ctx: AppContext, auth: AuthInfo): Promise<void> {
  await revokeSession(ctx.db, auth.sessionId, ctx.now());
  await ctx.bus.publish(
    { sessionIds: [auth.sessionId] },
    { code: EventCode.ForcedLogoutSession },
    { close: true },
  );
}

export function check(ctx: AppContext, auth: AuthInfo): Promise<TUser> {
  return describeUser(ctx, auth.user);
}
