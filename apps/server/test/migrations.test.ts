import { InviteStatus } from '@tlprt/contract';
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { isUniqueViolation } from '../src/db/errors.js';
import { type Db, migrateToLatest, openDatabase } from '../src/db/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { insertUserIfAbsent } from '../src/directory/users.js';
import { newKeyHash } from '../src/features/domains/keys/hash.js';
import { insertKey } from '../src/features/domains/keys/queries.js';
import { insertInvitation, updateInvitation } from '../src/features/invitations/queries.js';
import { sessionHash, writeBatch } from '../src/features/statistics/aggregator.js';
import { READ } from '../src/features/statistics/block-format.js';
import { ensureBlockLayout } from '../src/features/statistics/layout.js';
import { readPoints } from '../src/features/statistics/queries.js';
import { statsDb } from '../src/features/statistics/tables.js';
import { insertTeamWithMember } from '../src/features/teams/queries.js';
import { pointValues, SERIES_BITS } from './factories.js';
import { dropDatabase, freshDatabaseUrl, PUBLIC_URL } from './helpers/server.js';

const opened: Array<{ db: Db; url: string }> = [];
afterAll(async () => {
  for (const { db, url } of opened) {
    await db.destroy();
    await dropDatabase(url);
  }
});

/** A user owning teams made by `teamWithKeys`. */
async function owner(db: Db, now: number): Promise<number> {
  const userId = await insertUserIfAbsent(db, {
    email: 'm@example.test',
    supervisor: false,
    subscription: false,
    createdAt: now,
  });
  if (userId === undefined) throw new Error('no user');
  return userId;
}
async function teamWithKeys(db: Db, userId: number, name: string, now: number) {
  const teamId = await insertTeamWithMember(db, { name, createdAt: now }, { userId, role: 10 });
  const key = () =>
    insertKey(db, { teamId, domainId: null, keyHash: newKeyHash(), name: '', createdAt: now });
  return { teamId, keyIds: [await key(), await key()] as const };
}

/** A database migrated up to and including `last`. */
async function databaseAt(last: string): Promise<Db> {
  const url = await freshDatabaseUrl();
  const db = openDatabase(loadConfig({ DATABASE_URL: url, PUBLIC_URL }).database);
  opened.push({ db, url });
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(last);
  if (error) throw error;
  return db;
}

describe('0006_stats_team_totals', () => {
  it('fills the team totals from the per-key rows stored before it', async () => {
    const db = await databaseAt('0005_statistics');
    const now = Date.now();
    const userId = await owner(db, now);
    const a = await teamWithKeys(db, userId, 'A', now);
    const b = await teamWithKeys(db, userId, 'B', now);
    const s = statsDb(db);
    const row = (k: number) => ({
      cdn_bytes: 100 * k,
      p2p_bytes: 10 * k,
      nodr_bytes: k,
      cdn_users: k,
      p2p_users: 2 * k,
      nodr_users: 0,
    });
    await s
      .insertInto('stats_minute')
      .values([
        { key_id: a.keyIds[0], minute: 600, ...row(1) },
        { key_id: a.keyIds[1], minute: 600, ...row(2) },
        { key_id: a.keyIds[1], minute: 660, ...row(3) },
        { key_id: b.keyIds[0], minute: 600, ...row(5) },
      ])
      .execute();
    await s
      .insertInto('stats_hour')
      .values([
        { key_id: a.keyIds[0], bucket: 3600, ...row(4) },
        { key_id: a.keyIds[1], bucket: 3600, ...row(6) },
      ])
      .execute();
    await migrateToLatest(db);
    const minutes = await s
      .selectFrom('stats_team_minute')
      .selectAll()
      .orderBy('team_id')
      .orderBy('minute')
      .execute();
    // `users` (0009): the keys' largest series (p2p, 2k here), summed; no refused bytes before 0012
    // (the columns of later series are 0 too).
    expect(minutes).toMatchObject([
      { team_id: a.teamId, minute: 600, ...row(3), users: 6, rejected_bytes: 0 },
      { team_id: a.teamId, minute: 660, ...row(3), users: 6, rejected_bytes: 0 },
      { team_id: b.teamId, minute: 600, ...row(5), users: 10, rejected_bytes: 0 },
    ]);
    expect(await s.selectFrom('stats_team_hour').selectAll().execute()).toMatchObject([
      {
        team_id: a.teamId,
        bucket: 3600,
        ...row(10),
        users: 20,
        rejected_bytes: 0,
        // 0011: no minute of that hour is kept, so its own peaks are the keys' peaks summed.
        peak_cdn_users: 10,
        peak_p2p_users: 20,
        peak_nodr_users: 0,
        peak_users: 20,
      },
    ]);
    expect(await s.selectFrom('stats_team_20m').selectAll().execute()).toEqual([]);
  });
});

