import type { QueryClient } from '@tanstack/react-query';
import { sessionKeys } from '../session/queries';

/**
 * Query keys of a team's detail: the team settings read it, Team Management patches it in place, and
 * invitations, live events and the settings screen refresh it (STYLE §9).
 */
export const teamKeys = {
  all: ['teams'] as const,
  details: () => [...teamKeys.all, 'detail'] as const,
  detail: (id: number) => [...teamKeys.details(), id] as const,
  timeZones: () => ['timeZones'] as const,
};

/** What a team change touches: its detail and the session (TeamsRender carries name, role, status). */
export function invalidateTeams(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: teamKeys.all }),
    queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  ]);
}
