import { BREAKDOWN_DIMENSIONS, POINT_VALUES } from '@tlprt/contract';
import type { Db } from '../../db/index.js';
import { StatsAggregator } from './aggregator.js';
import { BREAKDOWN_HOUR, type BreakdownRow, writeBreakdowns } from './breakdown-queries.js';
import { lockFlushes } from './queries.js';
import { pruneStats } from './retention.js';
import { DEMO_AUDIENCE, DEMO_NETWORKS, historyMinutes } from './simulator.js';
import { PEAK_COLUMNS, statsDb } from './tables.js';

const PEAKS = new Set(PEAK_COLUMNS.map((p) => p.index));

/** An hour of a key shared among the demo audience's names of every dimension by their weights. */
function hourBreakdowns(keyId: number, bucket: number, hour: Float64Array): BreakdownRow[] {
  const rows: BreakdownRow[] = [];
  BREAKDOWN_DIMENSIONS.forEach((by, dim) => {
    const list = by === 'network' ? DEMO_NETWORKS : DEMO_AUDIENCE[by];
    const total = list.reduce((n, [, w]) => n + w, 0);
    for (const [name, weight] of list) {
      const share = weight / total;
      const values = hour.map((v) => Math.round(v * share));
      rows.push({ keyId, bucket, dim, name, values });
    }
  });
  return rows;
}

/**
 * Writes `days` of simulated history for the keys straight into the tables through the aggregation
 * code (minutes aggregated in memory, flushed with their rollups; each hour's breakdowns shared among
 * the demo audience's streams, countries, networks, browsers and systems), up to `gapMinutes` before the
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
    const hours = new Map<string, { keyId: number; bucket: number; values: Float64Array }>();
    for (const m of historyMinutes(keys, dayStart, Math.min(to, dayStart + 86_400), seed + dayStart)) {
      agg.addMinute(m.keyId, m.minute, m.values);
      minutes++;
      const bucket = m.minute - (m.minute % BREAKDOWN_HOUR);
      let h = hours.get(`${m.keyId}:${bucket}`);
      if (!h) {
        h = { keyId: m.keyId, bucket, values: new Float64Array(POINT_VALUES) };
        hours.set(`${m.keyId}:${bucket}`, h);
      }
      for (let i = 0; i < POINT_VALUES; i++) {
        const v = m.values[i] ?? 0;
        h.values[i] = PEAKS.has(i) ? Math.max(h.values[i] ?? 0, v) : (h.values[i] ?? 0) + v;
      }
    }
    await agg.flush();
    const rows = [...hours.values()].flatMap((h) => hourBreakdowns(h.keyId, h.bucket, h.values));
    await statsDb(db)
      .transaction()
      .execute(async (trx) => {
        await lockFlushes(trx);
        await writeBreakdowns(trx, rows);
      });
  }
  await pruneStats(db, nowMs);
  return { minutes };
}
