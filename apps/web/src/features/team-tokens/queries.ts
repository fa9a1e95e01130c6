import { useQuery } from '@tanstack/react-query';
import { teamTokensApi } from './api';

/** Query keys of the API tokens (STYLE §9). */
export const teamTokenKeys = {
  all: ['teamTokens'] as const,
  list: (teamId: number) => [...teamTokenKeys.all, 'list', teamId] as const,
};

/** GET /api/v1/teams/{teamId}/tokens (admins and supervisors). */
export function useTeamTokens(teamId: number, enabled = true) {
  return useQuery({
    queryKey: teamTokenKeys.list(teamId),
    queryFn: ({ signal }) => teamTokensApi.list(teamId, signal),
    enabled,
    select: (r) => r.data,
  });
}
