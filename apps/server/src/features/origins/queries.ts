import { OriginStatus } from '@tlprt/contract';
import type { Updateable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { OriginRow, OriginsTable } from '../../db/schema.js';

/** Every query for an origin names its team (STYLE §5). */
export function listOrigins(db: Db, teamId: number): Promise<OriginRow[]> {
  return db
    .selectFrom('origins')
    .selectAll()
    .where('team_id', '=', teamId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

export function findOrigin(db: Db, teamId: number, id: number): Promise<OriginRow | undefined> {
  return db
    .selectFrom('origins')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Inserts an active, unverified origin and sets its URL, which is made from its id. */
export async function insertOrigin(
  db: Db,
  o: { teamId: number; name: string; createdAt: number; verificationHash: string },
  urlOf: (id: number) => string,
): Promise<number> {
  const { id } = await db
    .insertInto('origins')
    .values({
      team_id: o.teamId,
      name: o.name,
      status: OriginStatus.Active,
      created_at: o.createdAt,
      verification_hash: o.verificationHash,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('origins')
    .set({ url: urlOf(id) })
    .where('id', '=', id)
    .execute();
  return id;
}

export async function updateOrigin(db: Db, teamId: number, id: number, patch: Updateable<OriginsTable>) {
  await db.updateTable('origins').set(patch).where('team_id', '=', teamId).where('id', '=', id).execute();
}

/** Gives a row inserted without a verification file (by a node older than 0020) its own. */
export async function fillVerificationHash(db: Db, teamId: number, id: number, hash: string): Promise<void> {
  await db
    .updateTable('origins')
    .set({ verification_hash: hash })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('verification_hash', '=', '')
    .execute();
}

/** Marks the origin verified unless it already is; false when it is gone. */
export async function markOriginVerified(db: Db, teamId: number, id: number, at: number): Promise<boolean> {
  await db
    .updateTable('origins')
    .set({ verified_at: at })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('verified_at', 'is', null)
    .execute();
  return (await findOrigin(db, teamId, id)) !== undefined;
}

export async function deleteOrigin(db: Db, teamId: number, id: number): Promise<boolean> {
  const r = await db
    .deleteFrom('origins')
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
