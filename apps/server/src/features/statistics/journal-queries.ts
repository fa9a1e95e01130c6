import { sql } from 'kysely';
import type { StatsDb } from './tables.js';

/** The journal's mark in the database (table stats_journal, journal.ts): how far each node's journal
 *  is stored in the statistics. */

/** How far a node's journal is stored in the database (0: nothing yet). */
export async function readJournalMark(db: StatsDb, journal: string): Promise<number> {
  const { rows } = await sql<{ applied: number | string }>`
    select applied from stats_journal where journal = ${journal}`.execute(db);
  return Number(rows[0]?.applied ?? 0);
}

/** Stores how far a node's journal is in the statistics (in the caller's transaction, if any). */
export async function storeJournalMark(
  db: StatsDb,
  mark: { journal: string; segment: number },
): Promise<void> {
  await sql`insert into stats_journal (journal, applied) values (${mark.journal}, ${mark.segment})
    on conflict (journal) do update set applied = excluded.applied`.execute(db);
}
