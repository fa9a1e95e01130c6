import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../../context.js';
import type { WebhookSender } from './sender.js';

/** PLACEHOLDER (issue 38, webhooks part): send test, delivery log. */
export function alertWebhookRoutes(_ctx: AppContext, _webhooks: WebhookSender): FastifyPluginAsync {
  return async () => {};
}
