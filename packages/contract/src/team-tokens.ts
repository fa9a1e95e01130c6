import { z } from 'zod';
import { envelope, requiredText } from './common.js';
import { LIMITS } from './constants.js';

/**
 * API tokens of a team: secrets that server-side programs (not browsers) send as
 * `Authorization: Bearer <token>`. Each token carries one scope, so a token made for one use never
 * gains another when a new scope arrives:
 * - `ingest`: batches of many sessions on POST /stats/v1/ingest;
 * - `statistics`: reading the team's statistics on GET /stats/v1/export;
 * - `hashes`: publishing the SHA-256 of the team's segments on POST /player/v1/hashes (a packager).
 */
export const TEAM_TOKEN_SCOPES = ['ingest', 'statistics', 'hashes'] as const;
export type TTeamTokenScope = (typeof TEAM_TOKEN_SCOPES)[number];
/** What a token of each scope may do, in a few words (the API document, the scope's refusal). */
export const TEAM_TOKEN_SCOPE_DESCRIPTIONS: Record<TTeamTokenScope, string> = {
  ingest: 'report traffic (batches of sessions)',
  statistics: 'read statistics (export)',
  hashes: 'publish segment hashes',
};
/** "ingest, statistics or hashes": the scopes as a sentence reads them. */
const SCOPE_LIST = `${TEAM_TOKEN_SCOPES.slice(0, -1).join(', ')} or ${TEAM_TOKEN_SCOPES[TEAM_TOKEN_SCOPES.length - 1]}`;

/** What every token starts with, so a leaked one is recognised (secret scanners, logs) and a bearer
 *  value of another kind (a session token) is told apart without a database look-up. */
export const TEAM_TOKEN_PREFIX = 'tlprt_api_';
/** The prefix, then 32 random bytes in base64url (43 characters, no padding). */
export const TEAM_TOKEN_PATTERN = /^tlprt_api_[A-Za-z0-9_-]{43}$/;
export const isTeamTokenFormat = (s: string): boolean => TEAM_TOKEN_PATTERN.test(s);

/** One token as listed: never its secret nor its hash. */
export const ZTeamToken = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: z.enum(TEAM_TOKEN_SCOPES),
  createdAt: z.string(),
  /** Who made it: the account's e-mail; null once that account is deleted. */
  createdBy: z.string().nullable(),
  /** Written at most once a minute per token; null until first used. */
  lastUsedAt: z.string().nullable(),
});
export type TTeamToken = z.infer<typeof ZTeamToken>;
export const ZTeamTokenListResponse = envelope(z.array(ZTeamToken));

export const ZCreateTeamTokenRequest = z.object({
  name: requiredText(LIMITS.teamTokenNameMax),
  /** What the token may do; `ingest` when not given (tokens made before there was a choice). */
  scope: z
    .enum(TEAM_TOKEN_SCOPES, { error: `Must be ${SCOPE_LIST}` })
    .default('ingest')
    .describe(TEAM_TOKEN_SCOPES.map((s) => `${s}: ${TEAM_TOKEN_SCOPE_DESCRIPTIONS[s]}`).join('; ')),
});
export type TCreateTeamTokenRequest = z.infer<typeof ZCreateTeamTokenRequest>;
/** The answer of a creation: the only time the secret is ever sent. */
export const ZCreatedTeamToken = ZTeamToken.extend({ token: z.string().regex(TEAM_TOKEN_PATTERN) });
export type TCreatedTeamToken = z.infer<typeof ZCreatedTeamToken>;
export const ZCreateTeamTokenResponse = envelope(ZCreatedTeamToken);
