import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

/** Deletes a statistics table's rows older than `before` (seconds); answers how many. */
export async function deleteRowsBefore(db: Db, table: string, timeColumn: string, before: number) {
  const r = await sql`delete from ${sql.table(table)} where ${sql.ref(timeColumn)} < ${before}`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
