import { type InfiniteData, type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import type { TTeamListItem, ZTeamDetailResponse, ZTeamSearchResponse } from '@tlprt/contract';
import type { z } from 'zod';
import { teamKeys } from '../../platform/queries/teams';
import { teamManagementApi } from './api';
import { type Filters, searchRequest } from './filters';

type Page = z.infer<typeof ZTeamSearchResponse>;
type DetailResponse = z.infer<typeof ZTeamDetailResponse>;

export const teamManagementKeys = {
  all: ['team-management'] as const,
  search: (filters: Filters, limit: number) => [...teamManagementKeys.all, 'search', filters, limit] as const,
};

/** The infinite team list: page after page while fewer than `pagination.total` are loaded. */
export function useTeamSearch(filters: Filters, limit: number, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: teamManagementKeys.search(filters, limit),
    queryFn: ({ pageParam, signal }) =>
      teamManagementApi.search(searchRequest(filters, pageParam, limit), signal),
    initialPageParam: 1,
    getNextPageParam: (last: Page, all: Page[]) =>
      all.reduce((n, p) => n + p.data.length, 0) < last.pagination.total && last.data.length > 0
        ? all.length + 1
        : undefined,
    enabled,
  });
}

/** Changes one team in every cached page (after a star or tag change), keeping the scroll position. */
export function patchTeam(queryClient: QueryClient, id: number, patch: Partial<TTeamListItem>): void {
  queryClient.setQueriesData<InfiniteData<Page>>({ queryKey: teamManagementKeys.all }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            data: p.data.map((t) => (t.id === id ? { ...t, ...patch } : t)),
          })),
        }
      : data,
  );
  // The Team settings of that team (a supervisor working in it) show its tags too.
  if (patch.tags) {
    const tags = patch.tags;
    queryClient.setQueryData<DetailResponse>(teamKeys.detail(id), (r) =>
      r ? { ...r, data: { ...r.data, tags } } : r,
    );
  }
}
