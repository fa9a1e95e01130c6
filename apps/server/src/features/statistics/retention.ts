import type { Db } from '../../db/index.js';
import { deleteRowsBefore } from './retention-queries.js';
import { BLOCK_SPAN_S, RETENTION_S } from './tables.js';

/** Each table with its time column and how long it is kept; team totals go with the rows they total,
 *  and a block with the last of its points. */
const KEPT = [
  ['stats_minute', 'minute', RETENTION_S.minute],
  ['stats_team_minute', 'minute', RETENTION_S.minute],
  ['stats_minute_blocks', 'start', RETENTION_S.minute + BLOCK_SPAN_S.minute],
  ['stats_team_minute_blocks', 'start', RETENTION_S.minute + BLOCK_SPAN_S.minute],
  ['stats_20m', 'bucket', RETENTION_S.twenty],
  ['stats_team_20m', 'bucket', RETENTION_S.twenty],
  ['stats_20m_blocks', 'start', RETENTION_S.twenty + BLOCK_SPAN_S.twenty],
  ['stats_hour', 'bucket', RETENTION_S.hour],
  ['stats_team_hour', 'bucket', RETENTION_S.hour],
  ['stats_hour_blocks', 'start', RETENTION_S.hour + BLOCK_SPAN_S.hour],
  ['stats_minute_sessions', 'minute', RETENTION_S.sessions],
  ['stats_breakdown_hour', 'bucket', RETENTION_S.twenty],
  ['stats_team_breakdown_hour', 'bucket', RETENTION_S.twenty],
  ['stats_breakdown_day', 'bucket', RETENTION_S.hour],
  ['stats_team_breakdown_day', 'bucket', RETENTION_S.hour],
] as const;

/** Deletes what docs/DESIGN.md §2's retention no longer keeps, as of `nowMs`. Answers the rows deleted per table. */
export async function pruneStats(db: Db, nowMs: number): Promise<Record<string, number>> {
  const now = Math.floor(nowMs / 1000);
  const deleted: Record<string, number> = {};
  for (const [table, time, keep] of KEPT)
    deleted[table] = await deleteRowsBefore(db, table, time, now - keep);
  return deleted;
}
