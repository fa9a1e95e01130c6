import type { AppContext } from '../../context.js';
import type { Db } from '../../db/index.js';

/**
 * The alerts' reads of the statistics: a team's stored minutes (kept 2 days), every stored column
 * summed over the watched keys, per minute, from wherever the statistics are kept (ctx.statsStore).
 * Keys are named by hash and looked up inside the team, so another team's key adds nothing.
 */

/** Unix s of a minute's start → its columns summed over the keys (STORED_COLUMNS order); minutes
 *  without a row are absent. `keys` empty: every key of the team (deleted ones keep their history). */
export async function minuteSums(
  ctx: Pick<AppContext, 'db' | 'statsStore'>,
  teamId: number,
  keys: readonly string[],
  fromMinute: number,
  toMinute: number,
): Promise<Map<number, Float64Array>> {
  let q = ctx.db.selectFrom('keys').select('id').where('team_id', '=', teamId);
  if (keys.length) q = q.where('key_hash', 'in', [...keys]);
  const ids = (await q.execute()).map((k) => k.id);
  return ctx.statsStore.minuteSums(ids, fromMinute, toMinute);
}

/** The hashes among `keys` that are not keys of the team. */
export async function foreignKeys(db: Db, teamId: number, keys: readonly string[]): Promise<string[]> {
  if (!keys.length) return [];
  const rows = await db
    .selectFrom('keys')
    .select('key_hash')
    .where('team_id', '=', teamId)
    .where('key_hash', 'in', [...keys])
    .execute();
  const own = new Set(rows.map((r) => r.key_hash));
  return keys.filter((k) => !own.has(k));
}
