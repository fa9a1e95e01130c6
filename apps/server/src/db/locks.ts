import type { Db } from './index.js';

/**
 * Serializes the writes of one team whose rule counts rows first (the five-domain limit, one draft per
 * host, at least one admin): a no-op update takes the team row's write lock on PostgreSQL until the
 * transaction ends, and the database write lock on SQLite. Call it first in the transaction.
 */
export async function lockTeam(db: Db, teamId: number): Promise<void> {
  await db
    .updateTable('teams')
    .set((eb) => ({ status_id: eb.ref('status_id') }))
    .where('id', '=', teamId)
    .execute();
}
