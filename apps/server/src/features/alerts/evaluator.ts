import type { AppContext } from '../../context.js';
import type { WebhookSender } from './webhooks/sender.js';

/** PLACEHOLDER (issue 38, engine part): evaluates every rule once per closed minute. */
export class AlertEvaluator {
  constructor(
    readonly ctx: AppContext,
    readonly webhooks: WebhookSender,
  ) {}
  /** Evaluates the windows ending at the last closed minute before `now` (epoch ms). */
  async evaluate(_now: number = this.ctx.now()): Promise<void> {}
  start(): void {}
  async stop(): Promise<void> {}
}
