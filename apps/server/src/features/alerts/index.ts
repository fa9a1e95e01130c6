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
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Tests run the evaluator and the sender at chosen times through it. */
    alerts: Alerts;
  }
}

/** Creates the node's alert evaluator and webhook sender, starts their timers, stops them on close. */
export function createAlerts(app: FastifyInstance, ctx: AppContext): Alerts {
  const webhooks = new WebhookSender(ctx);
  const evaluator = new AlertEvaluator(ctx, webhooks);
  const alerts: Alerts = { evaluator, webhooks };
  app.decorate('alerts', alerts);
  webhooks.start();
  evaluator.start();
  // Registered after the database's onClose: runs before it (hooks close in reverse order).
  app.addHook('onClose', async () => {
    await evaluator.stop();
    await webhooks.stop();
  });
  return alerts;
}
