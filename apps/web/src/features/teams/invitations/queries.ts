import { useQuery } from '@tanstack/react-query';
import { InviteStatus } from '@tlprt/contract';
import { invitationsApi } from './api';

export const invitationKeys = {
  all: ['invitations'] as const,
  mine: () => [...invitationKeys.all, 'mine'] as const,
};

/** POST /v1/user/invitation/search: the signed-in user's invitations; only pending ones are shown. */
export function useMyInvitations() {
  return useQuery({
    queryKey: invitationKeys.mine(),
    queryFn: invitationsApi.mine,
    select: (r) => r.data.filter((i) => i.status === InviteStatus.Pending),
  });
}
