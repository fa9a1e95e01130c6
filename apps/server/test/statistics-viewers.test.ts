import { PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MinuteAgg } from '../src/features/statistics/aggregator.js';
import { buildKey, buildTeam, SERIES_BITS } from './factories.js';
import { Api, type Json } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { manualClock, startServer, type TestServer } from './helpers/server.js';

// Issue 12: usersCount, the distinct sessions with any bytes, beside the per-series counts (docs/DESIGN.md §7).
// 45.5 minutes into an hour: the 20-minute bucket hh:40 and the hour hh:00 hold the recent minutes.
const HOUR = Math.floor(Date.now() / 3_600_000) * 3600;
const NOW = HOUR + 45 * 60 + 30;
const M = NOW - 30;
const clock = manualClock(NOW * 1000);

let server: TestServer;
let api: Api;
let refuseWrites = false;
/** Every key-minute handed to the writer. */
const written: MinuteAgg[] = [];

beforeAll(async () => {
  server = await startServer({
    env: { STATS_INGEST_FLUSH_MS: '600000' },
    deps: {
      now: clock,
      statsWriter: (batch) => {
        written.push(...batch);
        return refuseWrites
          ? Promise.reject(new Error('refused'))
          : server.app.ctx.statsStore.writeBatch(batch);
      },
    },
  });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
});

const rep = (apiKey: string, sessionId: string, ts: number, cdnBytes: number, p2pBytes: number) => ({
  apiKey,
  sessionId,
  ts,
  cdnBytes,
  p2pBytes,
});
const ingest = async (reports: unknown[]) => {
  const r = await ingestAsBrowsers(api, reports);
  expect(r.body.rejected).toBe(0);
};
const flush = () => server.app.stats.flush();

async function setup(keys = 1) {
  const team = await buildTeam(server.app);
  const list = [];
  for (let i = 0; i < keys; i++) list.push(await buildKey(server.app, team.id, null));
  return { team, keys: list, as: api.as(team.owner.token) };
}

type Range = 'day' | 'week' | 'month';
async function query(as: Api, range: Range, teamId: number, apiKeys: string[]) {
  const r = await as.post(PATHS.statistics[range], {
    apiKeys,
    startTimestamp: 0,
    endTimestamp: NOW + 3600,
    team_id: teamId,
    clientId: 1,
  });
  expect(r.status).toBe(200);
  return r.body;
}
const live = async (as: Api, teamId: number, apiKeys: string[]) =>
  (
    await as.post(PATHS.statistics.live(teamId), {
      apiKeys,
      startTimestamp: 0,
      endTimestamp: NOW + 60,
      team_id: teamId,
    })
  ).body;
const at = (body: Json, t: number) => body.data.find((p: Json) => p.datePoint === t);
const viewers = (p: Json) => [p.cdnUsersCount, p.p2pUsersCount, p.usersCount];

