import type { Db } from '../../db/index.js';
import { StatsAggregator } from './aggregator.js';
import { pruneStats } from './retention.js';
import { historyMinutes } from './simulator.js';

/**
 * Writes `days` of simulated history for the keys straight into the tables through the aggregation
 * code (minutes aggregated in memory, flushed with their rollups), up to `gapMinutes` before the
 * current minute: 15 by default, so a backfill next to a running server never meets its live ingest;
 * the demo, which starts its live viewers only afterwards, asks for none. Minutes past their retention
 * are then pruned; the rollups keep them.
 */
export async function backfillHistory(
  db: Db,
  keys: ReadonlyArray<{ id: number; peak: number }>,
  days: number,
  nowMs: number,
  seed = 1,
  gapMinutes = 15,
): Promise<{ minutes: number }> {
  const now = Math.floor(nowMs / 1000);
  const to = now - (now % 60) - gapMinutes * 60;
  const from = to - days * 86_400;
  let minutes = 0;
  // A day at a time keeps memory flat.
  for (let dayStart = from; dayStart < to; dayStart += 86_400) {
    const agg = new StatsAggregator(db, () => nowMs, {
      error: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`),
    });
    for (const m of historyMinutes(keys, dayStart, Math.min(to, dayStart + 86_400), seed + dayStart)) {
      agg.addMinute(m.keyId, m.minute, m.values);
      minutes++;
    }
    await agg.flush();
  }
  await pruneStats(db, nowMs);
  return { minutes };
}
