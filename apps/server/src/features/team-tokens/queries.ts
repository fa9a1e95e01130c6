import type { Db } from '../../db/index.js';
import type { TeamTokenRow } from '../../db/schema.js';

/** Every query names the team (STYLE §5); revoked tokens are history, never listed or counted. */
export function listLiveTokens(db: Db, teamId: number): Promise<TeamTokenRow[]> {
  return db
    .selectFrom('team_tokens')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

export async function countLiveTokens(db: Db, teamId: number): Promise<number> {
  const { n } = await db
    .selectFrom('team_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function insertToken(
  db: Db,
  t: { teamId: number; name: string; scope: string; tokenHash: string; createdBy: number; createdAt: number },
): Promise<TeamTokenRow> {
  return db
    .insertInto('team_tokens')
    .values({
      team_id: t.teamId,
      name: t.name,
      scope: t.scope,
      token_hash: t.tokenHash,
      created_by: t.createdBy,
      created_at: t.createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Marks a live token of the team revoked; undefined when there is none (unknown, foreign, revoked). */
export function revokeToken(
  db: Db,
  teamId: number,
  id: number,
  at: number,
): Promise<Pick<TeamTokenRow, 'name' | 'token_hash'> | undefined> {
  return db
    .updateTable('team_tokens')
    .set({ revoked_at: at })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning(['name', 'token_hash'])
    .executeTakeFirst();
}
