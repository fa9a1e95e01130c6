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

/** Inserts an active origin and sets its URL, which is made from its id. */
export async function insertOrigin(
  db: Db,
  o: { teamId: number; name: string; createdAt: number },
  urlOf: (id: number) => string,
): Promise<number> {
  const { id } = await db
    .insertInto('origins')
    .values({ team_id: o.teamId, name: o.name, status: 10, created_at: o.createdAt })
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

export async function deleteOrigin(db: Db, teamId: number, id: number): Promise<boolean> {
  const r = await db
    .deleteFrom('origins')
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
