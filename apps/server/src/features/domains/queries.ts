import { DomainStatus } from '@tlprt/contract';
import type { Updateable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { DomainRow, DomainsTable } from '../../db/schema.js';

/**
 * Every query for a domain names its team: another team's id is simply not found (STYLE §5).
 * "Live" means not deleted (status 50).
 */
function liveOfTeam(db: Db, teamId: number) {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('status', '<>', DomainStatus.Deleted);
}

export function findDomain(db: Db, teamId: number, id: number): Promise<DomainRow | undefined> {
  return liveOfTeam(db, teamId).where('id', '=', id).executeTakeFirst();
}

/** Some domains of the team, deleted ones included, oldest first. */
export function listDomainsById(db: Db, teamId: number, ids: number[]): Promise<DomainRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('domains')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', 'in', ids)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** The team's live domains, oldest first. */
export function listDomains(db: Db, teamId: number): Promise<DomainRow[]> {
  return liveOfTeam(db, teamId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
}

export async function countDomains(db: Db, teamId: number): Promise<number> {
  const r = await db
    .selectFrom('domains')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('status', '<>', DomainStatus.Deleted)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The team's live rows for this host (at most one in practice). */
export function findDomainsByHost(db: Db, teamId: number, host: string): Promise<DomainRow[]> {
  return liveOfTeam(db, teamId).where('host', '=', host).execute();
}

/** Whether another team holds this host verified (the one cross-team query: it answers a yes/no). */
export async function verifiedByAnotherTeam(db: Db, teamId: number, host: string): Promise<boolean> {
  const row = await db
    .selectFrom('domains')
    .select('id')
    .where('host', '=', host)
    .where('verification', '=', 1)
    .where('status', '<>', DomainStatus.Deleted)
    .where('team_id', '<>', teamId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertDomain(
  db: Db,
  d: { teamId: number; host: string; name: string; hash: string; createdAt: number },
): Promise<number> {
  const row = await db
    .insertInto('domains')
    .values({
      team_id: d.teamId,
      host: d.host,
      name: d.name,
      status: DomainStatus.Inactive,
      verification: 0,
      verification_hash: d.hash,
      draft: 0,
      created_at: d.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Updates a live domain of the team; false when there is none (deleted meanwhile). */
export async function updateDomain(
  db: Db,
  teamId: number,
  id: number,
  patch: Updateable<DomainsTable>,
): Promise<boolean> {
  const r = await db
    .updateTable('domains')
    .set(patch)
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('status', '<>', DomainStatus.Deleted)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
