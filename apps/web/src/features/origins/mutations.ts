import { useMutation, useQueryClient } from '@tanstack/react-query';
import { originsApi } from './api';
import { originKeys } from './queries';

function useOriginMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: originKeys.all }),
  });
}

export const useCreateOrigin = (teamId: number) =>
  useOriginMutation((name: string) => originsApi.create(teamId, name));
export const useToggleOrigin = (teamId: number) =>
  useOriginMutation((id: number) => originsApi.toggle(teamId, id));
export const useDeleteOrigin = (teamId: number) =>
  useOriginMutation((id: number) => originsApi.remove(teamId, id));
export const useVerifyOrigin = (teamId: number) =>
  useOriginMutation((id: number) => originsApi.verify(teamId, id));
