import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sessionKeys } from '../../platform/session/queries';
import { teamManagementApi } from './api';
import { patchTeam } from './queries';

/** Star toggle: the list item follows the answer; the sidebar's favourites (session) reload. */
export function useTeamStar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => teamManagementApi.favourite(id),
    onSuccess: (r) => {
      patchTeam(queryClient, r.data.team_id, { favourite: r.data.favourite });
      void queryClient.invalidateQueries({ queryKey: sessionKeys.all });
    },
  });
}

export function useTagAdd() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tag }: { id: number; tag: string }) => teamManagementApi.tagAdd(id, tag),
    onSuccess: (r) => patchTeam(queryClient, r.data.team_id, { tags: r.data.tags }),
  });
}

export function useTagRemove() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tag }: { id: number; tag: string }) => teamManagementApi.tagRemove(id, tag),
    onSuccess: (r) => patchTeam(queryClient, r.data.team_id, { tags: r.data.tags }),
  });
}
