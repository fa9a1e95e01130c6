import { PATHS, POINT_VALUES } from '@tlprt/contract';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type Db, migrateToLatest, openDatabase } from '../src/db/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { insertUserIfAbsent } from '../src/directory/users.js';
import { newKeyHash } from '../src/features/domains/keys/hash.js';
import { insertKey } from '../src/features/domains/keys/queries.js';
import { sessionHash, writeBatch } from '../src/features/statistics/aggregator.js';
import { ensureBlockLayout } from '../src/features/statistics/layout.js';
import { readPoints } from '../src/features/statistics/queries.js';
import { statsDb } from '../src/features/statistics/tables.js';
import { insertTeamWithMember } from '../src/features/teams/queries.js';
import { buildKey, buildTeam, pointValues, SERIES_BITS } from './factories.js';

/** The values of the series stored before 0015, first in every point. */
const KNOWN = 8;

import { Api, type Json } from './helpers/http.js';
import {
  dropDatabase,
  freshDatabaseUrl,
  manualClock,
  PUBLIC_URL,
  startServer,
  type TestServer,
} from './helpers/server.js';

// Issue 13: the viewers of a 20-minute or hourly point over several keys are the team's own peak minute
// when no other key of the team had viewers in the window, and the sum of the keys' peaks otherwise.
// 45.5 minutes into an hour: the 20-minute bucket hh:40 and the hour hh:00 hold the minutes below.
const HOUR = Math.floor(Date.now() / 3_600_000) * 3600;
const NOW = HOUR + 45 * 60 + 30;
const B40 = HOUR + 40 * 60;
const M1 = B40 + 60; // hh:41
const M2 = B40 + 180; // hh:43
const clock = manualClock(NOW * 1000);

let server: TestServer;
let api: Api;

beforeAll(async () => {
  server = await startServer({ env: { STATS_INGEST_FLUSH_MS: '600000' }, deps: { now: clock } });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
});

type Key = { id: number; keyHash: string };
const watch = (key: Key, minute: number, sessions: string[], cdn: number, p2p: number) => {
  for (const [i, id] of sessions.entries())
    server.app.stats.aggregator.add(key.id, minute + i, id, { cdnBytes: cdn, p2pBytes: p2p });
};

/** Keys A and B whose peaks fall in different minutes of one 20-minute bucket (and hour):
 *  hh:41: A 4 viewers on both, B 1 on the CDN (5 viewers, 5 on the CDN, 4 on peers);
 *  hh:43: A 1 on the CDN, B 3 on peers (4 viewers, 1 on the CDN, 3 on peers).
 *  Their own peaks are A 4/4/4 and B 3/1/3 (viewers/CDN/P2P), 7/5/7 summed; the team's peak is 5/5/4. */
async function teamOfTwo(others = 0) {
  const team = await buildTeam(server.app);
  const a = await buildKey(server.app, team.id, null);
  const b = await buildKey(server.app, team.id, null);
  watch(a, M1, ['a1', 'a2', 'a3', 'a4'], 10, 10);
  watch(b, M1, ['b1'], 10, 0);
  watch(a, M2, ['a1'], 10, 0);
  watch(b, M2, ['b1', 'b2', 'b3'], 0, 10);
  const rest: Key[] = [];
  for (let i = 0; i < others; i++) rest.push(await buildKey(server.app, team.id, null));
  return { team, a, b, rest, as: api.as(team.owner.token) };
}

async function point(as: Api, range: 'day' | 'week' | 'month', teamId: number, keys: Key[], t: number) {
  const r = await as.post(PATHS.statistics[range], {
    apiKeys: keys.map((k) => k.keyHash),
    startTimestamp: 0,
    endTimestamp: NOW + 3600,
    team_id: teamId,
    clientId: 1,
  });
  expect(r.status).toBe(200);
  return (r.body.data as Json[]).find((p) => p.datePoint === t);
}
const viewers = (p: Json | undefined) => [p?.usersCount, p?.cdnUsersCount, p?.p2pUsersCount];