describe('distinct viewers (usersCount)', () => {
  it('counts a session fed by both the CDN and peers once, and in both series', async () => {
    const s = await setup();
    const h = s.keys[0]?.keyHash ?? '';
    await ingest([
      rep(h, 'both', M - 60, 100, 50),
      rep(h, 'both', M, 100, 0),
      rep(h, 'both', M + 10, 0, 70),
      rep(h, 'cdn-only', M + 5, 30, 0),
      rep(h, 'silent', M + 6, 0, 0), // no bytes: nobody's audience
    ]);
    await flush();
    const day = await query(s.as, 'day', s.team.id, [h]);
    expect(viewers(at(day, M - 60))).toEqual([1, 1, 1]);
    expect(viewers(at(day, M))).toEqual([2, 1, 2]);
    expect(viewers(at(day, M - 120))).toEqual([0, 0, 0]);
  });

  it('keeps counting a session once in the open minute across flushes, refused ones included', async () => {
    const s = await setup();
    const h = s.keys[0]?.keyHash ?? '';
    await ingest([rep(h, 'a', M, 10, 10)]);
    await flush();
    // Unflushed: `a` again (already written) and `b`, new.
    await ingest([rep(h, 'a', M + 1, 5, 5), rep(h, 'b', M + 2, 0, 5)]);
    expect(viewers(at(await live(s.as, s.team.id, [h]), M))).toEqual([1, 2, 2]);
    expect(viewers(at(await query(s.as, 'day', s.team.id, [h]), M))).toEqual([1, 2, 2]);
    // A refused flush keeps its sessions for the next one; the live merge still counts each once.
    refuseWrites = true;
    try {
      await flush();
    } finally {
      refuseWrites = false;
    }
    await ingest([rep(h, 'b', M + 3, 1, 1), rep(h, 'c', M + 4, 1, 1)]);
    expect(viewers(at(await live(s.as, s.team.id, [h]), M))).toEqual([3, 3, 3]);
    await flush();
    await flush();
    expect(server.app.stats.aggregator.pendingCount).toBe(0);
    expect(viewers(at(await live(s.as, s.team.id, [h]), M))).toEqual([3, 3, 3]);
    await ingest([rep(h, 'a', M + 5, 1, 0), rep(h, 'c', M + 6, 0, 1)]);
    expect(viewers(at(await live(s.as, s.team.id, [h]), M))).toEqual([3, 3, 3]);
    await flush();
    expect(viewers(at(await query(s.as, 'day', s.team.id, [h]), M))).toEqual([3, 3, 3]);
  });

  it("gives 20-minute and hourly points their peak minute's viewers, not the largest series", async () => {
    const s = await setup();
    const key = s.keys[0];
    if (!key) throw new Error('no key');
    const b40 = HOUR + 40 * 60;
    const add = (minute: number, id: string, cdn: number, p2p: number) =>
      server.app.stats.aggregator.add(key.id, minute + 7, id, { cdnBytes: cdn, p2pBytes: p2p });
    // hh:41: four sessions fed by both (4 in each series, 4 viewers).
    for (const id of ['a', 'b', 'c', 'd']) add(b40 + 60, id, 10, 10);
    // hh:43: three on the CDN only and three on peers only (3 in each series, 6 viewers).
    for (const id of ['e', 'f', 'g']) add(b40 + 180, id, 10, 0);
    for (const id of ['h', 'i', 'j']) add(b40 + 180, id, 0, 10);
    // hh:25: five fed by both.
    for (const id of ['k', 'l', 'm', 'n', 'o']) add(HOUR + 25 * 60, id, 1, 1);
    await flush();
    const h = [key.keyHash];
    const day = await query(s.as, 'day', s.team.id, h);
    expect(viewers(at(day, b40 + 60))).toEqual([4, 4, 4]);
    expect(viewers(at(day, b40 + 180))).toEqual([3, 3, 6]);
    const week = await query(s.as, 'week', s.team.id, h);
    expect(viewers(at(week, b40))).toEqual([4, 4, 6]);
    expect(viewers(at(week, HOUR + 1200))).toEqual([5, 5, 5]);
    const month = await query(s.as, 'month', s.team.id, h);
    expect(viewers(at(month, HOUR))).toEqual([5, 5, 6]);
  });

  it("reads the same viewers from team totals less left-out keys and keys summed; all keys: the team's peak", async () => {
    const s = await setup(3);
    const minutes = [M, M - 60, M - 7 * 60, M - 30 * 60, M - 70 * 60];
    s.keys.forEach((k, ki) => {
      minutes.forEach((m, mi) => {
        const n = ((ki * 2 + mi * 3) % 5) + 1;
        for (let v = 0; v < n; v++) {
          // Some on both, some on one of them: the series overlap by a varying amount.
          const kind = (v + ki + mi) % 3;
          server.app.stats.aggregator.add(k.id, m + v, `v${v}`, {
            cdnBytes: kind === 2 ? 0 : 10,
            p2pBytes: kind === 1 ? 0 : 5,
          });
        }
      });
    });
    await flush();
    const hashes = s.keys.map((k) => k.keyHash);
    const minutesOfAll = (await query(s.as, 'day', s.team.id, hashes)).data as Json[];
    for (const range of ['day', 'week', 'month'] as const) {
      const alone = await Promise.all(hashes.map((h) => query(s.as, range, s.team.id, [h])));
      const step = alone[0].step as number;
      const summed = (idx: number[]) =>
        alone[0].data.map((_: Json, i: number) => idx.reduce((n, k) => n + alone[k].data[i].usersCount, 0));
      // Two (the total less one) and one (read directly): the keys' own peaks, summed.
      for (const idx of [[0, 2], [1, 2], [1]]) {
        const r = await query(
          s.as,
          range,
          s.team.id,
          idx.map((k) => hashes[k] ?? ''),
        );
        expect(r.data.map((p: Json) => p.usersCount)).toEqual(summed(idx));
      }
      // All three (the team total): the team's own peak minute of each point.
      const all = await query(s.as, range, s.team.id, hashes);
      expect(all.data.map((p: Json) => p.usersCount)).toEqual(
        all.data.map((p: Json) =>
          Math.max(
            0,
            ...minutesOfAll
              .filter((m) => m.datePoint >= p.datePoint && m.datePoint < p.datePoint + step)
              .map((m) => m.usersCount),
          ),
        ),
      );
      expect(all.data.some((p: Json) => p.usersCount > 0)).toBe(true);
      // The audience is not the two series added up.
      expect(all.data.some((p: Json) => p.usersCount < p.cdnUsersCount + p.p2pUsersCount)).toBe(true);
      for (const p of all.data) {
        expect(p.usersCount).toBeGreaterThanOrEqual(Math.max(p.cdnUsersCount, p.p2pUsersCount));
      }
    }
  });
});

describe('flush', () => {
  it('writes a session once per key-minute: later flushes of the same minute send only new sessions', async () => {
    const { team, keys, as } = await setup();
    const key = keys[0]?.keyHash as string;
    const keyId = keys[0]?.id as number;
    const sent = () => written.filter((a) => a.keyId === keyId && a.minute === M);
    await ingest([rep(key, 'a', M + 1, 100, 0), rep(key, 'b', M + 2, 0, 50)]);
    await flush();
    await ingest([rep(key, 'a', M + 10, 100, 0), rep(key, 'c', M + 11, 100, 100)]);
    await flush();
    const [first, second] = sent();
    expect([...(first?.sessions ?? [])].sort()).toEqual([
      ['a', SERIES_BITS.cdn],
      ['b', SERIES_BITS.p2p],
    ]);
    // 'a' was stored by the first flush, with the same series: only 'c' is new.
    expect([...(second?.sessions ?? [])]).toEqual([['c', SERIES_BITS.cdn | SERIES_BITS.p2p]]);
    const point = at(await query(as, 'day', team.id, [key]), M);
    expect(viewers(point)).toEqual([2, 2, 3]);
    expect(point.cdnDwSize).toBe(300);
  });
});
