import { afterAll, beforeAll } from 'vitest';
import { buildDomain, buildKey, buildTeam } from '../factories.js';
import { Api } from './http.js';
import { manualClock, startServer, type TestServer } from './server.js';

/** 45.5 minutes into the current hour: the 20-minute bucket hh:40 and the hour hh:00 hold the recent
 *  minutes; M is the minute before NOW. */
export const HOUR = Math.floor(Date.now() / 3_600_000) * 3600;
export const NOW = HOUR + 45 * 60 + 30;
export const M = NOW - 30;

/**
 * A server at NOW for the statistics tests of one file, flushing only when a test asks, started before
 * them and closed after. `env` adds to it (TRUST_PROXY, say).
 */
export function statsServer(env: Record<string, string> = {}) {
  const ctx = { server: undefined as unknown as TestServer, api: undefined as unknown as Api };
  beforeAll(async () => {
    ctx.server = await startServer({
      env: { STATS_INGEST_FLUSH_MS: '600000', ...env },
      deps: { now: manualClock(NOW * 1000) },
    });
    ctx.api = new Api(ctx.server.base);
  });
  afterAll(async () => {
    await ctx.server?.close();
  });
  return ctx;
}

/** A team with a verified, promoted domain and `n` active keys, and its owner's client. */
export async function statsTeam(ctx: ReturnType<typeof statsServer>, n = 1) {
  const { server, api } = ctx;
  const team = await buildTeam(server.app);
  const domain = await buildDomain(server.app, team.id, { promoted: true });
  const keys = [];
  for (let i = 0; i < n; i++) keys.push(await buildKey(server.app, team.id, domain.id));
  return { team, keys, hashes: keys.map((k) => k.keyHash), as: api.as(team.owner.token) };
}
