import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { BatchWriter } from './aggregator.js';
import { StatsService } from './service.js';

export { ingestFastPath } from './ingest-http.js';
export { ensureBlockLayout } from './layout.js';
export { ingestRoutes, statsRoutes } from './routes.js';
export { openStatsStore } from './store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The statistics feature of this node (tests flush it; the demo feeds it). */
    stats: StatsService;
  }
}

/** Creates the node's statistics service, counts what its journal holds from the last run and starts
 *  its timers; its `stop()` (the last flush) is a step of the node's shutdown (app.ts). */
export async function createStats(
  app: FastifyInstance,
  ctx: AppContext,
  writer?: BatchWriter,
): Promise<StatsService> {
  const svc = new StatsService(ctx, writer);
  app.decorate('stats', svc);
  try {
    await svc.recover();
  } catch (err) {
    await svc.journal?.close();
    throw err;
  }
  svc.start();
  return svc;
}
