import type { MigrationDb } from './helpers.js';

/**
 * The reference hashes of P2P segments, shared by every node of a cluster (issue 36): pushed by a team's
 * packager (`POST /player/v1/hashes`), stated by an origin's digest header, or computed from a body the
 * integrity service fetched. Per team, so one team's push can never change another team's answers.
 * `segment` is the integrity service's segment id (a digest of the URL and range), never the URL itself.
 * `source`: 1 pushed, 2 stated by the origin, 3 fetched; a pushed hash replaces any other, a learned one
 * never replaces a push.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('segment_hashes')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('segment', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('source', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('segment_hashes_pk', ['team_id', 'segment'])
    .execute();
  // Expired rows are deleted by time across teams.
  await db.schema.createIndex('segment_hashes_expires').on('segment_hashes').column('expires_at').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('segment_hashes').execute();
}
