import { ADMIN_ROLES, type RoleId } from '@tlprt/contract';
import type { Db } from '../db/index.js';

/** Membership facts every feature may ask (who is in a team, with which role, how many admins: members
 *  holding a role of rights.administers, the contract's ADMIN_ROLES). */

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
    .where('role', 'in', ADMIN_ROLES)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Adds a member; a member already there keeps their role (a repeated accept changes nothing). */
export async function insertMember(
  db: Db,
  m: { teamId: number; userId: number; role: RoleId; createdAt: number },
): Promise<void> {
  await db
    .insertInto('team_members')
    .values({ team_id: m.teamId, user_id: m.userId, role: m.role, created_at: m.createdAt })
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}

export interface MembershipFacts {
  team_id: number;
  name: string;
  role: number;
  suspended: number;
  members: number;
  admins: number;
}

/** Each team of the user with its member and admin counts. */
export async function membershipFacts(db: Db, userId: number): Promise<MembershipFacts[]> {
  const rows = await db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select(['m.team_id', 't.name', 'm.role', 't.suspended'])
    .select((eb) => [
      eb
        .selectFrom('team_members as c')
        .select((e2) => e2.fn.countAll<number>().as('n'))
        .whereRef('c.team_id', '=', 'm.team_id')
        .as('members'),
      eb
        .selectFrom('team_members as a')
        .select((e2) => e2.fn.countAll<number>().as('n'))
        .whereRef('a.team_id', '=', 'm.team_id')
        .where('a.role', 'in', ADMIN_ROLES)
        .as('admins'),
    ])
    .where('m.user_id', '=', userId)
    .orderBy('m.team_id', 'asc')
    .execute();
  return rows.map((r) => ({ ...r, members: Number(r.members ?? 0), admins: Number(r.admins ?? 0) }));
}

/** True when the user belongs to a team whose suspension awaits confirmation (blocks password and
 *  e-mail changes). */
export async function inTeamWithSuspensionPending(db: Db, userId: number): Promise<boolean> {
  const r = await db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select('t.id')
    .where('m.user_id', '=', userId)
    .where('t.suspended_process', '=', 1)
    .executeTakeFirst();
  return r !== undefined;
}
