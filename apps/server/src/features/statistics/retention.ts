import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { RETENTION_S } from './tables.js';

/** Each table with its time column and how long it is kept; team totals go with the rows they total. */
const KEPT = [
  ['stats_minute', 'minute', RETENTION_S.minute],
  ['stats_team_minute', 'minute', RETENTION_S.minute],
  ['stats_20m', 'bucket', RETENTION_S.twenty],
  ['stats_team_20m', 'bucket', RETENTION_S.twenty],
  ['stats_hour', 'bucket', RETENTION_S.hour],
  ['stats_team_hour', 'bucket', RETENTION_S.hour],
  ['stats_minute_sessions', 'minute', RETENTION_S.sessions],
] as const;

/** Deletes what DESIGN §2's retention no longer keeps, as of `nowMs`. Answers the rows deleted per table. */
export async function pruneStats(db: Db, nowMs: number): Promise<Record<string, number>> {
  const now = Math.floor(nowMs / 1000);
  const deleted: Record<string, number> = {};
  for (const [table, time, keep] of KEPT) {
    const r = await sql`delete from ${sql.table(table)} where ${sql.ref(time)} < ${now - keep}`.execute(db);
    deleted[table] = Number(r.numAffectedRows ?? 0);
  }
  return deleted;
}
