import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TCreateTeamTokenRequest } from '@tlprt/contract';
import { teamTokensApi } from './api';
import { teamTokenKeys } from './queries';

export function useCreateTeamToken(teamId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateTeamTokenRequest) => teamTokensApi.create(teamId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamTokenKeys.list(teamId) }),
  });
}

/** Refreshes the list whatever the answer: a 404 means another admin revoked it already. */
export function useRevokeTeamToken(teamId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => teamTokensApi.revoke(teamId, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamTokenKeys.list(teamId) }),
  });
}
