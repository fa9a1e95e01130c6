import type { TAlertEventType, TAlertMetric, TAlertOp } from '@tlprt/contract';
import type { AppContext } from '../../../context.js';
import type { Db } from '../../../db/index.js';

/** What a delivery's body says of its rule. */
export interface DeliveryRule {
  id: number;
  teamId: number;
  name: string;
  metric: TAlertMetric;
  op: TAlertOp;
  threshold: number;
  windowMinutes: number;
}
export interface DeliveryEvent {
  type: TAlertEventType;
  value: number | null;
  /** Epoch ms; null when not applicable (a test). */
  openedAt: number | null;
  resolvedAt: number | null;
}

/** PLACEHOLDER (issue 38, webhooks part): the outbox of signed webhook deliveries. */
export class WebhookSender {
  constructor(readonly ctx: AppContext) {}
  /** Adds a delivery in the caller's transaction (it exists only if that commits); its id. */
  async enqueue(_trx: Db, _rule: DeliveryRule, _event: DeliveryEvent, _now: number): Promise<string> {
    return '';
  }
  /** Sends every delivery due at `now` (epoch ms) that no other node holds. */
  async runDue(_now: number = this.ctx.now()): Promise<void> {}
  start(): void {}
  async stop(): Promise<void> {}
}
