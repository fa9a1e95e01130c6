import { useMutation, useQueryClient } from '@tanstack/react-query';
import { linkBases, type TCreateTeamRequest, type TUpdateTeamRequest } from '@tlprt/contract';
import { invalidateTeams } from '../../platform/queries/teams';
import { teamsApi } from './api';

/** Confirm/cancel link bases for the deletion and suspension mails (always this dashboard's origin). */
function deletePaths() {
  const b = linkBases(window.location.origin);
  return { confirmPath: b.deleteTeamConfirm, cancelPath: b.deleteTeamCancel };
}
function suspendPaths() {
  const b = linkBases(window.location.origin);
  return { confirmPath: b.suspendTeamConfirm, cancelPath: b.suspendTeamCancel };
}

/** A mutation whose success refreshes the teams and the session. */
function useTeamMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => invalidateTeams(queryClient) });
}

export const useCreateTeam = () => useTeamMutation((body: TCreateTeamRequest) => teamsApi.create(body));
export const useUpdateTeam = (id: number) =>
  useTeamMutation((body: TUpdateTeamRequest) => teamsApi.update(id, body));
export const useSetTimeZone = (id: number) => useTeamMutation((tz: number) => teamsApi.setTimeZone(id, tz));
export const useSetVersion = (id: number) => useTeamMutation((v: number) => teamsApi.setVersion(id, v));
export const useSetRole = (id: number) =>
  useTeamMutation(({ userId, role }: { userId: number; role: number }) => teamsApi.setRole(id, userId, role));
export const useRemoveMember = (id: number) =>
  useTeamMutation((userId: number) => teamsApi.removeMember(id, userId));
export const useLeaveTeam = (id: number) =>
  useTeamMutation((password: string) => teamsApi.leave(id, password));
export const useDeleteLock = (id: number) =>
  useTeamMutation((password: string) => teamsApi.deleteLock(id, { ...deletePaths(), password }));
export const useDeleteResend = (id: number) =>
  useTeamMutation(() => teamsApi.deleteResend(id, deletePaths()));
export const useDeleteCancel = (id: number) => useTeamMutation(() => teamsApi.deleteCancel(id));
export const useSuspend = (id: number) =>
  useTeamMutation((name: string) => teamsApi.suspend(id, { name, ...suspendPaths() }));
export const useSuspendResend = (id: number) =>
  useTeamMutation(() => teamsApi.suspendResend(id, suspendPaths()));
export const useSuspendRevoke = (id: number) => useTeamMutation(() => teamsApi.suspendRevoke(id));
export const useToggleFavourite = () => useTeamMutation((id: number) => teamsApi.favourite(id));
