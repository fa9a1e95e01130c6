import { ENDPOINTS, type TCreateTeamTokenRequest } from '@tlprt/contract';
import { request } from '../../platform/api/client';

const E = ENDPOINTS.teamTokens;

/** A team's API tokens (the contract's descriptors). */
export const teamTokensApi = {
  list: (teamId: number, signal?: AbortSignal) => request(E.list, { params: { teamId }, signal }),
  create: (teamId: number, body: TCreateTeamTokenRequest) => request(E.create, { params: { teamId }, body }),
  revoke: (teamId: number, id: number) => request(E.revoke, { params: { teamId, id } }),
};
