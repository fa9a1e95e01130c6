import {
  ALERT_ENDPOINTS as E,
  LIMITS,
  MSG,
  MSG_ALERTS,
  type TAlertMetric,
  type TAlertOp,
} from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../../context.js';
import { badRequest, notFound } from '../../../http/errors.js';
import { route, teamAccess } from '../../../http/route.js';
import { attemptsOf, findTeamRule, latestDeliveries } from './delivery-queries.js';
import { presentDeliveries } from './presenter.js';
import type { WebhookSender } from './sender.js';

/** Send test and the delivery log of a rule (docs/DESIGN.md §13). */
export function alertWebhookRoutes(ctx: AppContext, webhooks: WebhookSender): FastifyPluginAsync {
  return async (app) => {
    route(app, E.test, async (req) => {
      const teamId = teamAccess(req).team.id;
      const rule = await findTeamRule(ctx.db, teamId, req.params.id);
      if (!rule) throw notFound(MSG_ALERTS.notFound);
      if (rule.webhook_url === null) throw badRequest(MSG_ALERTS.noWebhook);
      const data = await webhooks.sendTest({
        id: rule.id,
        teamId,
        name: rule.name,
        metric: rule.metric as TAlertMetric,
        op: rule.op as TAlertOp,
        threshold: rule.threshold,
        windowMinutes: rule.window_minutes,
      });
      return { message: data.state === 'delivered' ? MSG_ALERTS.testSent : MSG_ALERTS.testFailed, data };
    });

    route(app, E.deliveries, async (req) => {
      const teamId = teamAccess(req).team.id;
      const rule = await findTeamRule(ctx.db, teamId, req.params.id);
      if (!rule) throw notFound(MSG_ALERTS.notFound);
      const rows = await latestDeliveries(ctx.db, teamId, rule.id, LIMITS.alertDeliveriesShown);
      const attempts = await attemptsOf(
        ctx.db,
        teamId,
        rows.map((r) => r.id),
      );
      return { message: MSG.ok, data: presentDeliveries(rows, attempts) };
    });
  };
}