describe('0009_stats_viewers', () => {
  it('counts the kept sessions exactly, takes the largest series elsewhere, and keeps team totals sums', async () => {
    const db = await databaseAt('0008_supervisor_audit');
    const now = Date.now();
    const { teamId, keyIds } = await teamWithKeys(db, await owner(db, now), 'A', now);
    const [k1, k2] = keyIds;
    const s = statsDb(db);
    const H = 7200;
    const m1 = H + 60; // session ids kept: 3 viewers, 2 in each series
    const m2 = H + 1800; // pre-aggregated (no session ids): its largest series
    const series = (cdn: number, p2p: number, nodr = 0) => ({
      cdn_bytes: 10,
      p2p_bytes: 10,
      nodr_bytes: 0,
      cdn_users: cdn,
      p2p_users: p2p,
      nodr_users: nodr,
    });
    await s
      .insertInto('stats_minute')
      .values([
        { key_id: k1, minute: m1, ...series(2, 2) },
        { key_id: k1, minute: m2, ...series(4, 5, 1) },
        { key_id: k2, minute: m1, ...series(1, 0) },
      ])
      .execute();
    const kept = (keyId: number, minute: number, sets: string[][]) =>
      sets.flatMap((ids, i) =>
        ids.map((id) => ({ key_id: keyId, minute, series: i, session_hash: sessionHash(id) })),
      );
    await s
      .insertInto('stats_minute_sessions')
      .values([...kept(k1, m1, [['s1', 's2'], ['s2', 's3'], []]), ...kept(k2, m1, [['s1']])])
      .execute();
    await s
      .insertInto('stats_20m')
      .values([
        { key_id: k1, bucket: H, ...series(2, 2) },
        { key_id: k1, bucket: H + 1200, ...series(4, 5, 1) },
        { key_id: k2, bucket: H, ...series(1, 0) },
      ])
      .execute();
    await s
      .insertInto('stats_hour')
      .values([
        { key_id: k1, bucket: H, ...series(4, 5, 1) },
        { key_id: k1, bucket: 0, ...series(7, 3) }, // long gone from the minutes
        { key_id: k2, bucket: H, ...series(1, 0) },
      ])
      .execute();
    await s
      .insertInto('stats_team_minute')
      .values([
        { team_id: teamId, minute: m1, ...series(3, 2) },
        { team_id: teamId, minute: m2, ...series(4, 5, 1) },
      ])
      .execute();
    await s
      .insertInto('stats_team_hour')
      .values([
        { team_id: teamId, bucket: H, ...series(5, 5, 1) },
        { team_id: teamId, bucket: 0, ...series(7, 3) },
      ])
      .execute();
    await migrateToLatest(db);

    const users = async (
      table: 'stats_minute' | 'stats_20m' | 'stats_hour',
      time: 'minute' | 'bucket',
    ): Promise<Array<[number, number, number]>> =>
      (await s.selectFrom(table).selectAll().orderBy('key_id').execute()).map((r) => [
        r.key_id,
        Number((r as unknown as Record<string, number>)[time]),
        r.users,
      ]);
    expect((await users('stats_minute', 'minute')).sort()).toEqual(
      [
        [k1, m1, 3],
        [k1, m2, 5],
        [k2, m1, 1],
      ].sort(),
    );
    expect((await users('stats_20m', 'bucket')).sort()).toEqual(
      [
        [k1, H, 3],
        [k1, H + 1200, 5],
        [k2, H, 1],
      ].sort(),
    );
    expect((await users('stats_hour', 'bucket')).sort()).toEqual(
      [
        [k1, 0, 7],
        [k1, H, 5],
        [k2, H, 1],
      ].sort(),
    );
    const team = async () =>
      (await s.selectFrom('stats_team_minute').select(['minute', 'users']).orderBy('minute').execute()).map(
        (r) => [Number(r.minute), r.users],
      );
    // The sum of the keys' rows (3 + 1), not the team row's largest series (3).
    expect(await team()).toEqual([
      [m1, 4],
      [m2, 5],
    ]);
    expect(
      (await s.selectFrom('stats_team_hour').select(['bucket', 'users']).orderBy('bucket').execute()).map(
        (r) => [Number(r.bucket), r.users],
      ),
    ).toEqual([
      [0, 7],
      [H, 6],
    ]);

    // A later report of the same minute is counted against the sessions kept before the migration.
    await writeBatch(s, [
      {
        keyId: k1,
        minute: m1,
        values: pointValues({ cdnBytes: 1 }),
        sessions: new Map([
          ['s1', SERIES_BITS.cdn],
          ['s4', SERIES_BITS.cdn],
        ]),
      },
    ]);
    expect((await users('stats_minute', 'minute')).find((r) => r[0] === k1 && r[1] === m1)).toEqual([
      k1,
      m1,
      4,
    ]);
    expect((await users('stats_20m', 'bucket')).find((r) => r[0] === k1 && r[1] === H)).toEqual([k1, H, 4]);
    expect(await team()).toEqual([
      [m1, 5],
      [m2, 5],
    ]);
  });
});

