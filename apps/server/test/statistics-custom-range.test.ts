import { PATHS, STATS_RANGES, STATS_STEP_KEPT_S, ZBreakdownResponse, ZStatsResponse } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_S } from '../src/features/statistics/tables.js';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { Api, type Json } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { manualClock, startServer, type TestServer } from './helpers/server.js';
import { NOW } from './helpers/stats.js';

/**
 * Custom windows (issue 39): a range chooses the step and the longest window; any window within the
 * data kept for that step and not in the future is served ("last Tuesday" by the minute, a quarter by
 * the hour), and the breakdown follows it. The rolling window answers as it always did. Runs on
 * SQLite and, with TEST_DATABASE_URL, on PostgreSQL.
 */

const DAY = 86_400;
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

/** A team whose one key served 1000 CDN and 500 P2P bytes in the minute `m` before the clock's,
 *  written out; the clock is then moved on by `later` seconds, so `m` is in the past of the rolling
 *  windows. */
async function pastTraffic(later: number) {
  const base = Math.floor(clock() / 1000);
  const m = base - (base % 60) - 60;
  const team = await buildTeam(server.app);
  const domain = await buildDomain(server.app, team.id, { promoted: true });
  const key = await buildKey(server.app, team.id, domain.id);
  const res = await ingestAsBrowsers(api, [
    { apiKey: key.keyHash, sessionId: 'tuesday', ts: m, cdnBytes: 1000, p2pBytes: 500, playMs: 9000 },
  ]);
  expect(res.status).toBe(202);
  await server.app.stats.flush();
  clock.advance(later * 1000);
  return { team, hash: key.keyHash, as: api.as(team.owner.token), m, now: base + later };
}

async function chart(
  s: Awaited<ReturnType<typeof pastTraffic>>,
  range: 'day' | 'week' | 'month',
  start: number,
  end: number,
) {
  const r = await s.as.post(PATHS.statistics[range], {
    apiKeys: [s.hash],
    startTimestamp: start,
    endTimestamp: end,
    team_id: s.team.id,
  });
  expect(r.status).toBe(200);
  return ZStatsResponse.parse(r.body);
}
const bytesAt = (answer: { data: Json[] }) =>
  answer.data.reduce((n: number, p: Json) => n + p.cdnDwSize + p.p2pDwSize, 0);
const aligned = (t: number, step: number) => t - (t % step);

describe('custom windows', () => {
  it('keeps the contract’s retention per step equal to what the server keeps', () => {
    expect(STATS_STEP_KEPT_S).toEqual({
      60: RETENTION_S.minute,
      1200: RETENTION_S.twenty,
      3600: RETENTION_S.hour,
    });
  });

  it('serves a past day by the minute, a past week by 20 minutes and a quarter by the hour', async () => {
    const s = await pastTraffic(Math.round(1.25 * DAY));
    // A day that ended a day ago: the rolling day no longer reaches it, a window does.
    const start = s.m - 12 * 3600;
    const day = await chart(s, 'day', start, start + DAY - 1);
    expect(day.step).toBe(60);
    expect(day.startTimestamp).toBe(aligned(start, 60));
    expect(day.data).toHaveLength(1440);
    expect(day.data.find((p) => p.datePoint === s.m)).toMatchObject({ cdnDwSize: 1000, p2pDwSize: 500 });
    expect(bytesAt(day)).toBe(1500);
    expect(day.totals).toMatchObject({ cdnDwSize: 1000, p2pDwSize: 500 });
    // The rolling day answers as before: the window ending now, without that minute.
    const rolling = await chart(s, 'day', s.now - DAY, s.now);
    expect(rolling).toMatchObject({
      step: 60,
      startTimestamp: aligned(s.now - DAY, 60),
      endTimestamp: aligned(s.now, 60),
    });
    expect(bytesAt(rolling)).toBe(0);

    const week = await chart(s, 'week', s.m - 3 * DAY, s.m + 2 * DAY);
    expect(week.step).toBe(1200);
    expect(week.startTimestamp).toBe(aligned(s.m - 3 * DAY, 1200));
    // Cut at server time: never a point in the future.
    expect(week.endTimestamp).toBe(aligned(s.now, 1200));
    expect(bytesAt(week)).toBe(1500);

    // A calendar quarter of hours (92 days) ending long after the minute.
    const quarter = await chart(s, 'month', s.now - 92 * DAY, s.now);
    expect(quarter.step).toBe(3600);
    expect(quarter.data).toHaveLength((aligned(s.now, 3600) - aligned(s.now - 92 * DAY, 3600)) / 3600 + 1);
    expect(bytesAt(quarter)).toBe(1500);
  });

  it('starts a window within the data kept, and serves a longer one as the rolling window', async () => {
    const s = await pastTraffic(10 * DAY);
    // Minutes are kept two days: a day window starting earlier starts where they do.
    const past = await chart(s, 'day', s.now - 2 * DAY - 3600, s.now - DAY - 3600);
    expect(past.startTimestamp).toBe(aligned(s.now - (STATS_STEP_KEPT_S[60] ?? 0), 60));
    // Ten days back is beyond the rolling week, not beyond the 20-minute points kept.
    const week = await chart(s, 'week', s.m - 3600, s.m + 3600);
    expect(week.startTimestamp).toBe(aligned(s.m - 3600, 1200));
    expect(bytesAt(week)).toBe(1500);
    // Longer than the range's longest window: the rolling window ending now, as before.
    const long = await chart(s, 'week', s.m - 3600, s.m - 3600 + STATS_RANGES.week.maxSpan + 1);
    expect(long.startTimestamp).toBe(aligned(s.now - STATS_RANGES.week.window, 1200));
    expect(long.endTimestamp).toBe(aligned(s.m - 3600 + STATS_RANGES.week.maxSpan + 1, 1200));
    // A quarter of hours is the longest month window; longer is the rolling month.
    const tooLong = await chart(s, 'month', s.now - 93 * DAY, s.now);
    expect(tooLong.startTimestamp).toBe(aligned(s.now - STATS_RANGES.month.window, 3600));
  });

  it('answers the breakdown for the same window', async () => {
    const s = await pastTraffic(Math.round(1.5 * DAY));
    const breakdown = async (start: number, end: number) => {
      const r = await s.as.post(PATHS.statistics.breakdown, {
        apiKeys: [s.hash],
        startTimestamp: start,
        endTimestamp: end,
        team_id: s.team.id,
        range: 'day',
        by: 'browser',
      });
      expect(r.status).toBe(200);
      return ZBreakdownResponse.parse(r.body);
    };
    const custom = await breakdown(s.m - 600, s.m + 600);
    expect(custom.startTimestamp).toBe(aligned(s.m - 600, 3600));
    expect(custom.data.reduce((n, r) => n + r.cdnDwSize + r.p2pDwSize, 0)).toBe(1500);
    const rolling = await breakdown(s.now - DAY, s.now);
    expect(rolling.data).toEqual([]);
  });
});
