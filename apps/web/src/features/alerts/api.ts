import { ENDPOINTS, type TAlertPreviewRequest, type TAlertRuleInput } from '@tlprt/contract';
import { request } from '../../platform/api/client';

const E = ENDPOINTS.alerts;

/** A team's alert rules, their deliveries and the form's preview (docs/DESIGN.md §13). */
export const alertsApi = {
  list: (teamId: number, signal?: AbortSignal) => request(E.list, { params: { teamId }, signal }),
  create: (teamId: number, body: TAlertRuleInput) => request(E.create, { params: { teamId }, body }),
  update: (teamId: number, id: number, body: TAlertRuleInput) =>
    request(E.update, { params: { teamId, id }, body }),
  remove: (teamId: number, id: number) => request(E.remove, { params: { teamId, id } }),
  test: (teamId: number, id: number) => request(E.test, { params: { teamId, id } }),
  rotateSecret: (teamId: number, id: number) => request(E.rotateSecret, { params: { teamId, id } }),
  deliveries: (teamId: number, id: number, signal?: AbortSignal) =>
    request(E.deliveries, { params: { teamId, id }, signal }),
  // No popup: a preview that fails leaves the form usable; the chart says there is nothing to show.
  preview: (teamId: number, body: TAlertPreviewRequest, signal?: AbortSignal) =>
    request(E.preview, { params: { teamId }, body, signal, popups: false }),
};