describe('0010_one_pending_invitation', () => {
  it('closes older duplicate pending invitations, then refuses a second pending one of an address', async () => {
    const db = await databaseAt('0009_stats_viewers');
    const now = Date.now();
    const userId = await owner(db, now);
    const { teamId } = await teamWithKeys(db, userId, 'A', now);
    const pending = (email: string, status: number = InviteStatus.Pending) =>
      insertInvitation(db, {
        teamId,
        email,
        invitedUserId: null,
        role: 40,
        invitingUserId: userId,
        tokenHash: newKeyHash(),
        createdAt: now,
        expiresAt: now + 60_000,
      }).then(async (id) => {
        if (status !== InviteStatus.Pending) await updateInvitation(db, id, { status });
        return id;
      });
    // Made before the rule existed: two pending invitations of one address, and others that may stay.
    const older = await pending('twice@example.test');
    const newer = await pending('twice@example.test');
    const other = await pending('once@example.test');
    const declined = await pending('once@example.test', InviteStatus.Declined);
    await migrateToLatest(db);
    const statuses = Object.fromEntries(
      (await db.selectFrom('invitations').select(['id', 'status']).execute()).map((r) => [r.id, r.status]),
    );
    expect(statuses).toEqual({
      [older]: InviteStatus.Revoked,
      [newer]: InviteStatus.Pending,
      [other]: InviteStatus.Pending,
      [declined]: InviteStatus.Declined,
    });
    // A declined invitation of the address stands beside its pending one; a second pending one cannot.
    await expect(pending('once@example.test')).rejects.toSatisfy(isUniqueViolation);
  });
});

