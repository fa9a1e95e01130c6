import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateDomainsAndKeys } from '../../platform/queries/domains';
import { domainsApi } from './api';

/** A mutation whose success refetches domains and keys. */
export function useDomainsMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => invalidateDomainsAndKeys(queryClient) });
}

export const useCreateDomain = (teamId: number) =>
  useDomainsMutation((url: string) => domainsApi.create(teamId, url));
export const useVerifyDomain = (teamId: number) =>
  useDomainsMutation(({ id, method, inx }: { id: number; method: number; inx: number }) =>
    domainsApi.verify(teamId, id, method, inx),
  );
export const usePromoteDomain = (teamId: number) =>
  useDomainsMutation((id: number) => domainsApi.promote(teamId, id));
export const useToggleDomain = (teamId: number) =>
  useDomainsMutation((id: number) => domainsApi.toggleActive(teamId, id));
export const useDeleteDomain = (teamId: number) =>
  useDomainsMutation((id: number) => domainsApi.remove(teamId, id));
export const useSuspendDomain = (teamId: number) =>
  useDomainsMutation((id: number) => domainsApi.suspend(teamId, id));
export const useSetPlainHttp = (teamId: number) =>
  useDomainsMutation(({ id, plainHttp }: { id: number; plainHttp: boolean }) =>
    domainsApi.setPlainHttp(teamId, id, plainHttp),
  );
