import type { Db } from '../../db/index.js';
import { RETENTION_S, statsDb } from './tables.js';

/** Deletes what DESIGN §2's retention no longer keeps, as of `nowMs`. Answers the rows deleted. */
export async function pruneStats(db: Db, nowMs: number): Promise<Record<string, number>> {
  const now = Math.floor(nowMs / 1000);
  const s = statsDb(db);
  const del = async (run: () => Promise<{ numDeletedRows: bigint }[]>) =>
    Number((await run())[0]?.numDeletedRows ?? 0);
  return {
    minute: await del(() =>
      s
        .deleteFrom('stats_minute')
        .where('minute', '<', now - RETENTION_S.minute)
        .execute(),
    ),
    twenty: await del(() =>
      s
        .deleteFrom('stats_20m')
        .where('bucket', '<', now - RETENTION_S.twenty)
        .execute(),
    ),
    hour: await del(() =>
      s
        .deleteFrom('stats_hour')
        .where('bucket', '<', now - RETENTION_S.hour)
        .execute(),
    ),
    sessions: await del(() =>
      s
        .deleteFrom('stats_minute_sessions')
        .where('minute', '<', now - RETENTION_S.sessions)
        .execute(),
    ),
  };
}
