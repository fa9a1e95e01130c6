import { Role } from '@tlprt/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { TeamRow } from '../../db/schema.js';

/** A team as one member sees it. */
export type MemberTeamRow = TeamRow & { role: number; favourite: number };

/** 1 when `userId` starred the team (team_favourites is the one source of truth). */
const favouriteOf = (userId: number) =>
  sql<number>`case when exists (select 1 from team_favourites f where f.team_id = teams.id and f.user_id = ${userId}) then 1 else 0 end`.as(
    'favourite',
  );

function memberTeams(db: Db, userId: number) {
  return db
    .selectFrom('team_members as m')
    .innerJoin('teams', 'teams.id', 'm.team_id')
    .selectAll('teams')
    .select('m.role')
    .select(favouriteOf(userId))
    .where('m.user_id', '=', userId);
}

/** The user's teams: favourites first, then by id (the sidebar order). */
export function listTeamsOfUser(db: Db, userId: number): Promise<MemberTeamRow[]> {
  return memberTeams(db, userId).orderBy('favourite', 'desc').orderBy('teams.id', 'asc').execute();
}

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

/** The policy helper's one query: the team, the caller's membership (role or null) and star. */
export function findTeamAccessRow(
  db: Db,
  teamId: number,
  userId: number,
): Promise<(TeamRow & { member_role: number | null; favourite: number }) | undefined> {
  return db
    .selectFrom('teams')
    .leftJoin('team_members as m', (j) => j.onRef('m.team_id', '=', 'teams.id').on('m.user_id', '=', userId))
    .selectAll('teams')
    .select('m.role as member_role')
    .select(favouriteOf(userId))
    .where('teams.id', '=', teamId)
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

export async function listMemberIds(db: Db, teamId: number): Promise<number[]> {
  const rows = await db.selectFrom('team_members').select('user_id').where('team_id', '=', teamId).execute();
  return rows.map((r) => r.user_id);
}

export function findMember(db: Db, teamId: number, userId: number) {
  return db
    .selectFrom('team_members')
    .select(['user_id', 'role'])
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
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

export async function updateTeam(
  db: Db,
  teamId: number,
  patch: Partial<
    Pick<
      TeamRow,
      | 'name'
      | 'website'
      | 'time_zone_id'
      | 'version'
      | 'status_id'
      | 'suspended'
      | 'suspended_process'
      | 'delete_requested_by'
      | 'suspend_requested_by'
    >
  >,
): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('teams').set(patch).where('id', '=', teamId).execute();
}

export async function removeMember(db: Db, teamId: number, userId: number): Promise<boolean> {
  const r = await db
    .deleteFrom('team_members')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function setMemberRole(db: Db, teamId: number, userId: number, role: number): Promise<void> {
  await db
    .updateTable('team_members')
    .set({ role })
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();
}

/** Deletes a team; members, invitations, tags and stars go with it (cascade). */
export async function deleteTeam(db: Db, teamId: number): Promise<void> {
  await db.deleteFrom('teams').where('id', '=', teamId).execute();
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

/** Tags of several teams at once (the search list). */
export async function tagsOfTeams(db: Db, teamIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (teamIds.length === 0) return out;
  const rows = await db
    .selectFrom('team_tags')
    .select(['team_id', 'tag'])
    .where('team_id', 'in', teamIds)
    .orderBy('created_at', 'asc')
    .orderBy('tag', 'asc')
    .execute();
  for (const r of rows) out.set(r.team_id, [...(out.get(r.team_id) ?? []), r.tag]);
  return out;
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

// ----- search -----

export interface TeamSearch {
  userId: number;
  /** Supervisors search every team; everybody else only their own. */
  allTeams: boolean;
  general?: string | undefined;
  onlyFavourites: boolean;
  statuses?: number[] | undefined;
  suspended?: number | undefined;
  createdFrom?: number | undefined;
  createdTo?: number | undefined;
  offset: number;
  limit: number;
}

export type TeamSearchRow = TeamRow & { member_role: number | null; favourite: number; members: number };

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function searchTeams(db: Db, s: TeamSearch): Promise<{ rows: TeamSearchRow[]; total: number }> {
  let q = db
    .selectFrom('teams')
    .leftJoin('team_members as me', (j) =>
      j.onRef('me.team_id', '=', 'teams.id').on('me.user_id', '=', s.userId),
    );
  if (!s.allTeams) q = q.where('me.user_id', 'is not', null);
  if (s.onlyFavourites) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('team_favourites as f')
          .select('f.team_id')
          .whereRef('f.team_id', '=', 'teams.id')
          .where('f.user_id', '=', s.userId),
      ),
    );
  }
  if (s.statuses?.length) q = q.where('teams.status_id', 'in', s.statuses);
  if (s.suspended !== undefined) q = q.where('teams.suspended', '=', s.suspended);
  if (s.createdFrom !== undefined) q = q.where('teams.created_at', '>=', s.createdFrom);
  if (s.createdTo !== undefined) q = q.where('teams.created_at', '<=', s.createdTo);
  if (s.general) {
    const pattern = `%${escapeLike(s.general.toLowerCase())}%`;
    const asId = /^\d{1,9}$/.test(s.general) ? Number(s.general) : undefined;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(teams.name)`, 'like', sql`${pattern} escape '\\'`),
        ...(asId !== undefined ? [eb('teams.id', '=', asId)] : []),
        eb.exists(
          eb
            .selectFrom('team_tags as tg')
            .select('tg.team_id')
            .whereRef('tg.team_id', '=', 'teams.id')
            .where(sql`lower(tg.tag)`, 'like', sql`${pattern} escape '\\'`),
        ),
        eb.exists(
          eb
            .selectFrom('team_members as tm')
            .innerJoin('users as u', 'u.id', 'tm.user_id')
            .select('tm.team_id')
            .whereRef('tm.team_id', '=', 'teams.id')
            .where(sql`lower(u.email)`, 'like', sql`${pattern} escape '\\'`),
        ),
      ]),
    );
  }
  const totalRow = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll('teams')
    .select('me.role as member_role')
    .select(favouriteOf(s.userId))
    .select((eb) =>
      eb
        .selectFrom('team_members as c')
        .select((e2) => e2.fn.countAll<number>().as('n'))
        .whereRef('c.team_id', '=', 'teams.id')
        .as('members'),
    )
    .orderBy('favourite', 'desc')
    .orderBy('teams.id', 'asc')
    .offset(s.offset)
    .limit(s.limit)
    .execute();
  return {
    rows: rows.map((r) => ({ ...r, members: Number(r.members ?? 0) })) as TeamSearchRow[],
    total: Number(totalRow.n),
  };
}

// ----- the account deletion check -----

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
        .where('a.role', '=', Role.Admin)
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
