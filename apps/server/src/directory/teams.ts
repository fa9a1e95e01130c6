import {
  DEFAULT_TIME_ZONE_NAME,
  findTimeZone,
  type TTeamSummary,
  timeZoneText,
  zoneOffsetMinutes,
} from '@tlprt/contract';
import { favouriteOf } from '../access/queries.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/index.js';
import type { TeamRow } from '../db/schema.js';

/** The teams rows several features read and delete: a member's teams as the member sees them. */
/** A team as one member sees it. */
export type MemberTeamRow = TeamRow & { role: number; favourite: number };

/** The teams of a member with the member's role and star. */
export function memberTeams(db: Db, userId: number) {
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

/** Deletes a team; members, invitations, tags and stars go with it (cascade). */
export async function deleteTeam(db: Db, teamId: number): Promise<void> {
  await db.deleteFrom('teams').where('id', '=', teamId).execute();
}

/** A team row as the member sees it (ZTeamSummary). Offsets are computed at `at`, so DST is right. */
export function presentTeamSummary(row: MemberTeamRow, at: Date): TTeamSummary {
  const zone = findTimeZone(row.time_zone_id)?.name ?? DEFAULT_TIME_ZONE_NAME;
  return {
    id: row.id,
    name: row.name,
    website: row.website,
    role: row.role,
    favourite: row.favourite === 1,
    version: row.version,
    statusId: row.status_id,
    suspended: row.suspended,
    suspendedProcess: row.suspended_process,
    timezoneId: row.time_zone_id,
    timeZone: timeZoneText(zone, at),
    utcOffset: zoneOffsetMinutes(zone, at) / 60,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** TeamsRender of a user. */
export async function teamsOf(ctx: AppContext, userId: number): Promise<TTeamSummary[]> {
  const at = new Date(ctx.now());
  return (await listTeamsOfUser(ctx.db, userId)).map((r) => presentTeamSummary(r, at));
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
