import { useQuery } from '@tanstack/react-query';
import { teamKeys } from '../../platform/queries/teams';
import { teamsApi } from './api';

/** GET /v1/teams/{id}: the team with its members and pending invitations. */
export function useTeamDetail(id: number | null) {
  return useQuery({
    queryKey: teamKeys.detail(id ?? 0),
    queryFn: ({ signal }) => teamsApi.detail(id as number, signal),
    enabled: id !== null,
    select: (r) => r.data,
  });
}
