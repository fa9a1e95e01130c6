import { STORED_COLUMNS } from '@tlprt/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BREAKDOWN_HOUR, writeBreakdowns } from '../src/features/statistics/breakdown-queries.js';
import { upsertMinutes } from '../src/features/statistics/queries.js';
import { statsDb } from '../src/features/statistics/tables.js';
import { HOUR, M, statsServer, statsTeam } from './helpers/stats.js';

/**
 * A series stored in 4 bytes (plays, failures, startup buckets: an integer on PostgreSQL) whose stored
 * and fresh values add up past 2^31 saturates at the integer's largest value, on either database, as
 * the 8-byte series saturate at theirs. On PostgreSQL the addition itself overflowed the integer and
 * failed the whole flush ("integer out of range").
 */

const stats = statsServer();
const PLAYS = STORED_COLUMNS.findIndex((c) => c.column === 'plays');
const INT_MAX = 2_147_483_647;

function values(plays: number): Float64Array {
  const v = new Float64Array(STORED_COLUMNS.length);
  v[PLAYS] = plays;
  return v;
}

describe('a 4-byte series summed past its integer', () => {
  it('saturates in the stored minute instead of failing the flush', async () => {
    const { keys } = await statsTeam(stats);
    const keyId = keys[0]?.id ?? 0;
    const db = statsDb(stats.server.app.ctx.db);
    const row = { keyId, minute: M, values: values(2_000_000_000) };
    await db.transaction().execute((trx) => upsertMinutes(trx, [row]));
    await db.transaction().execute((trx) => upsertMinutes(trx, [row]));
    const { rows } = await sql<{ plays: number | string }>`
      select plays from stats_minute where key_id = ${keyId} and minute = ${M}`.execute(db);
    expect(rows.map((r) => Number(r.plays))).toEqual([INT_MAX]);
  });

  it('saturates in the stored breakdown hour instead of failing the flush', async () => {
    const { keys } = await statsTeam(stats);
    const keyId = keys[0]?.id ?? 0;
    const db = statsDb(stats.server.app.ctx.db);
    const row = { keyId, bucket: HOUR - (HOUR % BREAKDOWN_HOUR), dim: 0, name: 'x', values: values(2e9) };
    await db.transaction().execute((trx) => writeBreakdowns(trx, [row]));
    await db.transaction().execute((trx) => writeBreakdowns(trx, [row]));
    const { rows } = await sql<{ plays: number | string }>`
      select plays from stats_breakdown_hour where key_id = ${keyId}`.execute(db);
    expect(rows.map((r) => Number(r.plays))).toEqual([INT_MAX]);
  });
});
