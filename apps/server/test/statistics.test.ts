import {
  columnIndex,
  csvTime,
  INGEST_ERRORS,
  INGEST_MAX_SKEW_S,
  KeyStatus,
  MSG,
  PATHS,
  POINT_VALUES,
  Role,
  STATS_SETTINGS_INVALID_JSON,
  TIME_ZONES,
  ZStatsPoint,
  ZStatsResponse,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { updateKey } from '../src/features/domains/keys/queries.js';
import { statsDb } from '../src/features/statistics/tables.js';
import {
  buildDomain,
  buildIngestToken,
  buildKey,
  buildTeam,
  buildUser,
  QUIET,
  setTeamState,
} from './factories.js';
import { clickHouseQuery, type StoredTable, storedRows } from './helpers/clickhouse.js';
import { Api, type Json, type Res } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import {
  dropDatabase,
  freshDatabaseUrl,
  manualClock,
  onClickHouse,
  onPostgres,
  startServer,
  type TestServer,
} from './helpers/server.js';

// 45.5 minutes into an hour: the 20-minute bucket hh:40 and the hour hh:00 hold the recent minutes.
const HOUR = Math.floor(Date.now() / 3_600_000) * 3600;
const NOW = HOUR + 45 * 60 + 30;
const M = NOW - 30; // the current, open minute (hh:45)
const clock = manualClock(NOW * 1000);

let server: TestServer;
let api: Api;
/** While set, the flush's writes are refused (the retry test); the database itself still answers. */
let refuseWrites = false;

beforeAll(async () => {
  // Flushes only when a test asks (the timer's interval is far longer than the suite).
  server = await startServer({
    env: { STATS_INGEST_FLUSH_MS: '600000' },
    deps: {
      now: clock,
      statsWriter: (batch) =>
        refuseWrites ? Promise.reject(new Error('refused')) : server.app.ctx.statsStore.writeBatch(batch),
    },
  });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
});

interface R {
  apiKey: string;
  sessionId: string;
  ts: number;
  cdnBytes: number;
  p2pBytes: number;
  nodrBytes?: number;
}
const rep = (
  apiKey: string,
  sessionId: string,
  ts: number,
  cdnBytes: number,
  p2pBytes: number,
  nodrBytes?: number,
): R => ({
  apiKey,
  sessionId,
  ts,
  cdnBytes,
  p2pBytes,
  ...(nodrBytes === undefined ? {} : { nodrBytes }),
});

const ingest = (reports: unknown[], target: Api = api) => ingestAsBrowsers(target, reports);

/** A team with an active verified domain and one active key; `as` is its owner. */
async function setup() {
  const viewer = await buildUser(server.app);
  const team = await buildTeam(server.app, { roleOf: [{ user: viewer, role: Role.Viewer }] });
  const domain = await buildDomain(server.app, team.id, { promoted: true });
  const key = await buildKey(server.app, team.id, domain.id);
  return {
    team,
    domain,
    key,
    as: api.as(team.owner.token),
    viewer: api.as(viewer.token),
    viewerUser: viewer,
  };
}

/** The contract's answer with nothing more: the server writes the chart's JSON text itself
 *  (statsResponseJson), so every answer of these tests is held to the exact shape. */
const ZExactStatsResponse = ZStatsResponse.extend({ data: z.array(ZStatsPoint.strict()) }).strict();
function exactAnswer(res: Res<Json>) {
  if (res.status === 200) ZExactStatsResponse.parse(res.body);
  return res;
}

async function query(
  as: Api,
  range: 'day' | 'week' | 'month',
  teamId: number,
  apiKeys: string[],
  start = 0,
  end = NOW + 3600,
) {
  return exactAnswer(
    await as.post(PATHS.statistics[range], {
      apiKeys,
      startTimestamp: start,
      endTimestamp: end,
      team_id: teamId,
      clientId: 1,
    }),
  );
}
const live = async (as: Api, teamId: number, apiKeys: string[]) =>
  exactAnswer(
    await as.post(PATHS.statistics.live(teamId), {
      apiKeys,
      startTimestamp: 0,
      endTimestamp: NOW + 60,
      team_id: teamId,
    }),
  );

const at = (body: Json, t: number) => body.data.find((p: Json) => p.datePoint === t);

describe('ingest', () => {
  it('accepts valid reports and rejects the rest one by one with index and message', async () => {
    const s = await setup();
    const inactive = await buildKey(server.app, s.team.id, s.domain.id, { status: KeyStatus.Inactive });
    const offDomain = await buildDomain(server.app, s.team.id, { promoted: true, suspended: true });
    const offKey = await buildKey(server.app, s.team.id, offDomain.id);
    const suspendedTeam = await buildTeam(server.app);
    const stKey = await buildKey(server.app, suspendedTeam.id, null);
    await setTeamState(server.app, suspendedTeam.id, { suspended: 1 });
    const r = await ingest([
      rep(s.key.keyHash, 'a', M, 10, 0),
      rep('no-such-key', 'a', M, 10, 0),
      rep(inactive.keyHash, 'a', M, 10, 0),
      rep(offKey.keyHash, 'a', M, 10, 0),
      rep(stKey.keyHash, 'a', M, 10, 0),
      rep(s.key.keyHash, 'a', M, -1, 0),
      rep(s.key.keyHash, 'a', M, 1.5, 0),
      rep(s.key.keyHash, 'a', NOW - INGEST_MAX_SKEW_S - 1, 1, 0),
      rep(s.key.keyHash, 'a', NOW + INGEST_MAX_SKEW_S + 1, 1, 0),
      { apiKey: s.key.keyHash, ts: M, cdnBytes: 1, p2pBytes: 1 },
      rep(s.key.keyHash, 'b', NOW - INGEST_MAX_SKEW_S, 1, 0),
    ]);
    expect(r.status).toBe(202);
    expect(r.body.accepted).toBe(2);
    expect(r.body.rejected).toBe(9);
    expect(r.body.errors).toEqual([
      { index: 1, message: INGEST_ERRORS.unknownKey },
      { index: 2, message: INGEST_ERRORS.keyInactive },
      { index: 3, message: INGEST_ERRORS.domainInactive },
      { index: 4, message: INGEST_ERRORS.teamSuspended },
      { index: 5, message: 'cdnBytes: Must not be negative' },
      { index: 6, message: 'cdnBytes: Must be a whole number' },
      { index: 7, message: INGEST_ERRORS.skew },
      { index: 8, message: INGEST_ERRORS.skew },
      { index: 9, message: expect.stringContaining('sessionId') },
    ]);
  });

  it('answers 413 for a body over 1 MiB and 400 for a body without reports', async () => {
    const big = JSON.stringify({ reports: [{ pad: 'x'.repeat(1024 * 1024) }] });
    const r = await api.post(PATHS.statistics.ingest, big);
    expect(r.status).toBe(413);
    expect(r.body.message).toBe(MSG.payloadTooLarge);
    expect((await api.post(PATHS.statistics.ingest, { nope: 1 })).status).toBe(400);
    // Just under the limit is fine (ingest has its own 1 MiB, above the 256 KiB of other calls).
    const s = await setup();
    const reports = Array.from({ length: 6000 }, (_, i) => rep(s.key.keyHash, `s${i}`, M, 1, 0));
    const token = await buildIngestToken(server.app, s.team);
    const ok = await api.post(PATHS.statistics.ingest, { reports }, { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(202);
    expect(ok.body.accepted).toBe(6000);
  });
});

describe('query', () => {
  it('sums bytes and counts distinct viewers per minute, zero-filled, oldest first', async () => {
    const s = await setup();
    await ingest([
      rep(s.key.keyHash, 's1', M, 100, 50),
      rep(s.key.keyHash, 's1', M + 20, 10, 0), // same session twice in a minute: one viewer
      rep(s.key.keyHash, 's2', M + 5, 5, 0), // no p2p bytes: not a p2p viewer
      rep(s.key.keyHash, 's3', M - 60, 7, 3, 4),
    ]);
    await server.app.stats.flush();
    const r = await query(s.viewer, 'day', s.team.id, [s.key.keyHash], NOW - 600, NOW + 600);
    expect(r.status).toBe(200);
    expect(r.body.step).toBe(60);
    expect(r.body.startTimestamp).toBe(NOW - 600 - 30);
    expect(r.body.endTimestamp).toBe(M);
    expect(r.body.data.map((p: Json) => p.datePoint)).toEqual(
      Array.from({ length: 11 }, (_, i) => NOW - 630 + i * 60),
    );
    expect(at(r.body, M)).toEqual({
      ...QUIET,
      datePoint: M,
      cdnDwSize: 115,
      cdnUsersCount: 2,
      p2pDwSize: 50,
      p2pUsersCount: 1,
      usersCount: 2,
      rejectedDwSize: 0,
    });
    expect(at(r.body, M - 60)).toEqual({
      ...QUIET,
      datePoint: M - 60,
      cdnDwSize: 7,
      cdnUsersCount: 1,
      p2pDwSize: 3,
      p2pUsersCount: 1,
      usersCount: 1,
      rejectedDwSize: 0,
    });
    expect(at(r.body, M - 120)).toEqual({
      ...QUIET,
      datePoint: M - 120,
      cdnDwSize: 0,
      cdnUsersCount: 0,
      p2pDwSize: 0,
      p2pUsersCount: 0,
      usersCount: 0,
      rejectedDwSize: 0,
    });

    // A later flush: the same session is not counted again; a new one is.
    await ingest([rep(s.key.keyHash, 's1', M + 25, 1, 1), rep(s.key.keyHash, 's4', M + 25, 1, 1)]);
    await server.app.stats.flush();
    const r2 = await query(s.viewer, 'day', s.team.id, [s.key.keyHash], NOW - 600, NOW + 600);
    expect(at(r2.body, M)).toMatchObject({
      cdnDwSize: 117,
      cdnUsersCount: 3,
      p2pDwSize: 52,
      p2pUsersCount: 2,
      usersCount: 3,
      rejectedDwSize: 0,
    });

    // Version-1 teams get the nodr series.
    await server.app.ctx.db.updateTable('teams').set({ version: 1 }).where('id', '=', s.team.id).execute();
    const v1 = await query(s.as, 'day', s.team.id, [s.key.keyHash], NOW - 600, NOW + 600);
    expect(at(v1.body, M - 60)).toEqual({
      ...QUIET,
      datePoint: M - 60,
      cdnDwSize: 7,
      cdnUsersCount: 1,
      p2pDwSize: 3,
      p2pUsersCount: 1,
      nodrDwSize: 4,
      nodrUsersCount: 1,
      usersCount: 1,
      rejectedDwSize: 0,
    });
    expect(at(v1.body, M)).toMatchObject({ nodrDwSize: 0, nodrUsersCount: 0 });
  });

  it('sums over several keys; 20-minute and hourly points sum sizes and take the peak minute', async () => {
    const s = await setup();
    const k2 = await buildKey(server.app, s.team.id, s.domain.id);
    const b40 = HOUR + 40 * 60;
    const b20 = HOUR + 20 * 60;
    const reports: R[] = [];
    for (const id of ['a', 'b', 'c']) reports.push(rep(s.key.keyHash, id, b40 + 60, 10, 1)); // hh:41, 3 viewers
    for (const id of ['d', 'e']) reports.push(rep(k2.keyHash, id, b40 + 180, 10, 0)); // hh:43, 2 viewers
    for (const id of ['f', 'g', 'h', 'i', 'j']) reports.push(rep(s.key.keyHash, id, b20 + 18 * 60, 2, 2)); // hh:38, 5
    expect((await ingest(reports)).body.accepted).toBe(10);
    await server.app.stats.flush();
    const both = [s.key.keyHash, k2.keyHash];
    const week = await query(s.as, 'week', s.team.id, both);
    expect(week.body.step).toBe(1200);
    // Every key of the team: the team's own peak minute (hh:41, 3 viewers), not the keys' peaks summed
    // (3 + 2: the rollups keep one peak per key; statistics-team-peak.test.ts has the lists of some keys).
    expect(at(week.body, b40)).toEqual({
      ...QUIET,
      datePoint: b40,
      cdnDwSize: 50,
      cdnUsersCount: 3,
      p2pDwSize: 3,
      p2pUsersCount: 3,
      usersCount: 3,
      rejectedDwSize: 0,
    });
    expect(at(week.body, b20)).toEqual({
      ...QUIET,
      datePoint: b20,
      cdnDwSize: 10,
      cdnUsersCount: 5,
      p2pDwSize: 10,
      p2pUsersCount: 5,
      usersCount: 5,
      rejectedDwSize: 0,
    });
    expect(at(week.body, b20 - 1200)).toMatchObject({ cdnDwSize: 0, cdnUsersCount: 0 });
    const month = await query(s.as, 'month', s.team.id, both);
    expect(month.body.step).toBe(3600);
    expect(at(month.body, HOUR)).toEqual({
      ...QUIET,
      datePoint: HOUR,
      cdnDwSize: 60,
      cdnUsersCount: 5,
      p2pDwSize: 13,
      p2pUsersCount: 5,
      usersCount: 5,
      rejectedDwSize: 0,
    });
    // One key: the peak minute of the bucket exactly.
    const week1 = await query(s.as, 'week', s.team.id, [s.key.keyHash]);
    expect(at(week1.body, b40)).toEqual({
      ...QUIET,
      datePoint: b40,
      cdnDwSize: 30,
      cdnUsersCount: 3,
      p2pDwSize: 3,
      p2pUsersCount: 3,
      usersCount: 3,
      rejectedDwSize: 0,
    });
    const month1 = await query(s.as, 'month', s.team.id, [s.key.keyHash]);
    expect(at(month1.body, HOUR)).toEqual({
      ...QUIET,
      datePoint: HOUR,
      cdnDwSize: 40,
      cdnUsersCount: 5,
      p2pDwSize: 13,
      p2pUsersCount: 5,
      usersCount: 5,
      rejectedDwSize: 0,
    });
    const day = await query(s.as, 'day', s.team.id, both);
    expect(at(day.body, b40 + 60)).toMatchObject({ cdnDwSize: 30, cdnUsersCount: 3, usersCount: 3 });
    expect(at(day.body, b40 + 180)).toMatchObject({ cdnDwSize: 20, cdnUsersCount: 2, usersCount: 2 });
  });

  it("most of a team's keys (read as the team total less the rest) give the sums of each key alone; all of them the team's peak viewers", async () => {
    const s = await setup();
    const keys = [s.key];
    for (let i = 0; i < 3; i++) keys.push(await buildKey(server.app, s.team.id, s.domain.id));
    const switchedOff = await buildKey(server.app, s.team.id, s.domain.id);
    keys.push(switchedOff);
    // Five keys with different audiences over two hours, 20-minute buckets and several minutes.
    // History older than ingest's 10-minute window goes through the aggregator, as the backfill does.
    const minutes = [M, M - 60, M - 5 * 60, M - 25 * 60, M - 50 * 60, M - 100 * 60];
    keys.forEach((k, ki) => {
      minutes.forEach((m, mi) => {
        for (let v = 0; v < ((ki * 3 + mi * 5) % 7) + 1; v++) {
          server.app.stats.aggregator.add(k.id, m + v, `v${v}`, {
            cdnBytes: 100 * (ki + 1) + v,
            p2pBytes: v % 3 === 0 ? 0 : 50 * mi,
            rejectedBytes: v % 2 === 1 ? 9 * (ki + 1) : 0,
          });
        }
        // What the integrity service fetched for the key: counted by the server, no viewer.
        if (mi % 2 === 0)
          server.app.stats.aggregator.addCount(k.id, m, columnIndex('verifyBytes'), 7 * (ki + 1) + mi);
      });
    });
    await server.app.stats.flush();
    // A key switched off keeps its history; the "Active traffic" list asks for the other four.
    await updateKey(server.app.ctx.db, s.team.id, switchedOff.id, { status: KeyStatus.Inactive });
    const hashes = keys.map((k) => k.keyHash);
    // Minutes are exact for any keys: the team's own peak of a 20-minute or hourly point is read off them.
    const minutesOfAll = (await query(s.as, 'day', s.team.id, hashes)).body.data as Json[];
    const teamPeak = (t: number, step: number, f: string) =>
      Math.max(0, ...minutesOfAll.filter((p) => p.datePoint >= t && p.datePoint < t + step).map((p) => p[f]));
    for (const range of ['day', 'week', 'month'] as const) {
      const alone = await Promise.all(
        hashes.map(async (h) => (await query(s.as, range, s.team.id, [h])).body),
      );
      const step = alone[0].step as number;
      const expected = (idx: number[]) =>
        alone[0].data.map((p: Json, i: number) => {
          const sum = (f: string) => idx.reduce((n, k) => n + alone[k].data[i][f], 0);
          // The other keys had viewers in the window: the asked keys' own peaks, summed.
          const users = (f: string) =>
            idx.length === keys.length && step > 60 ? teamPeak(p.datePoint, step, f) : sum(f);
          return {
            datePoint: p.datePoint,
            cdnDwSize: sum('cdnDwSize'),
            cdnUsersCount: users('cdnUsersCount'),
            p2pDwSize: sum('p2pDwSize'),
            p2pUsersCount: users('p2pUsersCount'),
            usersCount: users('usersCount'),
            rejectedDwSize: sum('rejectedDwSize'),
            playMs: sum('playMs'),
            stallMs: sum('stallMs'),
            plays: sum('plays'),
            failures: sum('failures'),
            p2pCeilingSize: sum('p2pCeilingSize'),
            startupP50Ms: 0,
            startupP95Ms: 0,
            verifyDwSize: sum('verifyDwSize'),
            p2pCrossDwSize: sum('p2pCrossDwSize'),
          };
        });
      // All five (team total), four (total less one), three (total less two), two and one (summed).
      for (const idx of [[0, 1, 2, 3, 4], [0, 1, 2, 3], [1, 3, 4], [2, 4], [3]]) {
        const r = await query(s.as, range, s.team.id, [
          ...idx.map((k) => hashes[k] ?? ''),
          'not-a-key-of-this-team',
        ]);
        expect(r.status).toBe(200);
        expect(r.body.data).toEqual(expected(idx));
      }
      if (step > 60) {
        // The keys' peaks fall in different minutes: the team's peak is below their sum somewhere.
        const all = expected([0, 1, 2, 3, 4]);
        const summed = alone[0].data.map((_: Json, i: number) =>
          alone.reduce((n: number, a: Json) => n + a.data[i].usersCount, 0),
        );
        expect(all.some((p: Json, i: number) => p.usersCount < summed[i])).toBe(true);
      }
      // Something was counted in each range, so the comparison is not between zeros.
      expect(expected([0, 1, 2, 3, 4]).some((p: Json) => p.usersCount > 0 && p.p2pDwSize > 0)).toBe(true);
      expect(expected([0, 1, 2, 3, 4]).some((p: Json) => p.rejectedDwSize > 0)).toBe(true);
    }
  });

  it('clamps the window to the range ending at server time, aligned to the step', async () => {
    const s = await setup();
    const cases = [
      ['day', 86_400, 60],
      ['week', 604_800, 1200],
      ['month', 2_592_000, 3600],
    ] as const;
    for (const [range, window, step] of cases) {
      const r = await query(s.as, range, s.team.id, [s.key.keyHash], 0, NOW + 86_400);
      const from = NOW - window - ((NOW - window) % step);
      const to = NOW - (NOW % step);
      expect(r.body).toMatchObject({ step, startTimestamp: from, endTimestamp: to });
      expect(r.body.data).toHaveLength((to - from) / step + 1);
      expect(r.body.data[0].datePoint).toBe(from);
      expect(r.body.data.at(-1).datePoint).toBe(to);
    }
    // A window entirely in the past of the range answers no points.
    const old = await query(s.as, 'day', s.team.id, [s.key.keyHash], 0, NOW - 90_000);
    expect(old.body.data).toEqual([]);
  });

  it('never shows keys of other teams, and 404s for a team the caller is not in', async () => {
    const a = await setup();
    const b = await setup();
    await ingest([rep(b.key.keyHash, 'x', M, 999, 999)]);
    await server.app.stats.flush();
    const r = await query(a.as, 'day', a.team.id, [b.key.keyHash], NOW - 300, NOW);
    expect(r.status).toBe(200);
    expect(r.body.data.every((p: Json) => p.cdnDwSize === 0 && p.cdnUsersCount === 0)).toBe(true);
    const lv = await live(a.as, a.team.id, [b.key.keyHash]);
    expect(lv.body.data.every((p: Json) => p.cdnDwSize === 0)).toBe(true);
    expect((await query(a.as, 'day', b.team.id, [b.key.keyHash])).status).toBe(404);
    expect((await live(a.as, b.team.id, [b.key.keyHash])).status).toBe(404);
    expect(
      (
        await api.post(PATHS.statistics.day, {
          apiKeys: [],
          startTimestamp: 0,
          endTimestamp: 1,
          team_id: a.team.id,
        })
      ).status,
    ).toBe(401);
    // A supervisor may read any team.
    const sup = await buildUser(server.app, { supervisor: true });
    const bySup = await query(api.as(sup.token), 'day', b.team.id, [b.key.keyHash], NOW - 300, NOW);
    expect(at(bySup.body, M)).toMatchObject({ cdnDwSize: 999 });
  });

  it('live covers the last 300 s at 60 s steps including the unflushed current minute', async () => {
    const s = await setup();
    await ingest([rep(s.key.keyHash, 'l1', M - 120, 40, 60), rep(s.key.keyHash, 'l1', M + 1, 4, 6)]);
    await server.app.stats.flush();
    await ingest([rep(s.key.keyHash, 'l1', M + 2, 1, 1), rep(s.key.keyHash, 'l2', M + 3, 1, 0)]);
    const r = await live(s.viewer, s.team.id, [s.key.keyHash]);
    expect(r.status).toBe(200);
    expect(r.body.step).toBe(60);
    expect(r.body.data.map((p: Json) => p.datePoint)).toEqual([
      M - 300,
      M - 240,
      M - 180,
      M - 120,
      M - 60,
      M,
    ]);
    expect(at(r.body, M - 120)).toMatchObject({
      cdnDwSize: 40,
      cdnUsersCount: 1,
      p2pDwSize: 60,
      p2pUsersCount: 1,
    });
    // Flushed (4, 6; l1) plus unflushed (2, 1; l1 again and the new l2).
    expect(at(r.body, M)).toEqual({
      ...QUIET,
      datePoint: M,
      cdnDwSize: 6,
      cdnUsersCount: 2,
      p2pDwSize: 7,
      p2pUsersCount: 1,
      usersCount: 2,
      rejectedDwSize: 0,
    });
    // The day range merges the open minute too; after the flush the same numbers come from the table.
    expect(at((await query(s.as, 'day', s.team.id, [s.key.keyHash], NOW - 600, NOW)).body, M)).toMatchObject({
      cdnDwSize: 6,
      cdnUsersCount: 2,
    });
    await server.app.stats.flush();
    expect(at((await live(s.viewer, s.team.id, [s.key.keyHash])).body, M)).toEqual(at(r.body, M));
  });

  it('answers the same points as text/csv with ?format=csv (time in the team zone and Unix seconds)', async () => {
    const s = await setup();
    const kolkata = TIME_ZONES.find((z) => z.name === 'Asia/Kolkata')?.id ?? 0;
    await server.app.ctx.db
      .updateTable('teams')
      .set({ time_zone_id: kolkata })
      .where('id', '=', s.team.id)
      .execute();
    await ingest([rep(s.key.keyHash, 'c1', M - 60, 700, 300), rep(s.key.keyHash, 'c2', M + 1, 5, 0)]);
    await server.app.stats.flush();
    const body = {
      apiKeys: [s.key.keyHash],
      startTimestamp: NOW - 180,
      endTimestamp: NOW,
      team_id: s.team.id,
    };
    const json = await query(s.viewer, 'day', s.team.id, [s.key.keyHash], NOW - 180, NOW);
    const csv = await s.viewer.post(`${PATHS.statistics.day}?format=csv`, body);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (csv.body as unknown as string).split('\r\n');
    // The JSON's own field names, every one of them (the breakdown CSV's columns after its name).
    expect(lines[0]).toBe(
      'time,timestamp,cdnDwSize,p2pDwSize,cdnUsersCount,p2pUsersCount,usersCount,rejectedDwSize,playMs,stallMs,plays,failures,p2pCeilingSize,startupP50Ms,startupP95Ms,verifyDwSize,p2pCrossDwSize',
    );
    const fields = (lines[0] as string).split(',').slice(2);
    expect(lines.slice(1, -1)).toEqual(
      json.body.data.map((p: Json) =>
        [csvTime(p.datePoint, 5.5), p.datePoint, ...fields.map((f) => p[f])].join(','),
      ),
    );
    const t = new Date((M - 60 + 5.5 * 3600) * 1000).toISOString().slice(0, 19);
    expect(lines.find((l) => l.startsWith(`${t}+05:30,${M - 60},`))).toMatch(/^[^,]+,\d+,700,300,1,1,1,0,/);
    // Live answers CSV too; JSON stays the default (and format=json).
    const l = await s.viewer.post(`${PATHS.statistics.live(s.team.id)}?format=csv`, body);
    const liveAt = `${new Date((M + 5.5 * 3600) * 1000).toISOString().slice(0, 19)}+05:30,${M},`;
    expect((l.body as unknown as string).split('\r\n').find((x) => x.startsWith(liveAt))).toMatch(
      /^[^,]+,\d+,5,0,1,0,1,0,/,
    );
    expect((await s.viewer.post(`${PATHS.statistics.week}?format=json`, body)).body.step).toBe(1200);
    expect((await s.viewer.post(`${PATHS.statistics.week}?format=xml`, body)).status).toBe(400);
  });

  it('retries a refused flush without counting anything twice', async () => {
    const s = await setup();
    await ingest([rep(s.key.keyHash, 'f1', M, 100, 10), rep(s.key.keyHash, 'f2', M, 100, 0)]);
    refuseWrites = true;
    await server.app.stats.flush();
    refuseWrites = false;
    expect(server.app.stats.aggregator.pendingCount).toBeGreaterThan(0);
    await ingest([rep(s.key.keyHash, 'f1', M + 1, 1, 1)]);
    await server.app.stats.flush();
    await server.app.stats.flush();
    expect(server.app.stats.aggregator.pendingCount).toBe(0);
    const r = await query(s.as, 'day', s.team.id, [s.key.keyHash], NOW - 120, NOW);
    expect(at(r.body, M)).toEqual({
      ...QUIET,
      datePoint: M,
      cdnDwSize: 201,
      cdnUsersCount: 2,
      p2pDwSize: 11,
      p2pUsersCount: 1,
      usersCount: 2,
      rejectedDwSize: 0,
    });
  });

  it('validates the query body (400 naming the field)', async () => {
    const s = await setup();
    const r = await s.as.post(PATHS.statistics.day, {
      apiKeys: 'x',
      startTimestamp: 0,
      endTimestamp: 1,
      team_id: s.team.id,
    });
    expect(r.status).toBe(400);
    expect(r.body.errors.apiKeys).toBeTruthy();
  });
});

describe('two nodes on one PostgreSQL', () => {
  it.runIf(onPostgres)('ingesting into the same minute gives exact sums and distinct viewers', async () => {
    const s = await setup();
    const other = await startServer({
      databaseUrl: server.databaseUrl,
      env: { STATS_INGEST_FLUSH_MS: '600000' },
      deps: { now: clock },
    });
    try {
      const api2 = new Api(other.base);
      // v1..v6 on node 1, v4..v9 on node 2: 9 distinct viewers, 12 reports of 10 bytes.
      const one = ['v1', 'v2', 'v3', 'v4', 'v5', 'v6'].map((id) => rep(s.key.keyHash, id, M, 10, 5));
      const two = ['v4', 'v5', 'v6', 'v7', 'v8', 'v9'].map((id) => rep(s.key.keyHash, id, M + 1, 10, 0));
      await Promise.all([ingest(one), ingest(two, api2)]);
      await Promise.all([server.app.stats.flush(), other.app.stats.flush()]);
      await Promise.all([
        ingest([rep(s.key.keyHash, 'v1', M + 2, 1, 0)], api2),
        ingest([rep(s.key.keyHash, 'v9', M + 2, 1, 0)]),
      ]);
      await Promise.all([server.app.stats.flush(), other.app.stats.flush()]);
      for (const node of [api, api2]) {
        const r = await query(node.as(s.team.owner.token), 'day', s.team.id, [s.key.keyHash], NOW - 60, NOW);
        expect(at(r.body, M)).toEqual({
          ...QUIET,
          datePoint: M,
          cdnDwSize: 122,
          cdnUsersCount: 9,
          p2pDwSize: 30,
          p2pUsersCount: 6,
          usersCount: 9,
          rejectedDwSize: 0,
        });
        const w = await query(node.as(s.team.owner.token), 'week', s.team.id, [s.key.keyHash]);
        expect(at(w.body, HOUR + 2400)).toMatchObject({ cdnDwSize: 122, cdnUsersCount: 9, usersCount: 9 });
      }
    } finally {
      await other.app.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('writes the unflushed aggregates when the server closes', async () => {
    const databaseUrl = await freshDatabaseUrl();
    try {
      const env = { STATS_INGEST_FLUSH_MS: '600000' };
      const first = await startServer({ databaseUrl, env, deps: { now: clock } });
      const team = await buildTeam(first.app);
      const key = await buildKey(first.app, team.id, null);
      const r = await ingestAsBrowsers(new Api(first.base), [
        rep(key.keyHash, 'g1', M, 70, 30),
        rep(key.keyHash, 'g2', M, 5, 0),
      ]);
      expect(r.body.accepted).toBe(2);
      await first.app.close();
      const second = await startServer({ databaseUrl, env, deps: { now: clock } });
      try {
        const q = await query(
          new Api(second.base).as(team.owner.token),
          'day',
          team.id,
          [key.keyHash],
          NOW - 60,
          NOW,
        );
        expect(at(q.body, M)).toEqual({
          ...QUIET,
          datePoint: M,
          cdnDwSize: 75,
          cdnUsersCount: 2,
          p2pDwSize: 30,
          p2pUsersCount: 1,
          usersCount: 2,
          rejectedDwSize: 0,
        });
      } finally {
        await second.app.close();
      }
    } finally {
      await dropDatabase(databaseUrl);
    }
  });
});

describe('retention', () => {
  // The database's tables and their packed blocks, written directly (on ClickHouse neither is used:
  // the variant below).
  it.skipIf(onClickHouse)(
    'deletes minutes after 2 days, 20-minute rows after 62 days, hours after 2 years; team totals and blocks too',
    async () => {
      const db = statsDb(server.app.ctx.db);
      const keyId = 900_000 + Math.floor(Math.random() * 1000);
      const row = { cdn_bytes: 1, p2p_bytes: 1, nodr_bytes: 0, cdn_users: 1, p2p_users: 1, nodr_users: 0 };
      const day = 86_400;
      await db
        .insertInto('stats_minute')
        .values([
          { key_id: keyId, minute: NOW - 2 * day - 60, ...row },
          { key_id: keyId, minute: NOW - 2 * day + 60, ...row },
        ])
        .execute();
      await db
        .insertInto('stats_20m')
        .values([
          { key_id: keyId, bucket: NOW - 62 * day - 1200, ...row },
          { key_id: keyId, bucket: NOW - 62 * day + 1200, ...row },
        ])
        .execute();
      await db
        .insertInto('stats_hour')
        .values([
          { key_id: keyId, bucket: NOW - 730 * day - 3600, ...row },
          { key_id: keyId, bucket: NOW - 730 * day + 3600, ...row },
        ])
        .execute();
      const team = await buildTeam(server.app);
      await db
        .insertInto('stats_team_minute')
        .values([
          { team_id: team.id, minute: NOW - 2 * day - 60, ...row },
          { team_id: team.id, minute: NOW - 2 * day + 60, ...row },
        ])
        .execute();
      for (const [table, keep] of [
        ['stats_team_20m', 62 * day],
        ['stats_team_hour', 730 * day],
      ] as const) {
        await db
          .insertInto(table)
          .values([
            { team_id: team.id, bucket: NOW - keep - 3600, ...row },
            { team_id: team.id, bucket: NOW - keep + 3600, ...row },
          ])
          .execute();
      }
      // A block goes with the last of its points: one span older than its points' retention, one newer.
      const blocks = [
        ['stats_minute_blocks', 2 * day, 3600],
        ['stats_20m_blocks', 62 * day, day],
        ['stats_hour_blocks', 730 * day, 3 * day],
      ] as const;
      for (const [table, keep, span] of blocks) {
        const points = Buffer.alloc(0);
        await db
          .insertInto(table)
          .values([
            { key_id: keyId, start: NOW - keep - span - 60, drawn: points, points },
            { key_id: keyId, start: NOW - keep - span + 60, drawn: points, points },
          ])
          .execute();
      }
      await server.app.stats.prune(NOW * 1000);
      for (const [table] of blocks) {
        const starts = await db.selectFrom(table).select('start').where('key_id', '=', keyId).execute();
        expect(starts.map((r) => Number(r.start))).toHaveLength(1);
      }
      const left = async (t: 'stats_minute' | 'stats_20m' | 'stats_hour') =>
        (await db.selectFrom(t).select('key_id').where('key_id', '=', keyId).execute()).length;
      const teamLeft = async (t: 'stats_team_minute' | 'stats_team_20m' | 'stats_team_hour') =>
        (await db.selectFrom(t).select('team_id').where('team_id', '=', team.id).execute()).length;
      expect([await left('stats_minute'), await left('stats_20m'), await left('stats_hour')]).toEqual([
        1, 1, 1,
      ]);
      expect([
        await teamLeft('stats_team_minute'),
        await teamLeft('stats_team_20m'),
        await teamLeft('stats_team_hour'),
      ]).toEqual([1, 1, 1]);
      // One day later the remaining minute goes too.
      await server.app.stats.prune((NOW + day) * 1000);
      expect(await left('stats_minute')).toBe(0);
      expect(await teamLeft('stats_team_minute')).toBe(0);
    },
  );

  // ClickHouse drops whole partitions (schema.ts: minutes by UTC day, the rest by UTC month): a row goes
  // once its partition ended before the retention's edge. Written through the store at old minutes, as
  // a flush writes them (its rollups and team totals with them).
  it.skipIf(!onClickHouse)(
    'on ClickHouse drops the days of minutes older than 2 days, the months of 20-minute points older than 62 days and of hours older than 2 years; team totals too',
    async () => {
      const day = 86_400;
      const team = await buildTeam(server.app);
      const key = await buildKey(server.app, team.id, null);
      const floor = (t: number, step: number) => Math.floor(t / step) * step;
      const monthStart = (t: number) => {
        const d = new Date(t * 1000);
        return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
      };
      // At each retention's edge: the last minute of the last partition that ended before it, and the
      // first minute after it (its partition still open then).
      const at = {
        recent: floor(NOW, 60) - 60,
        minuteGone: floor(NOW - 2 * day, day) - 60,
        minuteKept: floor(NOW - 2 * day, 60) + 60,
        twentyGone: monthStart(NOW - 62 * day) - 60,
        twentyKept: floor(NOW - 62 * day, 60) + 60,
        hourGone: monthStart(NOW - 730 * day) - 60,
        hourKept: floor(NOW - 730 * day, 60) + 60,
      };
      const cdn = columnIndex('cdnBytes');
      await server.app.ctx.statsStore.writeBatch(
        Object.values(at).map((minute) => {
          const values = new Float64Array(POINT_VALUES);
          values[cdn] = 1;
          return { keyId: key.id, minute, values, sessions: new Map([['viewer', 0]]) };
        }),
      );
      const times = async (table: StoredTable) => {
        const column = table.endsWith('minute') ? 'minute' : 'bucket';
        const rows = await storedRows(server, table, [column], { keyIds: [key.id], teamId: team.id });
        return rows.map((r) => r[column]);
      };
      /** The buckets of `step` seconds of those minutes, oldest first. */
      const buckets = (step: number, minutes: number[]) =>
        [...new Set(minutes.map((m) => floor(m, step)))].sort((a, b) => a - b);
      /** The minutes of the key still in ClickHouse's own minute tables (sums and viewers). */
      const minuteTables = async () => {
        const q = (table: string) =>
          clickHouseQuery(
            server.clickhouseUrl ?? '',
            `select distinct minute from ${table} where key_id = ${key.id} order by minute format TabSeparated`,
          ).then((t) => t.split('\n').filter(Boolean).map(Number));
        return [await q('stats_minute'), await q('stats_minute_viewers')];
      };
      const all = Object.values(at);
      expect(await times('stats_minute')).toEqual(buckets(60, all));
      expect(await times('stats_20m')).toEqual(buckets(1200, all));
      expect(await times('stats_hour')).toEqual(buckets(3600, all));
      expect(await times('stats_team_hour')).toEqual(buckets(3600, all));

      const dropped = await server.app.stats.prune(NOW * 1000);
      expect(dropped.stats_minute_points).toBeGreaterThanOrEqual(3);
      const minutes = buckets(60, [at.minuteKept, at.recent]);
      const twenty = buckets(1200, [at.minuteGone, at.minuteKept, at.twentyKept, at.recent]);
      const hours = buckets(3600, [
        at.minuteGone,
        at.minuteKept,
        at.twentyGone,
        at.twentyKept,
        at.hourKept,
        at.recent,
      ]);
      expect(await minuteTables()).toEqual([minutes, minutes]);
      for (const [table, kept] of [
        ['stats_minute', minutes],
        ['stats_team_minute', minutes],
        ['stats_20m', twenty],
        ['stats_team_20m', twenty],
        ['stats_hour', hours],
        ['stats_team_hour', hours],
      ] as const) {
        expect([table, await times(table)]).toEqual([table, kept]);
      }
      // One day later the minutes of that day go too; the recent one stays.
      await server.app.stats.prune((NOW + day) * 1000);
      const recent = buckets(60, [at.recent]);
      expect(await times('stats_minute')).toEqual(recent);
      expect(await times('stats_team_minute')).toEqual(recent);
      expect(await minuteTables()).toEqual([recent, recent]);
    },
  );
});

describe('saved lists', () => {
  const put = (as: Api, userId: number, teamId: number, save_json: string) =>
    as.post(PATHS.statistics.saveLists(userId, teamId), { user_id: userId, team_id: teamId, save_json });

  it('answers {tabs: []} until saved, then the saved tabs; per user and team', async () => {
    const s = await setup();
    const get = await s.viewer.post(PATHS.statistics.readLists(s.viewerUser.id, s.team.id));
    expect(get.status).toBe(200);
    expect(get.body.data).toEqual({ tabs: [] });
    const tabs = [
      { nameTab: 'Main', activeKeys: [s.key.keyHash] },
      { nameTab: 'Other', activeKeys: [] },
    ];
    const r = await put(s.viewer, s.viewerUser.id, s.team.id, JSON.stringify({ tabs }));
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ tabs });
    expect((await s.viewer.post(PATHS.statistics.readLists(s.viewerUser.id, s.team.id))).body.data).toEqual({
      tabs,
    });
    expect((await s.as.post(PATHS.statistics.readLists(s.team.owner.id, s.team.id))).body.data).toEqual({
      tabs: [],
    });
    const r2 = await put(s.viewer, s.viewerUser.id, s.team.id, JSON.stringify({ tabs: [tabs[1]] }));
    expect(r2.body.data.tabs).toHaveLength(1);
  });

  it('validates: JSON, at most 8 tabs, names of 30 characters; own user and own team only', async () => {
    const s = await setup();
    const me = s.team.owner.id;
    const bad = await put(s.as, me, s.team.id, '{not json');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.save_json).toBe(STATS_SETTINGS_INVALID_JSON);
    const tab = { nameTab: 'x', activeKeys: [] };
    const nine = await put(s.as, me, s.team.id, JSON.stringify({ tabs: Array(9).fill(tab) }));
    expect(nine.status).toBe(400);
    expect(nine.body.errors['save_json.tabs']).toBe('At most 8 lists');
    expect((await put(s.as, me, s.team.id, JSON.stringify({ tabs: Array(8).fill(tab) }))).status).toBe(200);
    const long = await put(
      s.as,
      me,
      s.team.id,
      JSON.stringify({ tabs: [{ nameTab: 'y'.repeat(31), activeKeys: [] }] }),
    );
    expect(long.status).toBe(400);
    expect(long.body.errors['save_json.tabs.0.nameTab']).toBe('Maximum 30 symbols are allowed');
    expect((await put(s.as, s.viewerUser.id, s.team.id, JSON.stringify({ tabs: [] }))).status).toBe(403);
    expect((await s.as.post(PATHS.statistics.readLists(s.viewerUser.id, s.team.id))).status).toBe(403);
    const other = await setup();
    expect((await put(s.as, me, other.team.id, JSON.stringify({ tabs: [] }))).status).toBe(404);
  });
});
