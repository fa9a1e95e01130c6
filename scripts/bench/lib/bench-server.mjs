// A server for the HTTP benches, run as its own process (a child of the bench) so that the load
// generator and the bench's bookkeeping never share its CPU or heap. `node bench-server.mjs app` builds
// the real server from apps/server/dist on a throwaway SQLite database, as `npm run serve` does (the
// production logger included: its lines go to the child's stdout, which the bench discards), with keys
// seeded by the app's own code; `node bench-server.mjs bare` is the ceiling: a Fastify 5 app with one
// POST route that parses JSON and answers 202 `{}`, no logging. Either tells its parent
// {ready, port, origin, customerOrigin, keys} over IPC and then answers {rss, cpuUs, ...} to 'rss' until it is sent 'stop'.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerParent } from './child.mjs';
import { BENCH_CUSTOMER_HOST, seedBenchTeam } from './common.mjs';

const mode = process.argv[2];
const keyCount = Number(process.argv[3] ?? 10);
const PUBLIC_URL = 'http://bench.test';

async function bare() {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.post('/stats/v1/ingest', async (_req, reply) => reply.code(202).send({}));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, keys: [], cleanup: () => {} };
}

async function real() {
  const dist = new URL('../../../apps/server/dist/', import.meta.url);
  const { buildApp } = await import(new URL('app.js', dist).href);
  const { loadConfig } = await import(new URL('config.js', dist).href);
  const dir = mkdtempSync(join(tmpdir(), 'tlprt-bench-server-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    PUBLIC_URL,
    WEB_DIST: join(tmpdir(), 'tlprt-bench-no-web'),
    // A bench's own settings (the integrity bench: the demo stream on, no per-address limit in the way).
    ...JSON.parse(process.env.BENCH_SERVER_ENV ?? '{}'),
  });
  const app = await buildApp(config);
  const { keys } = await seedBenchTeam(app.ctx.db, { keys: keyCount });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    keys: keys.map((k) => k.keyHash),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
    extra: () => ({
      reportsReceived: app.stats.reportsReceived,
      seenBytes: app.stats.seen.usage.bytes,
      seenEvicted: app.stats.seen.usage.evicted,
      trackerSwarms: app.tracker.swarmCount(),
    }),
  };
}

const { app, keys, cleanup, extra } = mode === 'bare' ? await bare() : await real();
// `origin`: the dashboard's (its demo page); `customerOrigin`: a page of the team's verified domain.
answerParent(
  app,
  cleanup,
  { origin: PUBLIC_URL, customerOrigin: `https://${BENCH_CUSTOMER_HOST}`, keys },
  extra,
);
