import { type QueryClient, useQuery } from '@tanstack/react-query';
import { sessionKeys } from '../session/queries';
import { teamsApi } from './api';

/** Query keys of the teams feature (STYLE §9): mutations and live events invalidate these. */
export const teamKeys = {
  all: ['teams'] as const,
  details: () => [...teamKeys.all, 'detail'] as const,
  detail: (id: number) => [...teamKeys.details(), id] as const,
  timeZones: () => ['timeZones'] as const,
};

/** GET /v1/teams/{id}: the team with its members and pending invitations. */
export function useTeamDetail(id: number | null) {
  return useQuery({
    queryKey: teamKeys.detail(id ?? 0),
    queryFn: ({ signal }) => teamsApi.detail(id as number, signal),
    enabled: id !== null,
    select: (r) => r.data,
  });
}

/** GET /auth/time_zone_list (static: cached for the session). */
export function useTimeZones() {
  return useQuery({
    queryKey: teamKeys.timeZones(),
    queryFn: teamsApi.timeZones,
    staleTime: Number.POSITIVE_INFINITY,
    select: (r) => r.data,
  });
}

/** What a team change touches: its detail and the session (TeamsRender carries name, role, status). */
export function invalidateTeams(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: teamKeys.all }),
    queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  ]);
}
