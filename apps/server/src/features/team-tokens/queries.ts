import type { Db } from '../../db/index.js';
import type { TeamTokenRow } from '../../db/schema.js';

/** A live token with the e-mail of the account that made it (null once that account is gone). */
export type TokenWithCreator = TeamTokenRow & { creator_email: string | null };

/** Every query names the team (STYLE §5); revoked tokens are history, never listed or counted. */
export function listLiveTokens(db: Db, teamId: number): Promise<TokenWithCreator[]> {
  return db
    .selectFrom('team_tokens as t')
    .leftJoin('users as u', 'u.id', 't.created_by')
    .selectAll('t')
    .select('u.email as creator_email')
    .where('t.team_id', '=', teamId)
    .where('t.revoked_at', 'is', null)
    .orderBy('t.created_at', 'asc')
    .orderBy('t.id', 'asc')
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
