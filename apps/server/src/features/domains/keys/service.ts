import {
  AUDIT_ACTIONS,
  EventCode,
  KeyStatus,
  MSG_DOMAIN_RULES,
  MSG_DOMAINS,
  type TKey,
} from '@tlprt/contract';
import { toTeam } from '../../../access/audience.js';
import type { TeamAccess } from '../../../access/team-access.js';
import { recordAudit } from '../../../audit/record.js';
import type { AppContext } from '../../../context.js';
import { isUniqueViolation } from '../../../db/errors.js';
import type { Db } from '../../../db/index.js';
import { publishAll } from '../../../events/publish.js';
import { HttpError, notFound } from '../../../http/errors.js';
import { newKeyHash } from './hash.js';
import { assertKeyChangeable, assertKeyEditable, assertKeyToggleable } from './policy.js';
import { presentKey } from './presenter.js';
import {
  findDomainForKey,
  findKey,
  insertKey,
  type KeyView,
  listKeys,
  setKeySuspended,
  updateKey,
} from './queries.js';

/** A listed key of the caller's team, or 404 (another team's key id reveals nothing). */
export async function keyOf(db: Db, teamId: number, id: number): Promise<KeyView> {
  const k = await findKey(db, teamId, id);
  if (!k) throw notFound();
  return k;
}

async function presentOne(db: Db, teamId: number, id: number): Promise<TKey> {
  return presentKey(await keyOf(db, teamId, id));
}

/** The domain a new key belongs to: 0 = every domain of the team; else a promoted live domain. */
async function domainForNewKey(db: Db, teamId: number, domainId: number): Promise<number | null> {
  if (domainId === 0) return null;
  const d = await findDomainForKey(db, teamId, domainId);
  if (!d) throw notFound();
  if (d.draft !== 1 || d.verification !== 1)
    throw new HttpError(409, MSG_DOMAIN_RULES.keyNeedsPromotedDomain);
  if (d.suspended === 1) throw new HttpError(403, MSG_DOMAINS.keyChangeBlocked);
  return d.id;
}

/** A new active key with a fresh 40-character hash. */
export async function createKey(
  ctx: AppContext,
  access: TeamAccess,
  domainId: number,
  name: string,
): Promise<TKey> {
  const teamId = access.team.id;
  // A collision of 238 random bits does not happen; the retry keeps the unique index the only judge.
  for (let attempt = 1; ; attempt++) {
    try {
      const { id, events } = await ctx.db.transaction().execute(async (trx) => {
        const ownerDomain = await domainForNewKey(trx, teamId, domainId);
        const id = await insertKey(trx, {
          teamId,
          domainId: ownerDomain,
          keyHash: newKeyHash(),
          name,
          createdAt: ctx.now(),
        });
        return { id, events: [await toTeam(trx, access, { code: EventCode.KeyCreated, created_key: id })] };
      });
      await publishAll(ctx, events);
      return presentOne(ctx.db, teamId, id);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/** The team's keys with status 10, 20, 30, 40 (shown status, spec §4). */
export async function listTeamKeys(ctx: AppContext, access: TeamAccess): Promise<TKey[]> {
  const teamId = access.team.id;
  return (await listKeys(ctx.db, teamId)).map(presentKey);
}

export async function readKey(ctx: AppContext, access: TeamAccess, id: number): Promise<TKey> {
  const teamId = access.team.id;
  return presentOne(ctx.db, teamId, id);
}

/** Runs one key change in a transaction and tells the team (92, or 91 for a deletion). */
async function changeKey(
  ctx: AppContext,
  access: TeamAccess,
  id: number,
  change: (db: Db, k: KeyView) => Promise<void>,
  code: number = EventCode.KeyChanged,
): Promise<void> {
  const teamId = access.team.id;
  const events = await ctx.db.transaction().execute(async (trx) => {
    const k = await keyOf(trx, teamId, id);
    await change(trx, k);
    const field = code === EventCode.KeyDeleted ? 'deleted_key' : 'created_key';
    return [await toTeam(trx, access, { code, [field]: id })];
  });
  await publishAll(ctx, events);
}

export async function renameKey(
  ctx: AppContext,
  access: TeamAccess,
  id: number,
  name: string,
): Promise<TKey> {
  const teamId = access.team.id;
  await changeKey(ctx, access, id, async (db, k) => {
    assertKeyEditable(k);
    await updateKey(db, teamId, id, { name });
  });
  return presentOne(ctx.db, teamId, id);
}

/** 10 ↔ 20. */
export async function toggleKey(ctx: AppContext, access: TeamAccess, id: number): Promise<TKey> {
  const teamId = access.team.id;
  await changeKey(ctx, access, id, async (db, k) => {
    assertKeyToggleable(k);
    const status = k.status === KeyStatus.Active ? KeyStatus.Inactive : KeyStatus.Active;
    await updateKey(db, teamId, id, { status });
  });
  return presentOne(ctx.db, teamId, id);
}

/** Status 50 (the statistics keep the key). */
export async function deleteKey(ctx: AppContext, access: TeamAccess, id: number): Promise<void> {
  const teamId = access.team.id;
  await changeKey(
    ctx,
    access,
    id,
    async (db, k) => {
      assertKeyChangeable(k);
      await updateKey(db, teamId, id, { status: KeyStatus.Deleted });
    },
    EventCode.KeyDeleted,
  );
}

/** Suspend (status kept, 40) or restore. */
export async function toggleKeySuspension(ctx: AppContext, access: TeamAccess, id: number): Promise<TKey> {
  const { actor } = access;
  const teamId = access.team.id;
  await changeKey(ctx, access, id, async (db, k) => {
    assertKeyChangeable(k);
    const suspend = k.suspended !== 1;
    await setKeySuspended(db, teamId, id, suspend);
    await recordAudit(db, actor, ctx.now(), {
      teamId,
      action: suspend ? AUDIT_ACTIONS.keySuspended : AUDIT_ACTIONS.keyUnsuspended,
      target: { type: 'key', id, label: k.name || k.key_hash },
      oldValue: suspend ? 'active' : 'suspended',
      newValue: suspend ? 'suspended' : 'active',
    });
  });
  return presentOne(ctx.db, teamId, id);
}
