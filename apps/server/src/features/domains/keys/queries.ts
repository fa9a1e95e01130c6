import { DomainStatus, KeyStatus } from '@tlprt/contract';
import { sql, type Updateable } from 'kysely';
import type { Db } from '../../../db/index.js';
import type { KeyRow, KeysTable } from '../../../db/schema.js';

/** Statuses a team sees (spec §4: 10, 20, 30, 40; 50 is deleted). */
const LISTED_KEY_STATUSES = [KeyStatus.Active, KeyStatus.Inactive, KeyStatus.Locked, KeyStatus.Restricted];

/** A key with what decides how it is shown and whether it may change: its domain's state. */
export type KeyView = KeyRow & { domain_status: number | null; domain_suspended: number | null };

/** Every query for a key names its team (STYLE §5). */
function keysOfTeam(db: Db, teamId: number, statuses: readonly number[] = LISTED_KEY_STATUSES) {
  return db
    .selectFrom('keys')
    .leftJoin('domains', (j) =>
      j.onRef('domains.id', '=', 'keys.domain_id').on('domains.team_id', '=', teamId),
    )
    .selectAll('keys')
    .select(['domains.status as domain_status', 'domains.suspended as domain_suspended'])
    .where('keys.team_id', '=', teamId)
    .where('keys.status', 'in', statuses);
}

export function findKey(db: Db, teamId: number, id: number): Promise<KeyView | undefined> {
  return keysOfTeam(db, teamId).where('keys.id', '=', id).executeTakeFirst();
}

/** The team's listed keys, oldest first. */
export function listKeys(db: Db, teamId: number): Promise<KeyView[]> {
  return keysOfTeam(db, teamId).orderBy('keys.created_at', 'asc').orderBy('keys.id', 'asc').execute();
}

/** The team's deleted keys (the domain list keeps those whose statistics are kept). */
export function listDeletedKeys(db: Db, teamId: number): Promise<KeyView[]> {
  return keysOfTeam(db, teamId, [KeyStatus.Deleted])
    .orderBy('keys.created_at', 'asc')
    .orderBy('keys.id', 'asc')
    .execute();
}

/** The listed keys of some domains of the team (the domain list shows each domain's keys). */
export function listKeysOfDomains(db: Db, teamId: number, domainIds: number[]): Promise<KeyView[]> {
  if (domainIds.length === 0) return Promise.resolve([]);
  return keysOfTeam(db, teamId)
    .where('keys.domain_id', 'in', domainIds)
    .orderBy('keys.created_at', 'asc')
    .orderBy('keys.id', 'asc')
    .execute();
}

/** The team's listed keys for all its domains (domainId null), oldest first. */
export function listAllDomainsKeys(db: Db, teamId: number): Promise<KeyView[]> {
  return keysOfTeam(db, teamId)
    .where('keys.domain_id', 'is', null)
    .orderBy('keys.created_at', 'asc')
    .orderBy('keys.id', 'asc')
    .execute();
}

/** Inserts an active key; a hash collision throws a unique violation (the caller draws again). */
export async function insertKey(
  db: Db,
  k: { teamId: number; domainId: number | null; keyHash: string; name: string; createdAt: number },
): Promise<number> {
  const row = await db
    .insertInto('keys')
    .values({
      team_id: k.teamId,
      domain_id: k.domainId,
      key_hash: k.keyHash,
      name: k.name,
      status: KeyStatus.Active,
      created_at: k.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Updates a listed key of the team; false when there is none. */
export async function updateKey(
  db: Db,
  teamId: number,
  id: number,
  patch: Updateable<KeysTable>,
): Promise<boolean> {
  const r = await db
    .updateTable('keys')
    .set(patch)
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('status', 'in', LISTED_KEY_STATUSES)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Suspends or unsuspends a key, remembering / restoring the status it had. */
export async function setKeySuspended(db: Db, teamId: number, id: number, suspend: boolean): Promise<void> {
  const q = db.updateTable('keys').where('team_id', '=', teamId).where('id', '=', id);
  if (suspend) {
    await q
      .set((eb) => ({ status_before_suspend: eb.ref('status'), status: KeyStatus.Restricted, suspended: 1 }))
      .execute();
  } else {
    await q
      .set({
        status: sql<number>`coalesce(status_before_suspend, ${KeyStatus.Active})`,
        status_before_suspend: null,
        suspended: 0,
      })
      .execute();
  }
}

/** The listed keys of a domain follow its suspension: stored and set to 20, or restored. */
export async function setDomainKeysSuspended(
  db: Db,
  teamId: number,
  domainId: number,
  suspend: boolean,
): Promise<void> {
  const q = db
    .updateTable('keys')
    .where('team_id', '=', teamId)
    .where('domain_id', '=', domainId)
    .where('status', 'in', LISTED_KEY_STATUSES);
  if (suspend) {
    await q
      .set((eb) => ({ status_before_domain_suspend: eb.ref('status'), status: KeyStatus.Inactive }))
      .execute();
  } else {
    await q
      .set({
        status: sql<number>`coalesce(status_before_domain_suspend, status)`,
        status_before_domain_suspend: null,
      })
      .execute();
  }
}

/** A deleted domain takes its keys with it (status 50). */
export async function deleteKeysOfDomain(db: Db, teamId: number, domainId: number): Promise<void> {
  await db
    .updateTable('keys')
    .set({ status: KeyStatus.Deleted })
    .where('team_id', '=', teamId)
    .where('domain_id', '=', domainId)
    .execute();
}

/** The domain a key is created for: a live domain of the team. */
export function findDomainForKey(db: Db, teamId: number, domainId: number) {
  return db
    .selectFrom('domains')
    .select(['id', 'draft', 'verification', 'status', 'suspended'])
    .where('team_id', '=', teamId)
    .where('id', '=', domainId)
    .where('status', '<>', DomainStatus.Deleted)
    .executeTakeFirst();
}
