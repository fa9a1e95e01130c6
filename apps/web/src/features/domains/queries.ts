import { useQuery } from '@tanstack/react-query';
import { domainsRoot } from '../../platform/queries/domains';
import { domainsApi } from './api';

/** Query keys of the domains feature: mutations and live events (60, 62, 90–92) invalidate these. */
const domainKeys = {
  all: domainsRoot,
  instructions: (teamId: number, id: number) => [...domainKeys.all, 'instructions', teamId, id] as const,
  dictionaries: () => ['dictionaries'] as const,
};

/** GET /v1/domains/instructions/{teamId}/{id}: the four copyable texts of one draft. */
export function useInstructions(teamId: number, id: number | null, enabled = true) {
  return useQuery({
    queryKey: domainKeys.instructions(teamId, id ?? 0),
    queryFn: ({ signal }) => domainsApi.instructions(teamId, id as number, signal),
    enabled: enabled && id !== null,
    staleTime: Number.POSITIVE_INFINITY,
    select: (r) => r.data,
  });
}

/** GET /api/dictionaries/45 (static: cached for the session). */
export function useDictionaries() {
  return useQuery({
    queryKey: domainKeys.dictionaries(),
    queryFn: ({ signal }) => domainsApi.dictionaries(signal),
    staleTime: Number.POSITIVE_INFINITY,
    select: (r) => r.data,
  });
}
