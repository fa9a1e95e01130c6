import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TUpdateUserRequest } from '@tlprt/contract';
import { api } from '../../api/client';
import { sessionKeys } from '../session/queries';

/** PUT /api/v1/user/{id}; the answer is the fresh user, so the session cache takes it as is. */
export function useUpdateUser(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateUserRequest) => api.updateUser(userId, { id: userId, ...body }),
    onSuccess: (response) => queryClient.setQueryData(sessionKeys.check(), response),
  });
}
