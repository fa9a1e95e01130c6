import { findTimeZone, zoneOffsetMinutes } from '@tlprt/contract';
import type { FastifyInstance } from 'fastify';
import { findTeamFacts } from '../features/statistics/queries.js';
import { backfillHistory } from './backfill.js';
import { findMembersTeam, listActiveKeysExcept } from './queries.js';
import { LiveSimulation } from './simulator.js';

/** Peak viewers of the demo keys, in order. */
const DEMO_PEAKS = [400, 150, 900, 250, 60];

/**
 * DEMO_SEED: 30 days of history for the demo team's active keys (once) and live simulated viewers fed
 * to this node's ingest every second until the server closes. Their evenings are in the team's time
 * zone. `days`: less history (tests).
 */
export async function startDemoTraffic(
  app: FastifyInstance,
  demoEmail: string,
  teamName: string,
  /** A key left to real players (the demo page's). */
  excludedKeyName: string,
  days = 30,
): Promise<void> {
  const { db, now, log } = app.ctx;
  const teamId = await findMembersTeam(db, demoEmail, teamName);
  if (teamId === undefined) return;
  const keys = await listActiveKeysExcept(db, teamId, excludedKeyName);
  const verdicts = await app.ctx.keys.resolve(keys.map((k) => k.key_hash));
  const active = keys.filter((k) => verdicts.get(k.key_hash)?.ok);
  if (active.length === 0) return;
  const has = (await app.ctx.statsStore.keysWithHistory(active.map((k) => k.id))).size > 0;
  // Each key keeps its own audience size, in the history and live alike, so the chart runs on
  // without a step at the moment the server started.
  const peaks = active.map((_, i) => DEMO_PEAKS[i % DEMO_PEAKS.length] ?? 100);
  // The audience's evenings are the team's (its time zone's offset today).
  const zone = findTimeZone((await findTeamFacts(db, teamId))?.time_zone_id ?? 0)?.name ?? 'UTC';
  const audience = { utcOffsetMin: zoneOffsetMinutes(zone, new Date(now())) };
  if (!has) {
    const t0 = Date.now();
    const { minutes } = await backfillHistory(
      app.ctx.statsStore,
      active.map((k, i) => ({ id: k.id, peak: peaks[i] ?? 100 })),
      days,
      now(),
      1,
      0,
      audience,
    );
    log.info({ minutes, ms: Date.now() - t0 }, `demo statistics: ${days} days of history written`);
  }
  const seed = Date.now() % 1_000_000;
  const sims = active.map((k, i) => new LiveSimulation([k.key_hash], peaks[i] ?? 100, seed + i, audience));
  // The history ends where the current minute begins: the live audience takes over from there.
  for (const sim of sims) sim.warmStart(now());
  const timer = setInterval(() => {
    const t = now();
    const reports = sims.flatMap((sim) => sim.tick(t));
    if (reports.length > 0) {
      const simulated = (id: string) => {
        for (const sim of sims) {
          const viewer = sim.viewerOf(id);
          if (viewer) return viewer;
        }
        return undefined;
      };
      app.stats
        .ingest(reports, { simulated })
        .catch((err: unknown) => log.warn({ err }, 'demo traffic failed'));
    }
  }, 1000);
  timer.unref();
  app.stats.onStop(() => clearInterval(timer));
}
