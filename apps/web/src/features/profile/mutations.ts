import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TUpdateUserRequest } from '@tlprt/contract';
import { api } from '../../platform/api/client';
import { sessionKeys } from '../../platform/session/queries';
import { profileApi } from './api';

/** PUT /api/v1/user/{id}; the answer is the fresh user, so the session cache takes it as is. */
export function useUpdateUser(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateUserRequest) => api.updateUser(userId, { id: userId, ...body }),
    onSuccess: (response) => queryClient.setQueryData(sessionKeys.check(), response),
  });
}

/** Self-service mutations change the user row (statusChangeEmail, deleteProgress…): refresh the session. */
function useUserMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

export const useChangePassword = (userId: number) =>
  useUserMutation((body: { team_id?: number; password: string; new_password: string; confirm: string }) =>
    profileApi.changePassword(userId, body),
  );
export const useChangeEmail = (userId: number) =>
  useUserMutation((body: { team_id?: number; email: string; password: string }) =>
    profileApi.changeEmail(userId, body),
  );
export const useChangeEmailResend = (userId: number) =>
  useUserMutation(() => profileApi.changeEmailResend(userId));
export const useChangeEmailRevoke = (userId: number) =>
  useUserMutation(() => profileApi.changeEmailRevoke(userId));
/** The deletion check is a question, not a change: nothing to invalidate. */
export const useDeleteInfo = (userId: number) =>
  useMutation({ mutationFn: () => profileApi.infoDelete(userId) });
export const useRequestDelete = (userId: number) =>
  useUserMutation((password: string) => profileApi.requestDelete(userId, password));
export const useDeleteResend = (userId: number) => useUserMutation(() => profileApi.deleteResend(userId));
export const useDeleteRevoke = (userId: number) => useUserMutation(() => profileApi.deleteRevoke(userId));
