import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { AlertEvaluator } from './evaluator.js';
import { WebhookSender } from './webhooks/sender.js';

export { alertPreviewRoutes } from './preview-routes.js';
export { alertRoutes } from './routes.js';
export { alertWebhookRoutes } from './webhooks/routes.js';

/** The alerts of this node: the evaluator of closed minutes and the webhook outbox's sender. */
export interface Alerts {
  evaluator: AlertEvaluator;
  webhooks: WebhookSender;
  /** Stops both timers, waiting for a round under way (a step of the node's shutdown, app.ts). */
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Tests run the evaluator and the sender at chosen times through it. */
    alerts: Alerts;
  }
}

/** Creates the node's alert evaluator and webhook sender and starts their timers. */
export function createAlerts(app: FastifyInstance, ctx: AppContext): Alerts {
  const webhooks = new WebhookSender(ctx);
  const evaluator = new AlertEvaluator(ctx, webhooks);
  const alerts: Alerts = {
    evaluator,
    webhooks,
    async stop() {
      await evaluator.stop();
      await webhooks.stop();
    },
  };
  app.decorate('alerts', alerts);
  webhooks.start();
  evaluator.start();
  return alerts;
}
