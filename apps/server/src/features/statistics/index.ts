import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { BatchWriter } from './aggregator.js';
import { StatsService } from './service.js';

export { ingestFastPath } from './ingest-http.js';
export { ensureBlockLayout } from './layout.js';
export { ingestRoutes, statsRoutes } from './routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The statistics feature of this node (tests flush it; the demo feeds it). */
    stats: StatsService;
  }
}

/** Creates the node's statistics service, counts what its journal holds from the last run, starts its
 *  timers and flushes on close. */
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
  // Registered after the database's onClose: runs before it (hooks close in reverse order).
  app.addHook('onClose', async () => svc.stop());
  return svc;
}