describe('0012_stats_rejected', () => {
  it('adds refused bytes to every table of points and repacks the blocks of 0011 with them; down undoes both', async () => {
    const db = await databaseAt('0010_one_pending_invitation');
    const now = Date.now();
    const { teamId, keyIds } = await teamWithKeys(db, await owner(db, now), 'A', now);
    const [k1, k2] = keyIds;
    const s = statsDb(db);
    const H = 36_000;
    const series = (bytes: number, users: number) => ({
      cdn_bytes: bytes,
      p2p_bytes: 2 * bytes,
      nodr_bytes: 0,
      cdn_users: users,
      p2p_users: users,
      nodr_users: 0,
      users,
    });
    await s
      .insertInto('stats_minute')
      .values([
        { key_id: k1, minute: H, ...series(3, 1) },
        { key_id: k1, minute: H + 60, ...series(2 ** 40, 4) },
        { key_id: k2, minute: H + 60, ...series(10, 2) },
      ])
      .execute();
    await s
      .insertInto('stats_team_minute')
      .values([
        { team_id: teamId, minute: H, ...series(3, 1) },
        { team_id: teamId, minute: H + 60, ...series(2 ** 40 + 10, 6) },
      ])
      .execute();
    for (const table of ['stats_20m', 'stats_hour'] as const) {
      await s
        .insertInto(table)
        .values([
          { key_id: k1, bucket: H, ...series(2 ** 40 + 3, 4) },
          { key_id: k2, bucket: H, ...series(10, 2) },
        ])
        .execute();
    }
    for (const table of ['stats_team_20m', 'stats_team_hour'] as const) {
      await s
        .insertInto(table)
        .values({ team_id: teamId, bucket: H, ...series(2 ** 40 + 13, 6) })
        .execute();
    }
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const step = async (run: Promise<{ error?: unknown }>) => {
      const { error } = await run;
      if (error) throw error;
    };
    await step(migrator.migrateTo('0011_stats_peaks_blocks'));
    /** The bytes of k1's minute block and of the team's (2 points each). */
    const blockSizes = async () => [
      (
        await s
          .selectFrom('stats_minute_blocks')
          .select('points')
          .where('key_id', '=', k1)
          .executeTakeFirstOrThrow()
      ).points.length,
      (
        await s
          .selectFrom('stats_team_minute_blocks')
          .select('points')
          .where('team_id', '=', teamId)
          .executeTakeFirstOrThrow()
      ).points.length,
    ];
    expect(await blockSizes()).toEqual([2 * 41, 2 * 41]);

    // 0015 empties the blocks; the server rewrites them in the series table's layout on start.
    await migrateToLatest(db);
    await ensureBlockLayout(db);
    expect(await blockSizes()).toEqual([2 * READ.whole.size, 2 * READ.whole.size]);
    const rejected = async (table: 'stats_minute' | 'stats_20m' | 'stats_hour' | 'stats_team_hour') =>
      (await s.selectFrom(table).select('rejected_bytes').execute()).map((r) => Number(r.rejected_bytes));
    expect(await rejected('stats_minute')).toEqual([0, 0, 0]);
    expect(await rejected('stats_hour')).toEqual([0, 0]);
    expect(await rejected('stats_team_hour')).toEqual([0]);
    /** The point at `t` of a read: the series of 0012 (sizes, viewers, refused bytes last); the later
     *  series, which these rows predate, are 0. */
    const point = async (size: number, asked: number[], leftOut: number[], t: number) => {
      const { sums } = await readPoints(s, size, teamId, asked, leftOut, t, t);
      expect([...sums.subarray(8)].every((v) => v === 0)).toBe(true);
      return [...sums.subarray(0, 8)];
    };
    // Every value of the repacked blocks reads as before, with no refused bytes.
    expect(await point(60, [k1], [k2], H + 60)).toEqual([2 ** 40, 2 ** 41, 0, 4, 4, 0, 4, 0]);
    expect(await point(60, [k1, k2], [], H + 60)).toEqual([2 ** 40 + 10, 2 ** 41 + 20, 0, 6, 6, 0, 6, 0]);
    expect(await point(60, [k1], [k2], H)).toEqual([3, 6, 0, 1, 1, 0, 1, 0]);
    for (const size of [1200, 3600]) {
      expect(await point(size, [k2], [k1], H)).toEqual([10, 20, 0, 2, 2, 0, 2, 0]);
      // All keys: the team's rows, with the team's own peak minute (H + 60: 6 viewers).
      expect(await point(size, [k1, k2], [], H)).toEqual([
        2 ** 40 + 13,
        2 * (2 ** 40 + 13),
        0,
        6,
        6,
        0,
        6,
        0,
      ]);
    }

    // A flush after the migration stores and packs refused bytes at every level.
    await writeBatch(s, [
      {
        keyId: k2,
        minute: H + 60,
        values: pointValues({ rejectedBytes: 700 }),
        sessions: new Map(),
      },
    ]);
    expect((await point(60, [k2], [k1], H + 60))[7]).toBe(700);
    expect((await point(60, [k1, k2], [], H + 60))[7]).toBe(700);
    expect((await point(1200, [k2], [k1], H))[7]).toBe(700);
    expect((await point(3600, [k1, k2], [], H))[7]).toBe(700);

    // Down to 0011 (later migrations are undone first): 0012's down repacks the blocks without refused bytes.
    await step(migrator.migrateTo('0011_stats_peaks_blocks'));
    expect(await blockSizes()).toEqual([2 * 41, 2 * 41]);
    await expect(sql`select rejected_bytes from stats_minute`.execute(db)).rejects.toThrow();
    // 0015 empties the blocks; the server rewrites them in the series table's layout on start.
    await migrateToLatest(db);
    await ensureBlockLayout(db);
    expect(await blockSizes()).toEqual([2 * READ.whole.size, 2 * READ.whole.size]);
  });
});
