import type { Db } from '../../db/index.js';
import { BLOCK_LAYOUT } from './block-format.js';
import { rewriteAllBlocks } from './block-queries.js';
import { lockFlushes } from './queries.js';
import { statsDb } from './tables.js';

/**
 * The packed blocks follow the series table (block-format.ts BLOCK_LAYOUT). On start, blocks written in
 * another layout (a series added, or the blocks emptied by a migration) are rewritten from their rows
 * before anything reads them, under the flush lock so that nodes starting together rewrite once.
 */
export async function ensureBlockLayout(db: Db): Promise<void> {
  const s = statsDb(db);
  const current = () =>
    s.selectFrom('stats_layout').select('signature').where('name', '=', 'blocks').executeTakeFirst();
  if ((await current())?.signature === BLOCK_LAYOUT) return;
  await s.transaction().execute(async (trx) => {
    await lockFlushes(trx);
    const row = await trx
      .selectFrom('stats_layout')
      .select('signature')
      .where('name', '=', 'blocks')
      .executeTakeFirst();
    if (row?.signature === BLOCK_LAYOUT) return;
    await rewriteAllBlocks(trx);
    await trx
      .insertInto('stats_layout')
      .values({ name: 'blocks', signature: BLOCK_LAYOUT })
      .onConflict((oc) => oc.column('name').doUpdateSet({ signature: BLOCK_LAYOUT }))
      .execute();
  });
}
