import type { Db } from '../../db/index.js';
import type { TeamRow } from '../../db/schema.js';

/** A team as one member sees it. */
export type MemberTeamRow = TeamRow & { role: number; favourite: number };

/** The user's teams: favourites first, then by id (the sidebar order). */
export function listTeamsOfUser(db: Db, userId: number): Promise<MemberTeamRow[]> {
  return db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .selectAll('t')
    .select(['m.role', 'm.favourite'])
    .where('m.user_id', '=', userId)
    .orderBy('m.favourite', 'desc')
    .orderBy('t.id', 'asc')
    .execute();
}

export function findTeamOfUser(db: Db, userId: number, teamId: number): Promise<MemberTeamRow | undefined> {
  return db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .selectAll('t')
    .select(['m.role', 'm.favourite'])
    .where('m.user_id', '=', userId)
    .where('t.id', '=', teamId)
    .executeTakeFirst();
}

export function findTeamByNameOfUser(
  db: Db,
  userId: number,
  name: string,
): Promise<MemberTeamRow | undefined> {
  return db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .selectAll('t')
    .select(['m.role', 'm.favourite'])
    .where('m.user_id', '=', userId)
    .where('t.name', '=', name)
    .executeTakeFirst();
}

/** Creates a team with its first member in one transaction. */
export async function insertTeamWithMember(
  db: Db,
  team: { name: string; createdAt: number },
  member: { userId: number; role: number },
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

export async function insertMember(
  db: Db,
  m: { teamId: number; userId: number; role: number; createdAt: number },
): Promise<void> {
  await db
    .insertInto('team_members')
    .values({ team_id: m.teamId, user_id: m.userId, role: m.role, created_at: m.createdAt })
    .execute();
}
