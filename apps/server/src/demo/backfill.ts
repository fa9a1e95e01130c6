import { StatsAggregator } from '../features/statistics/aggregator.js';
import type { StatsStore } from '../features/statistics/store.js';
import { type AudienceOptions, DemoBreakdowns, historyMinutes } from './simulator.js';

/**
 * Writes `days` of simulated history for the keys straight into the tables through the aggregation
 * code (minutes aggregated in memory, flushed with their rollups; each hour's breakdowns by the demo
 * audience's streams, countries, networks, browsers and systems, as the simulator drew them), up to
 * `gapMinutes` before the current minute: 15 by default, so a backfill next to a running server never
 * meets its live ingest; the demo, which starts its live viewers only afterwards, asks for none.
 * Minutes past their retention are then pruned; the rollups keep them. `audience`: the team's time
 * zone, whose evenings have the most viewers.
 */
export async function backfillHistory(
  store: StatsStore,
  keys: ReadonlyArray<{ id: number; peak: number }>,
  days: number,
  nowMs: number,
  seed = 1,
  gapMinutes = 15,
  audience: AudienceOptions = {},
): Promise<{ minutes: number }> {
  const now = Math.floor(nowMs / 1000);
  const to = now - (now % 60) - gapMinutes * 60;
  const from = to - days * 86_400;
  let minutes = 0;
  // A day at a time keeps memory flat.
  for (let dayStart = from; dayStart < to; dayStart += 86_400) {
    const agg = new StatsAggregator(store, () => nowMs, {
      error: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`),
    });
    const breakdowns = new DemoBreakdowns();
    const day = historyMinutes(keys, dayStart, Math.min(to, dayStart + 86_400), seed + dayStart, {
      ...audience,
      breakdowns,
    });
    for (const m of day) {
      agg.addMinute(m.keyId, m.minute, m.values);
      minutes++;
    }
    await agg.flush();
    const rows = breakdowns.take();
    await store.writeBreakdowns(rows);
  }
  await store.prune(nowMs);
  return { minutes };
}
