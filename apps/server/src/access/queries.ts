import type { RoleId } from '@tlprt/contract';
import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import type { TeamRow } from '../db/schema.js';

/** 1 when `userId` starred the team (team_favourites is the one source of truth). */
export const favouriteOf = (userId: number) =>
  sql<number>`case when exists (select 1 from team_favourites f where f.team_id = teams.id and f.user_id = ${userId}) then 1 else 0 end`.as(
    'favourite',
  );

/** The team with the caller's membership role (null when not a member) and star, in one query. */
export function findTeamAccessRow(
  db: Db,
  teamId: number,
  userId: number,
): Promise<(TeamRow & { member_role: RoleId | null; favourite: number }) | undefined> {
  return db
    .selectFrom('teams')
    .leftJoin('team_members as m', (j) => j.onRef('m.team_id', '=', 'teams.id').on('m.user_id', '=', userId))
    .selectAll('teams')
    .select('m.role as member_role')
    .select(favouriteOf(userId))
    .where('teams.id', '=', teamId)
    .executeTakeFirst();
}
