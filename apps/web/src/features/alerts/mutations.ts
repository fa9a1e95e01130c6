import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAlertRuleInput } from '@tlprt/contract';
import { alertsApi } from './api';
import { invalidateAlerts } from './queries';

/** Each mutation refreshes the team's rules whatever the answer: a 404 means another manager deleted
 *  the rule already. */
function useAlertMutation<V, R>(teamId: number, fn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => invalidateAlerts(queryClient, teamId),
  });
}

/** Create (id null) or replace a rule. */
export const useSaveAlert = (teamId: number) =>
  useAlertMutation(teamId, ({ id, body }: { id: number | null; body: TAlertRuleInput }) =>
    id === null ? alertsApi.create(teamId, body) : alertsApi.update(teamId, id, body),
  );
export const useDeleteAlert = (teamId: number) =>
  useAlertMutation(teamId, (id: number) => alertsApi.remove(teamId, id));
export const useTestAlert = (teamId: number) =>
  useAlertMutation(teamId, (id: number) => alertsApi.test(teamId, id));
export const useRotateSecret = (teamId: number) =>
  useAlertMutation(teamId, (id: number) => alertsApi.rotateSecret(teamId, id));
