import type { TLiveEvent } from '@tlprt/contract';
import type { Db } from '../db/index.js';
import { type Outgoing, toUsers } from '../events/publish.js';
import { listMemberIds } from './membership.js';
import type { TeamAccess } from './team-access.js';

/**
 * Who hears about a team's domains, keys and settings: its members, plus the supervisor who made the
 * change when they are not a member (their screen refreshes like everyone else's).
 */
async function teamAudience(db: Db, access: TeamAccess): Promise<number[]> {
  const members = await listMemberIds(db, access.team.id);
  return members.includes(access.actor.id) ? members : [...members, access.actor.id];
}

/** One event to the team's audience (read inside the transaction, published after commit). */
export async function toTeam(db: Db, access: TeamAccess, event: TLiveEvent): Promise<Outgoing> {
  return toUsers(await teamAudience(db, access), { ...event, team_id: access.team.id });
}
