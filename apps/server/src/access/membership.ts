import { Role } from '@tlprt/contract';
import type { Db } from '../db/index.js';

/** Membership facts every feature may ask (who is in a team, with which role, how many admins). */

export function findMember(db: Db, teamId: number, userId: number) {
  return db
    .selectFrom('team_members')
    .select(['user_id', 'role'])
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function listMemberIds(db: Db, teamId: number): Promise<number[]> {
  const rows = await db.selectFrom('team_members').select('user_id').where('team_id', '=', teamId).execute();
  return rows.map((r) => r.user_id);
}

export async function countAdmins(db: Db, teamId: number): Promise<number> {
  const r = await db
    .selectFrom('team_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('role', '=', Role.Admin)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Adds a member; a member already there keeps their role (a repeated accept changes nothing). */
export async function insertMember(
  db: Db,
  m: { teamId: number; userId: number; role: number; createdAt: number },
): Promise<void> {
  await db
    .insertInto('team_members')
    .values({ team_id: m.teamId, user_id: m.userId, role: m.role, created_at: m.createdAt })
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}
