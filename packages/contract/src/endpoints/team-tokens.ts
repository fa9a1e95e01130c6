import { ZMessage, ZTeamItemParams, ZTeamParams } from '../common.js';
import { endpoint } from '../endpoint.js';
import { ZCreateTeamTokenRequest, ZCreateTeamTokenResponse, ZTeamTokenListResponse } from '../team-tokens.js';

const tag = 'team tokens';

/** A team's API tokens (admins of the team, supervisors): listed without secrets, created (the secret
 *  answered once), revoked. */
export const TEAM_TOKEN_ENDPOINTS = {
  list: endpoint({
    method: 'GET',
    path: '/api/v1/teams/:teamId/tokens',
    access: 'user',
    action: 'tokens.read',
    tag,
    summary: "The team's live API tokens, oldest first (no secrets)",
    params: ZTeamParams,
    response: ZTeamTokenListResponse,
    errors: [400, 403, 404],
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/v1/teams/:teamId/tokens',
    access: 'user',
    action: 'tokens.create',
    tag,
    summary: 'Creates an API token; the answer holds its secret, which is never shown again',
    params: ZTeamParams,
    body: ZCreateTeamTokenRequest,
    status: 201,
    response: ZCreateTeamTokenResponse,
    errors: [400, 403, 404, 409],
  }),
  revoke: endpoint({
    method: 'DELETE',
    path: '/api/v1/teams/:teamId/tokens/:id',
    access: 'user',
    action: 'tokens.revoke',
    tag,
    summary: 'Revokes an API token: refused everywhere within 5 seconds',
    params: ZTeamItemParams,
    response: ZMessage,
    errors: [400, 403, 404],
  }),
} as const;
