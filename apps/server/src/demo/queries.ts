import { KeyStatus } from '@tlprt/contract';
import type { Db } from '../db/index.js';

/** The demo traffic's look-ups (traffic.ts). */

/** The team named `teamName` that `email` is a member of. */
export async function findMembersTeam(db: Db, email: string, teamName: string) {
  const row = await db
    .selectFrom('teams as t')
    .innerJoin('team_members as m', 'm.team_id', 't.id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('t.id')
    .where('u.email', '=', email)
    .where('t.name', '=', teamName)
    .executeTakeFirst();
  return row?.id;
}

/** The team's active keys but the one named `exceptName`, oldest first. */
export function listActiveKeysExcept(db: Db, teamId: number, exceptName: string) {
  return db
    .selectFrom('keys')
    .select(['id', 'key_hash'])
    .where('team_id', '=', teamId)
    .where('status', '=', KeyStatus.Active)
    .where('name', '!=', exceptName)
    .orderBy('id')
    .execute();
}
