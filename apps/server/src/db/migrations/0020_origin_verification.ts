import { randomBytes } from 'node:crypto';
import type { MigrationDb } from './helpers.js';

/**
 * Origin verification (issue 36): an Origin is a name anybody may type, and the integrity service
 * fetched segments from its host for the team's keys, so any public host could be made to serve the
 * server's fetches. An Origin's host is now fetched from only once the team served a file on it
 * (`verification_hash`, published as the file's content; `verified_at` when it was found), or while it
 * lies under one of the team's usable domains (access/origin-hosts.ts, read at run time, not stored).
 *
 * Existing rows start unverified: those under a verified domain of their team keep being fetched from
 * by that rule, the others until their team verifies them (each gets its own file here). A column
 * default of '' keeps the inserts of a node not yet upgraded working; such a row gets its file when the
 * Origins screen first lists it.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('origins')
    .addColumn('verification_hash', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('origins').addColumn('verified_at', 'bigint').execute();
  const rows: { id: number }[] = await db.selectFrom('origins').select('id').execute();
  for (const { id } of rows) {
    await db
      .updateTable('origins')
      .set({ verification_hash: randomBytes(16).toString('hex') })
      .where('id', '=', id)
      .execute();
  }
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('origins').dropColumn('verified_at').execute();
  await db.schema.alterTable('origins').dropColumn('verification_hash').execute();
}
