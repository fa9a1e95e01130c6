import type { RoleId } from '@tlprt/contract';
import type { Db } from '../../db/index.js';
import { type MemberTeamRow, memberTeams } from '../../directory/teams.js';

export function findTeamOfUser(db: Db, userId: number, teamId: number): Promise<MemberTeamRow | undefined> {
  return memberTeams(db, userId).where('teams.id', '=', teamId).executeTakeFirst();
}

export function findTeamByNameOfUser(
  db: Db,
  userId: number,
  name: string,
): Promise<MemberTeamRow | undefined> {
  return memberTeams(db, userId).where('teams.name', '=', name).executeTakeFirst();
}

/** Creates a team with its first member in one transaction. */
export async function insertTeamWithMember(
  db: Db,
  team: { name: string; createdAt: number },
  member: { userId: number; role: RoleId },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('teams')
      .values({ name: team.name, created_at: team.createdAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('team_members')
      .values({ team_id: id, user_id: member.userId, role: member.role, created_at: team.createdAt })
      .execute();
    return id;
  });
}

export interface MemberRow {
  id: number;
  email: string;
  name: string;
  surname: string;
  image: number;
  role: number;
}

export function listMembers(db: Db, teamId: number): Promise<MemberRow[]> {
  return db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.name', 'u.surname', 'u.image', 'm.role'])
    .where('m.team_id', '=', teamId)
    .orderBy('m.created_at', 'asc')
    .orderBy('m.role', 'asc')
    .orderBy('u.id', 'asc')
    .execute();
}

export async function removeMember(db: Db, teamId: number, userId: number): Promise<boolean> {
  const r = await db
    .deleteFrom('team_members')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function setMemberRole(db: Db, teamId: number, userId: number, role: RoleId): Promise<void> {
  await db
    .updateTable('team_members')
    .set({ role })
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();
}

// ----- tags -----

export async function listTags(db: Db, teamId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('team_tags')
    .select('tag')
    .where('team_id', '=', teamId)
    .orderBy('created_at', 'asc')
    .orderBy('tag', 'asc')
    .execute();
  return rows.map((r) => r.tag);
}

/** False when the team already has the tag. */
export async function insertTag(db: Db, teamId: number, tag: string, at: number): Promise<boolean> {
  const r = await db
    .insertInto('team_tags')
    .values({ team_id: teamId, tag, created_at: at })
    .onConflict((oc) => oc.columns(['team_id', 'tag']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function deleteTag(db: Db, teamId: number, tag: string): Promise<boolean> {
  const r = await db
    .deleteFrom('team_tags')
    .where('team_id', '=', teamId)
    .where('tag', '=', tag)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

// ----- favourites -----

/** Toggles the user's star; returns the new state. */
export async function toggleFavourite(db: Db, userId: number, teamId: number, at: number): Promise<boolean> {
  const removed = await db
    .deleteFrom('team_favourites')
    .where('user_id', '=', userId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) > 0) return false;
  await db
    .insertInto('team_favourites')
    .values({ user_id: userId, team_id: teamId, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'team_id']).doNothing())
    .execute();
  return true;
}

export async function removeFavourite(db: Db, userId: number, teamId: number): Promise<void> {
  await db
    .deleteFrom('team_favourites')
    .where('user_id', '=', userId)
    .where('team_id', '=', teamId)
    .execute();
}
