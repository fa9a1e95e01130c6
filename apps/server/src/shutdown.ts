import type { FastifyInstance } from 'fastify';

/** One step of the node's shutdown: what it is (for the log) and what it runs. */
export type ShutdownStep = readonly [what: string, run: () => unknown];

/** The node's shutdown, in two ordered lists. */
export interface ShutdownPlan {
  /** Before the HTTP server closes, while it finishes the requests it has: stop taking new work. */
  stopTaking: readonly ShutdownStep[];
  /** Once every connection has ended: write out what is held and close, the database last. */
  close: readonly ShutdownStep[];
}

/** Runs `steps` one after the other; a step that fails is logged and the next ones still run, so one
 *  part's failure never keeps the statistics from their last flush or the database open. */
async function runInOrder(log: FastifyInstance['log'], steps: readonly ShutdownStep[]): Promise<void> {
  for (const [what, run] of steps) {
    try {
      await run();
    } catch (err) {
      log.error({ err }, `shutdown: ${what} failed`);
    }
  }
}

/**
 * The node's one ordered shutdown (`app.close()`, SIGTERM in main.ts): Fastify's preClose runs
 * `stopTaking`, its HTTP server then waits for its connections to end, and its onClose runs `close`.
 * The only hooks of either kind in the server, so the order is the lists' order, read in one place.
 */
export function shutdownInOrder(app: FastifyInstance, plan: ShutdownPlan): void {
  app.addHook('preClose', async () => runInOrder(app.log, plan.stopTaking));
  app.addHook('onClose', async () => runInOrder(app.log, plan.close));
}
