import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteExpiredHashes,
  readStoredHash,
  SegmentHashSource,
  segmentId,
  storeLearnedHash,
  storePushedHashes,
} from '../src/features/integrity/store.js';
import { buildTeam } from './factories.js';
import { startServer, type TestServer } from './helpers/server.js';

// The shared table of segment hashes (issue 36) on the test's database (SQLite or PostgreSQL): a push
// replaces anything, a learned hash never replaces a live push, teams never see each other's rows.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

const h = (c: string) => c.repeat(64);

describe('segment_hashes', () => {
  it('ids a segment by URL and range, never its fragment', () => {
    const a = segmentId(new URL('https://cdn.example/a.ts#x'), undefined);
    expect(a).toBe(segmentId(new URL('https://cdn.example/a.ts'), undefined));
    expect(a).not.toBe(segmentId(new URL('https://cdn.example/a.ts'), { start: 0, end: 9 }));
    expect(a).not.toContain('cdn.example');
  });

  it('a push replaces a learned hash; a learned one leaves a live push alone; each team its own', async () => {
    const db = server.app.ctx.db;
    const [t1, t2] = [await buildTeam(server.app), await buildTeam(server.app)];
    const seg = segmentId(new URL('https://cdn.example/s1.ts'), undefined);
    await storeLearnedHash(db, t1.id, seg, { sha256: h('a'), source: SegmentHashSource.Fetched }, 2000, 1000);
    expect(await readStoredHash(db, t1.id, seg, 1000)).toMatchObject({ sha256: h('a'), source: 3 });
    await storePushedHashes(db, t1.id, [{ segment: seg, sha256: h('b') }], 5000);
    await storeLearnedHash(db, t1.id, seg, { sha256: h('c'), source: SegmentHashSource.Stated }, 3000, 1000);
    expect(await readStoredHash(db, t1.id, seg, 1000)).toEqual({
      sha256: h('b'),
      source: 1,
      expiresAt: 5000,
    });
    expect(await readStoredHash(db, t2.id, seg, 1000)).toBeUndefined();
    // Once the push expired, what a node learns is written again.
    await storeLearnedHash(db, t1.id, seg, { sha256: h('d'), source: SegmentHashSource.Stated }, 9000, 6000);
    expect(await readStoredHash(db, t1.id, seg, 6000)).toMatchObject({ sha256: h('d'), source: 2 });
  });

  it('an expired hash is not read, and the sweep deletes it', async () => {
    const db = server.app.ctx.db;
    const team = await buildTeam(server.app);
    const seg = segmentId(new URL('https://cdn.example/old.ts'), undefined);
    await storePushedHashes(db, team.id, [{ segment: seg, sha256: h('e') }], 100);
    expect(await readStoredHash(db, team.id, seg, 100)).toBeUndefined();
    expect(await deleteExpiredHashes(db, 100)).toBeGreaterThanOrEqual(1);
    const rows = await db
      .selectFrom('segment_hashes')
      .select('segment')
      .where('team_id', '=', team.id)
      .execute();
    expect(rows).toEqual([]);
  });
});
