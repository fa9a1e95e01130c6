import { ENDPOINTS, MSG, MSG_ALERTS, type TAlertPreview, type ZAlertPreviewRequest } from '@tlprt/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../http/errors.js';
import { route, teamAccess } from '../../http/route.js';
import { PREVIEW_POINTS, previewEnds, previewPoints } from './window.js';
import { foreignKeys, minuteSums } from './window-queries.js';

/** The form's preview (docs/DESIGN.md §13): the value a rule on these keys, metric and window would have seen
 *  every 10 minutes of the last 24 hours, from one read of the stored minutes (kept 2 days). */
export async function previewAlert(
  ctx: AppContext,
  teamId: number,
  req: z.output<typeof ZAlertPreviewRequest>,
  nowMs: number = ctx.now(),
): Promise<TAlertPreview> {
  const keys = [...new Set(req.keys)];
  if ((await foreignKeys(ctx.db, teamId, keys)).length)
    throw badRequest(MSG.validationFailed, { keys: MSG_ALERTS.unknownKey });
  const ends = previewEnds(Math.floor(nowMs / 1000));
  const first = (ends[0] ?? 0) - req.windowMinutes * 60;
  const last = (ends[PREVIEW_POINTS - 1] ?? 0) - 60;
  const perMinute = await minuteSums(ctx, teamId, keys, first, last);
  return { points: previewPoints(req, perMinute, ends) };
}

/** POST /api/v1/teams/:teamId/alerts/preview. */
export function alertPreviewRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, ENDPOINTS.alerts.preview, async (req) => ({
      message: MSG.ok,
      data: await previewAlert(ctx, teamAccess(req).team.id, req.body),
    }));
  };
}
