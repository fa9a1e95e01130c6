import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import type { TAlertPreviewRequest } from '@tlprt/contract';
import { alertsApi } from './api';

/** Query keys of the alerts (STYLE §9): everything of one team sits under `team(teamId)`. */
export const alertKeys = {
  all: ['alerts'] as const,
  team: (teamId: number) => [...alertKeys.all, teamId] as const,
  list: (teamId: number) => [...alertKeys.team(teamId), 'list'] as const,
  deliveriesOf: (teamId: number) => [...alertKeys.team(teamId), 'deliveries'] as const,
  deliveries: (teamId: number, id: number) => [...alertKeys.deliveriesOf(teamId), id] as const,
  preview: (teamId: number, body: TAlertPreviewRequest | null) =>
    [...alertKeys.team(teamId), 'preview', body] as const,
};

/** GET /api/v1/teams/{teamId}/alerts (every member). */
export function useAlerts(teamId: number) {
  return useQuery({
    queryKey: alertKeys.list(teamId),
    queryFn: ({ signal }) => alertsApi.list(teamId, signal),
    select: (r) => r.data,
  });
}

/** A rule's delivery log, read only while it is open. */
export function useDeliveries(teamId: number, id: number, enabled: boolean) {
  return useQuery({
    queryKey: alertKeys.deliveries(teamId, id),
    queryFn: ({ signal }) => alertsApi.deliveries(teamId, id, signal),
    enabled,
    staleTime: 0,
    select: (r) => r.data,
  });
}

/** The form's preview of the last 24 hours; null: the fields do not make a valid question yet. */
export function useAlertPreview(teamId: number, body: TAlertPreviewRequest | null) {
  return useQuery({
    queryKey: alertKeys.preview(teamId, body),
    queryFn: ({ signal }) => alertsApi.preview(teamId, body as TAlertPreviewRequest, signal),
    enabled: body !== null,
    // The last answer stays drawn while the next question is asked.
    placeholderData: keepPreviousData,
    select: (r) => r.data.points,
  });
}

/** What a change of the team's rules makes stale (live event 110, every mutation): the list and the
 *  delivery logs; the previews read statistics, which a rule does not change. */
export function invalidateAlerts(queryClient: QueryClient, teamId: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: alertKeys.list(teamId) }),
    queryClient.invalidateQueries({ queryKey: alertKeys.deliveriesOf(teamId) }),
  ]);
}
