import { type QueryClient, useQuery } from '@tanstack/react-query';
import { ENDPOINTS } from '@tlprt/contract';
import { request } from '../api/client';

// The domains screens, the statistics screen and the live reactions read or refresh the same cache
// entries, so their keys live below all of them.
export const domainsRoot = ['domains'] as const;
export const keysRoot = ['keys'] as const;

/** POST /v1/domains/{teamId}: every live domain, the drafts and the promoted ones, each with its keys. */
export function useDomains(teamId: number | null) {
  return useQuery({
    queryKey: [...domainsRoot, 'list', teamId ?? 0],
    queryFn: ({ signal }) =>
      request(ENDPOINTS.domains.list, { params: { teamId: teamId as number }, signal }),
    enabled: teamId !== null,
  });
}

/** "After most changes, domains and keys are refetched" (spec §7). */
export function invalidateDomainsAndKeys(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: domainsRoot }),
    queryClient.invalidateQueries({ queryKey: keysRoot }),
  ]);
}
