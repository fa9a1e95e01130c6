import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';

/** PLACEHOLDER (issue 38, engine part): POST /api/v1/teams/:teamId/alerts/preview. */
export function alertPreviewRoutes(_ctx: AppContext): FastifyPluginAsync {
  return async () => {};
}
