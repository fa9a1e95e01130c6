import {
  AUDIT_ACTIONS,
  bareHost,
  DomainStatus,
  EventCode,
  HOST_PATTERN,
  isSupervisorRole,
  LIMITS,
  MSG_DOMAIN_RULES,
  MSG_DOMAINS,
  type TDomain,
  type TDomainListResponse,
  VerificationMethod,
} from '@tlprt/contract';
import { toTeam } from '../../access/audience.js';
import { authorizeTeam, denied, type TeamAccess } from '../../access/team-access.js';
import { recordAudit } from '../../audit/record.js';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Db } from '../../db/index.js';
import { lockTeam } from '../../db/locks.js';
import type { DomainRow, UserRow } from '../../db/schema.js';
import { type Outgoing, publishAll } from '../../events/publish.js';
import { badRequest, HttpError, notFound } from '../../http/errors.js';
import { presentKey } from './keys/presenter.js';
import {
  deleteKeysOfDomain,
  listAllDomainsKeys,
  listDeletedKeys,
  listKeysOfDomains,
  setDomainKeysSuspended,
} from './keys/queries.js';
import { isSuspended, mayPromote, maySetPlainHttp, mayToggle, mayUseMethod } from './policy.js';
import { presentDomain } from './presenter.js';
import {
  countDomains,
  findDomain,
  findDomainsByHost,
  insertDomain,
  listDomains,
  listDomainsById,
  updateDomain,
  verifiedByAnotherTeam,
} from './queries.js';
import {
  type CheckMethodId,
  newVerificationHash,
  normalizeHost,
  type VerificationInstructions,
} from './verification/index.js';

const assignedToAnother = () => new HttpError(404, MSG_DOMAINS.assignedToAnother);

/** What the user typed, as the host we store (bareHost, then IDN → punycode), or a 400 naming `url`. */
function hostOfInput(input: string): string {
  const host = normalizeHost(bareHost(input));
  if (!host || !HOST_PATTERN.test(host)) {
    throw badRequest(MSG_DOMAINS.incorrectFormat, { url: MSG_DOMAINS.incorrectFormat });
  }
  return host;
}

async function domainOf(db: Db, access: TeamAccess, id: number): Promise<DomainRow> {
  const d = await findDomain(db, access.team.id, id);
  if (!d) throw notFound();
  return d;
}

async function withKeys(db: Db, teamId: number, domains: DomainRow[]): Promise<TDomain[]> {
  const keys = await listKeysOfDomains(
    db,
    teamId,
    domains.map((d) => d.id),
  );
  return domains.map((d) =>
    presentDomain(
      d,
      keys.filter((k) => k.domain_id === d.id),
    ),
  );
}

async function presentOne(db: Db, access: TeamAccess, id: number): Promise<TDomain> {
  const [d] = await withKeys(db, access.team.id, [await domainOf(db, access, id)]);
  if (!d) throw notFound();
  return d;
}

/** Every live domain, split into drafts and promoted (each with its keys). */
export async function listTeamDomains(
  ctx: AppContext,
  actor: UserRow,
  teamId: number,
): Promise<Omit<TDomainListResponse, 'message'>> {
  await authorizeTeam(ctx, actor, teamId, 'statistics.read');
  const data = await withKeys(ctx.db, teamId, await listDomains(ctx.db, teamId));
  return {
    data,
    drafts: data.filter((d) => d.draft.id === 0),
    verified: data.filter((d) => d.draft.id === 1),
    ...(await deletedWithStatistics(ctx, teamId)),
    allDomains: (await listAllDomainsKeys(ctx.db, teamId)).map(presentKey),
  };
}

/** The deleted keys whose statistics are still kept: under each of their domains, with those keys only (a
 *  deleted domain's keys are all deleted with it; a live domain may have some), and those of no domain. */
async function deletedWithStatistics(
  { db, statsStore }: AppContext,
  teamId: number,
): Promise<Pick<TDomainListResponse, 'deleted' | 'deletedAllDomains'>> {
  const deleted = await listDeletedKeys(db, teamId);
  // The hourly points live longest (docs/DESIGN.md §2): a deleted key with none has no statistics left.
  const kept = await statsStore.keysWithHistory(deleted.map((k) => k.id));
  const keys = deleted.filter((k) => kept.has(k.id));
  const domainIds = [...new Set(keys.flatMap((k) => (k.domain_id === null ? [] : [k.domain_id])))];
  const domains = await listDomainsById(db, teamId, domainIds);
  return {
    deleted: domains.map((d) =>
      presentDomain(
        d,
        keys.filter((k) => k.domain_id === d.id),
      ),
    ),
    deletedAllDomains: keys.filter((k) => k.domain_id === null).map(presentKey),
  };
}

