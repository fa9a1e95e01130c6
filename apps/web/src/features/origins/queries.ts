import { useQuery } from '@tanstack/react-query';
import { originsApi } from './api';

export const originKeys = {
  all: ['origins'] as const,
  list: (teamId: number) => [...originKeys.all, 'list', teamId] as const,
};

/** GET /v1/origins/{teamId}. */
export function useOrigins(teamId: number | null) {
  return useQuery({
    queryKey: originKeys.list(teamId ?? 0),
    queryFn: ({ signal }) => originsApi.list(teamId as number, signal),
    enabled: teamId !== null,
    select: (r) => r.data,
  });
}
