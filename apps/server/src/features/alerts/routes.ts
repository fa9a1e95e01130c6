import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';

/** PLACEHOLDER (issue 38, rules part): list, create, update, delete, rotate secret. */
export function alertRoutes(_ctx: AppContext): FastifyPluginAsync {
  return async () => {};
}
