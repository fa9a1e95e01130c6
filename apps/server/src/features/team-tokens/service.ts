import {
  AUDIT_ACTIONS,
  MSG_TOKENS,
  type TCreatedTeamToken,
  TEAM_TOKEN_PREFIX,
  type TTeamToken,
  type TTeamTokenScope,
} from '@tlprt/contract';
import type { TeamAccess } from '../../access/team-access.js';
import { recordAudit } from '../../audit/record.js';
import type { AppContext } from '../../context.js';
import { lockTeam } from '../../db/locks.js';
import { HttpError, notFound } from '../../http/errors.js';
import { randomToken, sha256 } from '../../lib/tokens.js';
import { mayAddToken } from './policy.js';
import { presentCreatedToken, presentTeamToken } from './presenter.js';
import { countLiveTokens, insertToken, listLiveTokens, revokeToken } from './queries.js';

/** A new secret: the recognisable prefix and 32 random bytes (TEAM_TOKEN_PATTERN). */
export const newTeamToken = (): string => `${TEAM_TOKEN_PREFIX}${randomToken(32)}`;

/** The team's live tokens, oldest first. */
export async function listTeamTokens(ctx: AppContext, access: TeamAccess): Promise<TTeamToken[]> {
  const teamId = access.team.id;
  return (await listLiveTokens(ctx.db, teamId)).map(presentTeamToken);
}

/** At most LIMITS.teamTokensPerTeam live ones (409). */
export async function createTeamToken(
  ctx: AppContext,
  access: TeamAccess,
  name: string,
  scope: TTeamTokenScope,
): Promise<TCreatedTeamToken> {
  const { actor, team } = access;
  const teamId = team.id;
  const token = newTeamToken();
  const row = await ctx.db.transaction().execute(async (trx) => {
    // Two creations at once must not both pass the count.
    await lockTeam(trx, teamId);
    if (!mayAddToken(await countLiveTokens(trx, teamId))) throw new HttpError(409, MSG_TOKENS.limitReached);
    const at = ctx.now();
    const created = await insertToken(trx, {
      teamId,
      name,
      scope,
      tokenHash: sha256(token),
      createdBy: actor.id,
      createdAt: at,
    });
    if (actor.supervisor === 1) {
      await recordAudit(trx, actor, at, {
        teamId,
        action: AUDIT_ACTIONS.tokenCreated,
        target: { type: 'token', id: created.id, label: name },
        newValue: { team: team.name, scope },
      });
    }
    return created;
  });
  return presentCreatedToken(row, actor.email, token);
}

/** A token of another team, or already revoked, is 404. */
export async function revokeTeamToken(ctx: AppContext, access: TeamAccess, id: number): Promise<void> {
  const { actor, team } = access;
  const teamId = team.id;
  const revoked = await ctx.db.transaction().execute(async (trx) => {
    const at = ctx.now();
    const row = await revokeToken(trx, teamId, id, at);
    if (!row) throw notFound();
    if (actor.supervisor === 1) {
      await recordAudit(trx, actor, at, {
        teamId,
        action: AUDIT_ACTIONS.tokenRevoked,
        target: { type: 'token', id, label: row.name },
        oldValue: { team: team.name },
      });
    }
    return row;
  });
  // This node refuses it at once; the others when their cached answer expires (5 s).
  ctx.teamTokens.forget(revoked.token_hash);
}