/** A new draft with a fresh verification hash; answers its id and the host stored (an IDN in its
 *  `xn--` form, which the screen explains). */
export async function createDomain(
  ctx: AppContext,
  access: TeamAccess,
  url: string,
): Promise<{ id: number; host: string }> {
  const teamId = access.team.id;
  const host = hostOfInput(url);
  const { id, events } = await ctx.db.transaction().execute(async (trx) => {
    await lockTeam(trx, teamId);
    if (await verifiedByAnotherTeam(trx, teamId, host)) throw assignedToAnother();
    const own = await findDomainsByHost(trx, teamId, host);
    const verified = own.find((d) => d.verification === 1);
    if (verified) {
      // Nothing records who verified it, so the answer says where it is, not who did it.
      const msg = verified.draft === 1 ? MSG_DOMAINS.alreadyVerifiedInTeam : MSG_DOMAINS.alreadyVerifiedDraft;
      throw new HttpError(406, msg, { url: msg });
    }
    if (own.length > 0) throw new HttpError(409, MSG_DOMAINS.alreadyDraft, { url: MSG_DOMAINS.alreadyDraft });
    if ((await countDomains(trx, teamId)) >= LIMITS.domainsPerTeam)
      throw new HttpError(409, MSG_DOMAINS.maxDomains, { url: MSG_DOMAINS.maxDomains });
    const id = await insertDomain(trx, {
      teamId,
      host,
      name: host,
      hash: newVerificationHash(),
      createdAt: ctx.now(),
    });
    return { id, events: [await toTeam(trx, access, { code: EventCode.DomainCreated, created_domain: id })] };
  });
  await publishAll(ctx, events);
  return { id, host };
}

/** The four copyable texts for this domain's hash. */
export async function domainInstructions(
  ctx: AppContext,
  access: TeamAccess,
  id: number,
): Promise<VerificationInstructions> {
  const d = await domainOf(ctx.db, access, id);
  return ctx.verifier.instructions(d.host, d.verification_hash);
}

const statusEvent = (d: Pick<DomainRow, 'id' | 'status' | 'suspended'>) => ({
  code: EventCode.DomainStatus,
  domain_id: d.id,
  status: d.status,
  suspended: d.suspended,
});

const onOff = (v: number) => (v === 1 ? 'on' : 'off');

/**
 * Methods 1–4 run the real check (outside
 * any transaction: it may take seconds); 5 is the supervisor's bypass. The host is re-checked against
 * other teams inside the transaction that marks it verified.
 */
export async function verifyDomain(
  ctx: AppContext,
  access: TeamAccess,
  id: number,
  method: number,
): Promise<void> {
  const { actor } = access;
  const teamId = access.team.id;
  if (!mayUseMethod(access, method)) throw denied();
  const d = await domainOf(ctx.db, access, id);
  if (d.verification === 1) return;
  if (await verifiedByAnotherTeam(ctx.db, teamId, d.host)) throw assignedToAnother();
  if (method !== VerificationMethod.SupervisorBypass) {
    const result = await ctx.verifier.verify(d.host, d.verification_hash, method as CheckMethodId);
    if (!result.ok) {
      ctx.log.info({ teamId, domainId: id, method, reason: result.reason }, 'domain verification failed');
      throw badRequest(MSG_DOMAINS.verificationFailed);
    }
  }
  let events: Outgoing[];
  try {
    events = await ctx.db.transaction().execute(async (trx) => {
      await lockTeam(trx, teamId);
      if (await verifiedByAnotherTeam(trx, teamId, d.host)) throw assignedToAnother();
      const patch = { verification: 1, status: DomainStatus.Active, verification_method: method };
      if (!(await updateDomain(trx, teamId, id, patch))) throw notFound();
      if (method === VerificationMethod.SupervisorBypass) {
        await recordAudit(trx, actor, ctx.now(), {
          teamId,
          action: AUDIT_ACTIONS.domainVerifiedBypass,
          target: { type: 'domain', id, label: d.host },
          oldValue: 'unverified',
          newValue: 'verified',
        });
      }
      return [await toTeam(trx, access, statusEvent({ ...d, ...patch }))];
    });
  } catch (error) {
    // Another team's verification committed between our check and our write.
    if (isUniqueViolation(error)) throw assignedToAnother();
    throw error;
  }
  ctx.log.info({ teamId, domainId: id, method }, 'domain verified');
  await publishAll(ctx, events);
}