describe('viewers of week and month points over several keys', () => {
  it("all of a team's keys: the peak minute of their summed viewers, not the sum of each key's peak", async () => {
    const s = await teamOfTwo();
    await server.app.stats.flush();
    const both = [s.a, s.b];
    expect(viewers(await point(s.as, 'day', s.team.id, both, M1))).toEqual([5, 5, 4]);
    expect(viewers(await point(s.as, 'day', s.team.id, both, M2))).toEqual([4, 1, 3]);
    const week = await point(s.as, 'week', s.team.id, both, B40);
    expect(viewers(week)).toEqual([5, 5, 4]);
    expect(week).toMatchObject({ cdnDwSize: 60, p2pDwSize: 70 });
    const month = await point(s.as, 'month', s.team.id, both, HOUR);
    expect(viewers(month)).toEqual([5, 5, 4]);
    expect(month).toMatchObject({ cdnDwSize: 60, p2pDwSize: 70 });
    // One key alone: its own peak minute, as ever.
    expect(viewers(await point(s.as, 'week', s.team.id, [s.a], B40))).toEqual([4, 4, 4]);
    expect(viewers(await point(s.as, 'month', s.team.id, [s.b], HOUR))).toEqual([3, 1, 3]);
  });

  it('some keys while another had viewers: the sum of their peaks (an upper bound), whichever way it is read', async () => {
    const s = await teamOfTwo(1);
    const c = s.rest[0] as Key;
    watch(c, M1, ['c1'], 10, 0);
    await server.app.stats.flush();
    // Two of three: the team total less the third key.
    const two = [s.a, s.b];
    expect(viewers(await point(s.as, 'week', s.team.id, two, B40))).toEqual([7, 5, 7]);
    expect(viewers(await point(s.as, 'month', s.team.id, two, HOUR))).toEqual([7, 5, 7]);
    expect(await point(s.as, 'week', s.team.id, two, B40)).toMatchObject({ cdnDwSize: 60, p2pDwSize: 70 });
    // All three again: hh:41 holds 6 viewers.
    expect(viewers(await point(s.as, 'week', s.team.id, [...two, c], B40))).toEqual([6, 6, 4]);
    // Two of four (read key by key) with the fourth key watched as well.
    const d = await buildKey(server.app, s.team.id, null);
    watch(d, M2, ['d1'], 0, 5);
    await server.app.stats.flush();
    expect(viewers(await point(s.as, 'week', s.team.id, two, B40))).toEqual([7, 5, 7]);
    expect(viewers(await point(s.as, 'week', s.team.id, [...two, c, d], B40))).toEqual([6, 6, 4]);
  });

  it('some keys while the others had no viewers in the window: the exact peak, for that window only', async () => {
    const s = await teamOfTwo(2);
    const [idle, old] = s.rest as [Key, Key];
    // The fourth key's only traffic: ten days ago, inside the month's window but not the week's.
    server.app.stats.aggregator.addMinute(
      old.id,
      HOUR - 10 * 86_400,
      pointValues({ cdnBytes: 100, cdnUsers: 9, users: 9 }),
    );
    await server.app.stats.flush();
    // Two of four (read key by key) and three of four (the total less one).
    for (const keys of [
      [s.a, s.b],
      [s.a, s.b, idle],
    ]) {
      expect(viewers(await point(s.as, 'week', s.team.id, keys, B40))).toEqual([5, 5, 4]);
      expect(viewers(await point(s.as, 'month', s.team.id, keys, HOUR))).toEqual([7, 5, 7]);
    }
    expect(viewers(await point(s.as, 'month', s.team.id, [...s.rest, s.a, s.b], HOUR))).toEqual([5, 5, 4]);
  });

  it('keeps the team peak right when a later flush adds viewers to a minute of the bucket', async () => {
    const s = await teamOfTwo();
    await server.app.stats.flush();
    // Two more viewers of B at hh:43 (6 in that minute now) and A's a1 again at hh:41.
    watch(s.b, M2, ['b4', 'b5'], 0, 10);
    watch(s.a, M1, ['a1'], 1, 0);
    await server.app.stats.flush();
    expect(viewers(await point(s.as, 'week', s.team.id, [s.a, s.b], B40))).toEqual([6, 5, 5]);
    expect(viewers(await point(s.as, 'month', s.team.id, [s.a, s.b], HOUR))).toEqual([6, 5, 5]);
  });
});

