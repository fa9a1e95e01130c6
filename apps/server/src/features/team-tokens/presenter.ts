import type { TCreatedTeamToken, TTeamToken, TTeamTokenScope } from '@tlprt/contract';
import type { TeamTokenRow } from '../../db/schema.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** A token as listed (with its creator's e-mail): never its hash. */
export function presentTeamToken(t: TeamTokenRow & { creator_email: string | null }): TTeamToken {
  return {
    id: t.id,
    name: t.name,
    // The response schema checks it against TEAM_TOKEN_SCOPES: an unknown stored scope is never passed on.
    scope: t.scope as TTeamTokenScope,
    createdAt: iso(t.created_at),
    createdBy: t.creator_email,
    lastUsedAt: t.last_used_at === null ? null : iso(t.last_used_at),
  };
}

/** The creation's answer: the one time the secret leaves the server. */
export const presentCreatedToken = (
  t: TeamTokenRow,
  creatorEmail: string,
  token: string,
): TCreatedTeamToken => ({
  ...presentTeamToken({ ...t, creator_email: creatorEmail }),
  token,
});
