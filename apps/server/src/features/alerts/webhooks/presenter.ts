import type { TAlertDelivery, TAlertEventType } from '@tlprt/contract';
import type { AttemptRow, DeliveryRow } from './delivery-queries.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** A delivery as the delivery log shows it, with its attempts (oldest first). */
export function presentDelivery(row: DeliveryRow, attempts: readonly AttemptRow[]): TAlertDelivery {
  const state = row.state as TAlertDelivery['state'];
  return {
    id: row.id,
    type: row.type as TAlertEventType,
    createdAt: iso(row.created_at),
    state,
    nextAttemptAt: state === 'pending' && row.next_attempt_at !== null ? iso(row.next_attempt_at) : null,
    attempts: attempts.map((a) => ({
      at: iso(a.at),
      status: a.status,
      durationMs: a.duration_ms,
      error: a.error,
    })),
  };
}

/** Deliveries with their attempts, from the two queries of the log (never one query per delivery). */
export function presentDeliveries(
  rows: readonly DeliveryRow[],
  attempts: readonly AttemptRow[],
): TAlertDelivery[] {
  const byDelivery = new Map<string, AttemptRow[]>();
  for (const a of attempts) {
    const list = byDelivery.get(a.delivery_id);
    if (list) list.push(a);
    else byDelivery.set(a.delivery_id, [a]);
  }
  return rows.map((row) => presentDelivery(row, byDelivery.get(row.id) ?? []));
}
