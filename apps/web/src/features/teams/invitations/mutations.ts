import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateTeams } from '../../../platform/queries/teams';
import { invitationsApi } from './api';
import { invitationKeys } from './queries';

function useInvitationMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
        invalidateTeams(queryClient),
      ]),
  });
}

export const useCreateInvitation = (teamId: number) =>
  useInvitationMutation(({ email, role }: { email: string; role: number }) =>
    invitationsApi.create(teamId, email, role),
  );
export const useResendInvitation = (teamId: number) =>
  useInvitationMutation((inviteId: number) => invitationsApi.resend(teamId, inviteId));
export const useRevokeInvitation = (teamId: number) =>
  useInvitationMutation((inviteId: number) => invitationsApi.cancel(teamId, inviteId));

/** Accept / decline from the profile block: the card shows its own outcome, so no popups here. */
export function useAnswerInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, inviteId, accept }: { teamId: number; inviteId: number; accept: boolean }) =>
      accept ? invitationsApi.accept(teamId, inviteId) : invitationsApi.cancel(teamId, inviteId, false),
    onSettled: () => invalidateTeams(queryClient),
  });
}
