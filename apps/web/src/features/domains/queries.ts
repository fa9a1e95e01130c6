import { type QueryClient, useQuery } from '@tanstack/react-query';
import { keyKeys } from '../keys/queries';
import { domainsApi } from './api';

/** Query keys of the domains feature: mutations and live events (60, 62, 90–92) invalidate these. */
const domainKeys = {
  all: ['domains'] as const,
  list: (teamId: number) => [...domainKeys.all, 'list', teamId] as const,
  instructions: (teamId: number, id: number) => [...domainKeys.all, 'instructions', teamId, id] as const,
  dictionaries: () => ['dictionaries'] as const,
};

/** POST /v1/domains/{teamId}: every live domain, the drafts and the promoted ones, each with its keys. */
export function useDomains(teamId: number | null) {
  return useQuery({
    queryKey: domainKeys.list(teamId ?? 0),
    queryFn: ({ signal }) => domainsApi.list(teamId as number, signal),
    enabled: teamId !== null,
  });
}

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

/** "After most changes, domains and keys are refetched" (spec §7). */
export function invalidateDomainsAndKeys(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: domainKeys.all }),
    queryClient.invalidateQueries({ queryKey: keyKeys.all }),
  ]);
}
