import { createHash } from 'node:crypto';
import type { Db } from '../../db/index.js';
import type { ByteRange } from './origin.js';

/** Where a stored hash came from; a pushed hash wins over a learned one (issue 36). */
export const SegmentHashSource = { Pushed: 1, Stated: 2, Fetched: 3 } as const;
export type TSegmentHashSource = (typeof SegmentHashSource)[keyof typeof SegmentHashSource];

/** A segment's id in the caches and the table: a digest of its URL (without fragment) and range, so
 *  100 000 entries of 2 kB URLs do not take 200 MB and the table never holds a customer's URLs. */
export function segmentId(url: URL, range: ByteRange | undefined): string {
  const href = url.hash === '' ? url.href : url.href.slice(0, url.href.indexOf('#'));
  return createHash('sha256')
    .update(`${href}\n${range ? `${range.start}-${range.end}` : ''}`)
    .digest('base64url');
}

export interface StoredHash {
  sha256: string;
  source: TSegmentHashSource;
  expiresAt: number;
}

/** The team's unexpired hash of a segment, if any node or its packager stored one. */
export async function readStoredHash(
  db: Db,
  teamId: number,
  segment: string,
  now: number,
): Promise<StoredHash | undefined> {
  const row = await db
    .selectFrom('segment_hashes')
    .select(['sha256', 'source', 'expires_at'])
    .where('team_id', '=', teamId)
    .where('segment', '=', segment)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row
    ? { sha256: row.sha256, source: row.source as TSegmentHashSource, expiresAt: Number(row.expires_at) }
    : undefined;
}

/** Hashes a team's packager pushed: each replaces whatever the segment had. */
export async function storePushedHashes(
  db: Db,
  teamId: number,
  rows: readonly { segment: string; sha256: string }[],
  expiresAt: number,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('segment_hashes')
    .values(
      rows.map((r) => ({
        team_id: teamId,
        segment: r.segment,
        sha256: r.sha256,
        source: SegmentHashSource.Pushed,
        expires_at: expiresAt,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['team_id', 'segment']).doUpdateSet((eb) => ({
        sha256: eb.ref('excluded.sha256'),
        source: eb.ref('excluded.source'),
        expires_at: eb.ref('excluded.expires_at'),
      })),
    )
    .execute();
}

/** A hash a node learned from the origin, for the other nodes: it never replaces a live pushed one. */
export async function storeLearnedHash(
  db: Db,
  teamId: number,
  segment: string,
  hash: { sha256: string; source: TSegmentHashSource },
  expiresAt: number,
  now: number,
): Promise<void> {
  await db
    .insertInto('segment_hashes')
    .values({ team_id: teamId, segment, sha256: hash.sha256, source: hash.source, expires_at: expiresAt })
    .onConflict((oc) =>
      oc
        .columns(['team_id', 'segment'])
        .doUpdateSet((eb) => ({
          sha256: eb.ref('excluded.sha256'),
          source: eb.ref('excluded.source'),
          expires_at: eb.ref('excluded.expires_at'),
        }))
        .where((eb) =>
          eb.or([
            eb('segment_hashes.source', '!=', SegmentHashSource.Pushed),
            eb('segment_hashes.expires_at', '<=', now),
          ]),
        ),
    )
    .execute();
}

/** Expired hashes of every team, deleted (a periodic sweep). */
export async function deleteExpiredHashes(db: Db, now: number): Promise<number> {
  const result = await db.deleteFrom('segment_hashes').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