/** A verified draft moves to My domains. */
export async function promoteDomain(ctx: AppContext, access: TeamAccess, id: number): Promise<TDomain> {
  const teamId = access.team.id;
  const events = await ctx.db.transaction().execute(async (trx) => {
    const d = await domainOf(trx, access, id);
    if (!mayPromote(d)) {
      throw new HttpError(
        409,
        d.draft === 1 ? MSG_DOMAIN_RULES.alreadyPromoted : MSG_DOMAIN_RULES.notVerified,
      );
    }
    await updateDomain(trx, teamId, id, { draft: 1 });
    return [await toTeam(trx, access, { code: EventCode.DomainCreated, created_domain: id })];
  });
  await publishAll(ctx, events);
  return presentOne(ctx.db, access, id);
}

/** Active ↔ Inactive (not while suspended). */
export async function toggleDomain(ctx: AppContext, access: TeamAccess, id: number): Promise<TDomain> {
  const teamId = access.team.id;
  const events = await ctx.db.transaction().execute(async (trx) => {
    const d = await domainOf(trx, access, id);
    if (isSuspended(d)) throw new HttpError(403, MSG_DOMAINS.domainSuspended);
    if (!mayToggle(d)) throw new HttpError(409, MSG_DOMAIN_RULES.notPromoted);
    const status = d.status === DomainStatus.Active ? DomainStatus.Inactive : DomainStatus.Active;
    await updateDomain(trx, teamId, id, { status });
    return [await toTeam(trx, access, statusEvent({ ...d, status }))];
  });
  await publishAll(ctx, events);
  return presentOne(ctx.db, access, id);
}

/**
 * Whether the Origin rule accepts the domain's
 * `http://` pages. A supervisor's change is recorded: it widens or narrows where a customer's keys work.
 * The public side sees it within the Origin rule's cache time (OriginGate, 5 s).
 */
export async function setPlainHttp(
  ctx: AppContext,
  access: TeamAccess,
  id: number,
  plainHttp: boolean,
): Promise<TDomain> {
  const { actor } = access;
  const teamId = access.team.id;
  const value = plainHttp ? 1 : 0;
  const events = await ctx.db.transaction().execute(async (trx) => {
    const d = await domainOf(trx, access, id);
    if (!maySetPlainHttp(d)) throw new HttpError(409, MSG_DOMAIN_RULES.plainHttpNotPromoted);
    if (d.plain_http === value) return [];
    await updateDomain(trx, teamId, id, { plain_http: value });
    if (isSupervisorRole(access.policy)) {
      await recordAudit(trx, actor, ctx.now(), {
        teamId,
        action: AUDIT_ACTIONS.domainPlainHttp,
        target: { type: 'domain', id, label: d.host },
        oldValue: onOff(d.plain_http),
        newValue: onOff(value),
      });
    }
    return [await toTeam(trx, access, { ...statusEvent(d), plain_http: value })];
  });
  await publishAll(ctx, events);
  return presentOne(ctx.db, access, id);
}

/** A draft or a promoted domain gets status 50, and so do its keys. */
export async function deleteDomain(ctx: AppContext, access: TeamAccess, id: number): Promise<void> {
  const teamId = access.team.id;
  const events = await ctx.db.transaction().execute(async (trx) => {
    await domainOf(trx, access, id);
    await updateDomain(trx, teamId, id, { status: DomainStatus.Deleted, deleted_at: ctx.now() });
    await deleteKeysOfDomain(trx, teamId, id);
    return [await toTeam(trx, access, { code: EventCode.DomainDeleted, deleted_domain: id })];
  });
  await publishAll(ctx, events);
}

/**
 * Toggles `suspended`. Suspending stores each
 * key's status and deactivates it; unsuspending restores them.
 */
export async function toggleDomainSuspension(
  ctx: AppContext,
  access: TeamAccess,
  id: number,
): Promise<TDomain> {
  const { actor } = access;
  const teamId = access.team.id;
  const events = await ctx.db.transaction().execute(async (trx) => {
    const d = await domainOf(trx, access, id);
    const suspend = !isSuspended(d);
    await updateDomain(trx, teamId, id, { suspended: suspend ? 1 : 0 });
    await setDomainKeysSuspended(trx, teamId, id, suspend);
    await recordAudit(trx, actor, ctx.now(), {
      teamId,
      action: suspend ? AUDIT_ACTIONS.domainSuspended : AUDIT_ACTIONS.domainUnsuspended,
      target: { type: 'domain', id, label: d.host },
      oldValue: suspend ? 'active' : 'suspended',
      newValue: suspend ? 'suspended' : 'active',
    });
    return [await toTeam(trx, access, statusEvent({ ...d, suspended: suspend ? 1 : 0 }))];
  });
  await publishAll(ctx, events);
  return presentOne(ctx.db, access, id);
}
