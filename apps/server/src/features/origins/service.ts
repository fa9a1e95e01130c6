import { randomBytes } from 'node:crypto';
import {
  MSG_DOMAIN_RULES,
  MSG_DOMAINS,
  OriginStatus,
  type TOrigin,
  VerificationMethod,
} from '@tlprt/contract';
import { originNameHost, usableDomainHosts } from '../../access/origin-hosts.js';
import type { TeamAccess } from '../../access/team-access.js';
import { publicHostOf } from '../../config.js';
import type { AppContext } from '../../context.js';
import { lockTeam } from '../../db/locks.js';
import type { OriginRow } from '../../db/schema.js';
import { badRequest, HttpError, notFound } from '../../http/errors.js';
import { mayToggleOrigin } from './policy.js';
import { type OriginView, presentOrigin } from './presenter.js';
import {
  deleteOrigin,
  fillVerificationHash,
  findOrigin,
  insertOrigin,
  listOrigins,
  markOriginVerified,
  updateOrigin,
} from './queries.js';

/** The CDN host a team pulls an origin through: o<id>-t<teamId>.cdn.<host of PUBLIC_URL>. */
const originUrl = (publicUrl: string, teamId: number, id: number) =>
  `o${id}-t${teamId}.cdn.${publicHostOf(publicUrl)}`;

/** The content of an origin's verification file: 128 random bits in lower-case hex, the form the
 *  verifier's HTML-file method accepts (as a domain's verification hash). */
const newVerificationHash = () => randomBytes(16).toString('hex');

async function originOf(ctx: AppContext, teamId: number, id: number) {
  const o = await findOrigin(ctx.db, teamId, id);
  if (!o) throw notFound();
  return o;
}

async function viewOf(ctx: AppContext, teamId: number): Promise<OriginView> {
  const domainHosts = new Set(await usableDomainHosts(ctx.db, teamId));
  return { domainHosts, fileOf: (host, hash) => ctx.verifier.instructions(host, hash).html };
}

async function present(ctx: AppContext, teamId: number, o: OriginRow): Promise<TOrigin> {
  return presentOrigin(o, await viewOf(ctx, teamId));
}

/** Every member. */
export async function listTeamOrigins(ctx: AppContext, access: TeamAccess): Promise<TOrigin[]> {
  const teamId = access.team.id;
  const [rows, view] = await Promise.all([listOrigins(ctx.db, teamId), viewOf(ctx, teamId)]);
  const filled = await Promise.all(rows.map((o) => withVerificationHash(ctx, teamId, o)));
  return filled.map((o) => presentOrigin(o, view));
}

/** A row without a file gets one (see migration 0020); another node filling it first wins. */
async function withVerificationHash(ctx: AppContext, teamId: number, o: OriginRow): Promise<OriginRow> {
  if (o.verification_hash !== '') return o;
  await fillVerificationHash(ctx.db, teamId, o.id, newVerificationHash());
  return (await findOrigin(ctx.db, teamId, o.id)) ?? o;
}

export async function createOrigin(ctx: AppContext, access: TeamAccess, name: string): Promise<TOrigin> {
  const teamId = access.team.id;
  const o = await originOf(ctx, teamId, await createOriginRow(ctx, teamId, name));
  return present(ctx, teamId, o);
}

/** What makes two origins of a team the same: their host, or for a row older than issue 39 whose name
 *  is no host, the name itself. */
const sameOriginAs = (name: string) => originNameHost(name) ?? name.trim().toLowerCase();

/** Inserts an origin with its CDN url (also used by the demo seed); 409 naming `name` when the team has
 *  it already. */
export function createOriginRow(ctx: AppContext, teamId: number, name: string): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    // Under the team's lock: two tabs adding the same host at once must not both succeed.
    await lockTeam(trx, teamId);
    const key = sameOriginAs(name);
    if ((await listOrigins(trx, teamId)).some((o) => sameOriginAs(o.name) === key))
      throw new HttpError(409, MSG_DOMAINS.originDuplicate, { name: MSG_DOMAINS.originDuplicate });
    return insertOrigin(
      trx,
      { teamId, name, createdAt: ctx.now(), verificationHash: newVerificationHash() },
      (id) => originUrl(ctx.config.publicUrl, teamId, id),
    );
  });
}

/** 10 ↔ 20 (not while suspended). */
export async function toggleOrigin(ctx: AppContext, access: TeamAccess, id: number): Promise<TOrigin> {
  const teamId = access.team.id;
  const o = await originOf(ctx, teamId, id);
  if (!mayToggleOrigin(o)) throw new HttpError(403, MSG_DOMAIN_RULES.originSuspended);
  const status = o.status === OriginStatus.Active ? OriginStatus.Inactive : OriginStatus.Active;
  await updateOrigin(ctx.db, teamId, id, { status });
  return present(ctx, teamId, { ...o, status });
}

/**
 * The verification file is fetched from the origin's host by the domain verifier's HTML-file method
 * (https, then http on VERIFY_HTTP_PORT; DNS_SERVERS; public addresses only; size and time limits),
 * outside any transaction since it may take seconds. Like a domain's, the reason of a failure goes to
 * the log only: the answer must not tell a caller how some host answers. Verifying again is a no-op.
 */
export async function verifyOrigin(ctx: AppContext, access: TeamAccess, id: number): Promise<TOrigin> {
  const teamId = access.team.id;
  const o = await withVerificationHash(ctx, teamId, await originOf(ctx, teamId, id));
  if (!mayToggleOrigin(o)) throw new HttpError(403, MSG_DOMAIN_RULES.originSuspended);
  const host = originNameHost(o.name);
  if (host === null) throw badRequest(MSG_DOMAIN_RULES.originNotHost);
  if (o.verified_at !== null) return present(ctx, teamId, o);
  const result = await ctx.verifier.verify(host, o.verification_hash, VerificationMethod.HTML);
  if (!result.ok) {
    ctx.log.info({ teamId, originId: id, host, reason: result.reason }, 'origin verification failed');
    const { url } = ctx.verifier.instructions(host, o.verification_hash).html;
    throw badRequest(MSG_DOMAIN_RULES.originVerificationFailed(url));
  }
  if (!(await markOriginVerified(ctx.db, teamId, id, ctx.now()))) throw notFound();
  ctx.log.info({ teamId, originId: id, host }, 'origin verified');
  return present(ctx, teamId, await originOf(ctx, teamId, id));
}

export async function removeOrigin(ctx: AppContext, access: TeamAccess, id: number): Promise<void> {
  const teamId = access.team.id;
  if (!(await deleteOrigin(ctx.db, teamId, id))) throw notFound();
}