describe('0011_stats_peaks_blocks', () => {
  const opened: Array<{ db: Db; url: string }> = [];
  afterAll(async () => {
    for (const { db, url } of opened) {
      await db.destroy();
      await dropDatabase(url);
    }
  });

  async function databaseAt(last: string): Promise<Db> {
    const url = await freshDatabaseUrl();
    const db = openDatabase(loadConfig({ DATABASE_URL: url, PUBLIC_URL }).database);
    opened.push({ db, url });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateTo(last);
    if (error) throw error;
    return db;
  }

  it('gives team buckets their peak from the kept minutes, keeps the sessions and packs the minutes', async () => {
    const db = await databaseAt('0010_one_pending_invitation');
    const now = Date.now();
    const userId = await insertUserIfAbsent(db, {
      email: 'peak@example.test',
      supervisor: false,
      subscription: false,
      createdAt: now,
    });
    if (userId === undefined) throw new Error('no user');
    const teamId = await insertTeamWithMember(db, { name: 'P', createdAt: now }, { userId, role: 10 });
    const key = () =>
      insertKey(db, { teamId, domainId: null, keyHash: newKeyHash(), name: '', createdAt: now });
    const k1 = await key();
    const k2 = await key();
    const s = statsDb(db);
    const H = 36_000;
    const series = (bytes: number, cdn: number, p2p: number, users: number) => ({
      cdn_bytes: bytes,
      p2p_bytes: 2 * bytes,
      nodr_bytes: 0,
      cdn_users: cdn,
      p2p_users: p2p,
      nodr_users: 0,
      users,
    });
    // k1 peaks at H+60, k2 at H+180: the keys' peaks sum to 7 viewers, the team's peak minute has 5.
    // H is the first minute kept, so the buckets from H on have all theirs.
    await s
      .insertInto('stats_minute')
      .values([
        { key_id: k1, minute: H, ...series(3, 1, 0, 1) },
        { key_id: k1, minute: H + 60, ...series(2 ** 40 + 1, 4, 4, 4) },
        { key_id: k2, minute: H + 60, ...series(10, 1, 0, 1) },
        { key_id: k1, minute: H + 180, ...series(5, 1, 0, 1) },
        { key_id: k2, minute: H + 180, ...series(7, 0, 3, 3) },
      ])
      .execute();
    await s
      .insertInto('stats_team_minute')
      .values([
        { team_id: teamId, minute: H, ...series(3, 1, 0, 1) },
        { team_id: teamId, minute: H + 60, ...series(2 ** 40 + 11, 5, 4, 5) },
        { team_id: teamId, minute: H + 180, ...series(12, 1, 3, 4) },
      ])
      .execute();
    for (const table of ['stats_20m', 'stats_hour'] as const) {
      await s
        .insertInto(table)
        .values([
          { key_id: k1, bucket: H, ...series(2 ** 40 + 9, 4, 4, 4) },
          { key_id: k2, bucket: H, ...series(17, 1, 3, 3) },
        ])
        .execute();
    }
    const sumsOfPeaks = series(2 ** 40 + 26, 5, 7, 7);
    await s
      .insertInto('stats_team_20m')
      .values({ team_id: teamId, bucket: H, ...sumsOfPeaks })
      .execute();
    // H − 3600: its minutes are gone (older than the first one kept), so its sums stand in.
    await s
      .insertInto('stats_team_hour')
      .values([
        { team_id: teamId, bucket: H, ...sumsOfPeaks },
        { team_id: teamId, bucket: H - 3600, ...series(1, 8, 2, 9) },
      ])
      .execute();
    // Sessions of k1 at H+60 as 0009 stored them: a row per series, and series 3 for any bytes.
    const old = (series: number, id: string) => ({
      key_id: k1,
      minute: H + 60,
      series,
      session_hash: sessionHash(id),
    });
    await db
      .withTables<{
        stats_minute_sessions: { key_id: number; minute: number; series: number; session_hash: string };
      }>()
      .insertInto('stats_minute_sessions')
      .values([
        old(0, 's1'),
        old(1, 's1'),
        old(3, 's1'),
        old(0, 's2'),
        old(3, 's2'),
        old(2, 's3'),
        old(3, 's3'),
      ])
      .execute();
    await migrateToLatest(db);
    await ensureBlockLayout(db);

    const peaks = async (table: 'stats_team_20m' | 'stats_team_hour') =>
      (
        await s
          .selectFrom(table)
          .select(['bucket', 'users', 'peak_users', 'peak_cdn_users', 'peak_p2p_users', 'peak_nodr_users'])
          .where('team_id', '=', teamId)
          .orderBy('bucket')
          .execute()
      ).map((r) => [
        Number(r.bucket),
        r.users,
        r.peak_users,
        r.peak_cdn_users,
        r.peak_p2p_users,
        r.peak_nodr_users,
      ]);
    expect(await peaks('stats_team_20m')).toEqual([[H, 7, 5, 5, 4, 0]]);
    expect(await peaks('stats_team_hour')).toEqual([
      [H - 3600, 9, 9, 8, 2, 0],
      [H, 7, 5, 5, 4, 0],
    ]);

    /** A point's values of the series these rows know (sizes, viewers, refused bytes: the first 8);
     *  the later series are 0. */
    const known = (sums: Float64Array, i: number) => {
      expect([...sums.subarray(i + KNOWN, i + POINT_VALUES)].every((v) => v === 0)).toBe(true);
      return [...sums.subarray(i, i + KNOWN)];
    };
    // Each key's minutes read from its block (the asked key's own: the other one is left out).
    const minutesOf = async (asked: number, other: number) => {
      const { sums } = await readPoints(s, 60, teamId, [asked], [other], H, H + 3540);
      return (minute: number) => known(sums, ((minute - H) / 60) * POINT_VALUES);
    };
    const first = await minutesOf(k1, k2);
    // The last value: refused bytes, none before 0012.
    expect(first(H + 60)).toEqual([2 ** 40 + 1, 2 * (2 ** 40 + 1), 0, 4, 4, 0, 4, 0]);
    expect(first(H)).toEqual([3, 6, 0, 1, 0, 0, 1, 0]);
    expect(first(H + 120)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    const second = await minutesOf(k2, k1);
    expect(second(H + 60)).toEqual([10, 20, 0, 1, 0, 0, 1, 0]);
    expect(second(H + 180)).toEqual([7, 14, 0, 0, 3, 0, 3, 0]);
    // Both keys: the team's minute totals, from their blocks.
    const { sums: team } = await readPoints(s, 60, teamId, [k1, k2], [], H, H + 3540);
    expect(known(team, POINT_VALUES)).toEqual([2 ** 40 + 11, 2 * (2 ** 40 + 11), 0, 5, 4, 0, 5, 0]);

    // k1's hour from its block, beside the team's own peaks; k2 and the team's earlier hour had 12 viewers.
    const hours = await readPoints(s, 3600, teamId, [k1], [k2], H - 3600, H);
    expect([...known(hours.sums, 0), ...known(hours.sums, POINT_VALUES)]).toEqual([
      ...[0, 0, 0, 0, 0, 0, 0, 0],
      ...[2 ** 40 + 9, 2 * (2 ** 40 + 9), 0, 4, 4, 0, 4, 0],
    ]);
    expect([...(hours.teamPeaks ?? [])]).toEqual([8, 2, 0, 9, 5, 4, 0, 5]);
    expect(hours.othersViewers).toBe(12);

    const stored = await s
      .selectFrom('stats_minute_sessions')
      .select(['session_hash', 'series'])
      .where('key_id', '=', k1)
      .execute();
    expect(new Map(stored.map((r) => [r.session_hash, r.series]))).toEqual(
      new Map([
        [sessionHash('s1'), SERIES_BITS.cdn | SERIES_BITS.p2p],
        [sessionHash('s2'), SERIES_BITS.cdn],
        [sessionHash('s3'), SERIES_BITS.nodr],
      ]),
    );
    // A later flush of the same minute counts against the sessions kept before the migration.
    await writeBatch(s, [
      {
        keyId: k1,
        minute: H + 60,
        values: pointValues({ cdnBytes: 1, rejectedBytes: 5 }),
        sessions: new Map([
          ['s2', SERIES_BITS.cdn | SERIES_BITS.p2p],
          ['s4', SERIES_BITS.p2p],
        ]),
      },
    ]);
    const minute = await s
      .selectFrom('stats_minute')
      .select(['cdn_users', 'p2p_users', 'nodr_users', 'users'])
      .where('key_id', '=', k1)
      .where('minute', '=', H + 60)
      .executeTakeFirstOrThrow();
    expect(minute).toEqual({ cdn_users: 2, p2p_users: 3, nodr_users: 1, users: 4 });
    // The flush rewrote k1's block, in the layout of 0012 (refused bytes last).
    const after = await minutesOf(k1, k2);
    expect(after(H + 60)).toEqual([2 ** 40 + 2, 2 * (2 ** 40 + 1), 0, 2, 3, 1, 4, 5]);
    expect(after(H + 180)).toEqual([5, 10, 0, 1, 0, 0, 1, 0]);
  });
});
