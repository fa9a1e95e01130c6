import {
  BREAKDOWN_UNKNOWN,
  MSG_REPORT_FIELDS,
  PATHS,
  type TIngestReport,
  ZBreakdownResponse,
  ZStatsPoint,
  ZStatsResponse,
} from '@tlprt/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ReportRecord, reportOf, reportRecord } from '../src/features/statistics/journal-records.js';
import { buildIngestToken, QUIET } from './factories.js';
import { storedRows } from './helpers/clickhouse.js';
import type { Json, Res } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { HOUR, M, NOW, statsServer, statsTeam } from './helpers/stats.js';

/**
 * Issue 40, item 3: the P2P bytes a viewer received from peers of another network (the report's
 * p2pCrossBytes, part of its p2pBytes) are counted per key and minute and answered per point as
 * `p2pCrossDwSize` everywhere points are answered: day, week, month, live, totals, the breakdowns
 * (by network above all), the screen's CSV and the export API. Runs on SQLite and, with
 * TEST_DATABASE_URL, on PostgreSQL.
 */

const stats = statsServer({ TRUST_PROXY: '127.0.0.1/8' });
// The IP databases load on the first public address: the breakdown by network waits for them.
beforeAll(() => stats.server.app.stats.viewerFacts.ready());
const ZExact = ZStatsResponse.extend({ data: z.array(ZStatsPoint.strict()) }).strict();
const B40 = HOUR + 40 * 60;
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

type Range = 'live' | 'day' | 'week' | 'month';
const pathOf = (range: Range, teamId: number) =>
  range === 'live' ? PATHS.statistics.live(teamId) : PATHS.statistics[range];
const setup = (n = 1) => statsTeam(stats, n);
type Setup = Awaited<ReturnType<typeof setup>>;

async function read(s: Setup, range: Range, apiKeys = s.hashes, points?: 'drawn') {
  const body = {
    apiKeys,
    startTimestamp: 0,
    endTimestamp: NOW,
    team_id: s.team.id,
    ...(points ? { points } : {}),
  };
  const res: Res<Json> = await s.as.post(pathOf(range, s.team.id), body);
  expect(res.status).toBe(200);
  return ZExact.parse(res.body);
}
const at = <P extends { datePoint: number }>(r: { data: P[] }, t: number) =>
  r.data.find((p) => p.datePoint === t);

/** One viewer's report, from `address` through the proxy the test plays. */
async function view(key: string, session: string, address: string, counts: Json) {
  const res = await ingestAsBrowsers(
    stats.api,
    [{ apiKey: key, sessionId: session, ts: M, cdnBytes: 0, p2pBytes: 0, ...counts }],
    { 'x-forwarded-for': address, 'user-agent': CHROME },
  );
  expect(res.status).toBe(202);
  return res.body;
}

async function breakdown(s: Setup, by: string, format?: 'csv') {
  const res = await s.as.post(`${PATHS.statistics.breakdown}${format ? '?format=csv' : ''}`, {
    apiKeys: s.hashes,
    startTimestamp: 0,
    endTimestamp: NOW,
    team_id: s.team.id,
    range: 'day',
    by,
  });
  expect(res.status).toBe(200);
  return res.body;
}

describe('P2P bytes from other networks', () => {
  it('are counted, answered live before the flush, stored, and answered by day, week and month', async () => {
    const s = await setup(2);
    const [k1 = '', k2 = ''] = s.hashes;
    expect(await view(k1, 'a', '8.8.8.8', { cdnBytes: 1000, p2pBytes: 3000, p2pCrossBytes: 600 })).toEqual({
      accepted: 1,
      rejected: 0,
      errors: [],
    });
    await view(k1, 'b', '8.8.4.4', { cdnBytes: 500, p2pBytes: 1000 });
    await view(k2, 'c', '81.2.69.160', { p2pBytes: 2000, p2pCrossBytes: 2000 });
    const expected = {
      ...QUIET,
      datePoint: M,
      cdnDwSize: 1500,
      cdnUsersCount: 2,
      p2pDwSize: 6000,
      p2pUsersCount: 3,
      usersCount: 3,
      p2pCrossDwSize: 2600,
    };
    expect(at(await read(s, 'live'), M)).toEqual(expected);

    await stats.server.app.stats.flush();
    const rows = await storedRows(stats.server, 'stats_minute', ['key_id', 'p2p_cross_bytes'], {
      keyIds: s.keys.map((k) => k.id),
    });
    expect(rows.map((r) => r.p2p_cross_bytes)).toEqual([600, 2000]);
    const day = await read(s, 'day');
    expect(at(day, M)).toEqual(expected);
    expect(day.totals?.p2pCrossDwSize).toBe(2600);
    // The chart asks for the drawn series only: its points carry it, so the share follows the zoom.
    expect(at(await read(s, 'day', s.hashes, 'drawn'), M)).toMatchObject({ p2pCrossDwSize: 2600 });
    expect(at(await read(s, 'day', [k2]), M)?.p2pCrossDwSize).toBe(2000);
    expect(at(await read(s, 'live'), M)).toEqual(expected);
    for (const [range, bucket] of [
      ['week', B40],
      ['month', HOUR],
    ] as const) {
      const all = await read(s, range);
      expect(at(all, bucket)).toMatchObject({ p2pCrossDwSize: 2600, p2pDwSize: 6000 });
      expect(all.totals?.p2pCrossDwSize).toBe(2600);
      expect(at(await read(s, range, [k1]), bucket)?.p2pCrossDwSize).toBe(600);
    }
    const team = await storedRows(stats.server, 'stats_team_hour', ['p2p_cross_bytes'], {
      teamId: s.team.id,
    });
    expect(team.map((r) => r.p2p_cross_bytes)).toEqual([2600]);
  });

  it('above the report’s P2P bytes refuse the report, naming the field, from a browser and from a token', async () => {
    const s = await setup();
    const [k = ''] = s.hashes;
    const refused = { index: 0, message: `p2pCrossBytes: ${MSG_REPORT_FIELDS.crossAboveP2p}` };
    // A browser's report (the path ahead of the router).
    expect(await view(k, 'over', '8.8.8.8', { p2pBytes: 100, p2pCrossBytes: 101 })).toEqual({
      accepted: 0,
      rejected: 1,
      errors: [refused],
    });
    // Cross bytes with no P2P bytes at all, a batch of a server-side reporter (the Fastify route).
    const token = await buildIngestToken(stats.server.app, s.team);
    const batch = await stats.api.as(token).post(PATHS.statistics.ingest, {
      reports: [
        { apiKey: k, sessionId: 'r1', ts: M, cdnBytes: 10, p2pBytes: 0, p2pCrossBytes: 1 },
        { apiKey: k, sessionId: 'r2', ts: M, cdnBytes: 10, p2pBytes: 50, p2pCrossBytes: 50 },
      ],
    });
    expect(batch.status).toBe(202);
    expect(batch.body).toEqual({ accepted: 1, rejected: 1, errors: [refused] });
    await stats.server.app.stats.flush();
    expect(at(await read(s, 'day'), M)).toMatchObject({ cdnDwSize: 10, p2pDwSize: 50, p2pCrossDwSize: 50 });
  });

  it('are in the breakdown by network, per network, and in its CSV', async () => {
    const s = await setup();
    const [k = ''] = s.hashes;
    await view(k, 'g1', '8.8.8.8', { p2pBytes: 4000, p2pCrossBytes: 1000 });
    await view(k, 'g2', '8.8.4.4', { p2pBytes: 1000 });
    await view(k, 'lan', '10.1.2.3', { cdnBytes: 100, p2pBytes: 300, p2pCrossBytes: 300 });
    await stats.server.app.stats.flush();
    const rows = ZBreakdownResponse.parse(await breakdown(s, 'network')).data;
    expect(
      rows.map((r) => [r.name.startsWith('AS15169') ? 'AS15169' : r.name, r.p2pDwSize, r.p2pCrossDwSize]),
    ).toEqual([
      ['AS15169', 5000, 1000],
      [BREAKDOWN_UNKNOWN, 300, 300],
    ]);
    const csv = String(await breakdown(s, 'network', 'csv'));
    const [head = '', ...lines] = csv.trim().split('\r\n');
    const column = head.split(',').indexOf('p2pCrossDwSize');
    expect(column).toBeGreaterThan(0);
    expect(lines.map((l) => l.split(',').at(column - head.split(',').length))).toEqual(['1000', '300']);
  });

  it('are in the screen CSV and the export API (JSON and CSV), as the dashboard answers them', async () => {
    const s = await setup();
    const [k = ''] = s.hashes;
    await view(k, 'v', '8.8.8.8', { cdnBytes: 100, p2pBytes: 900, p2pCrossBytes: 90 });
    await stats.server.app.stats.flush();
    const made = await s.as.post(PATHS.teamTokens.list(s.team.id), { name: 'Exporter', scope: 'statistics' });
    expect(made.status).toBe(201);
    const machine = stats.api.as(made.body.data.token as string);
    for (const range of ['day', 'live'] as const) {
      const body = { apiKeys: s.hashes, startTimestamp: 0, endTimestamp: NOW, team_id: s.team.id };
      const csv = await s.as.post(`${pathOf(range, s.team.id)}?format=csv`, body);
      expect(csv.status).toBe(200);
      const lines = String(csv.body).split('\r\n');
      const head = (lines[0] as string).split(',');
      const row = (lines.find((l) => l.includes(`,${M},`)) as string).split(',');
      expect(row[head.indexOf('p2pCrossDwSize')]).toBe('90');
      const q = new URLSearchParams({ range, from: '0', to: String(NOW), keys: k });
      const json = await machine.get(`${PATHS.statistics.export}?${q}`);
      expect(json.status).toBe(200);
      const parsed = ZExact.parse(json.body);
      expect(at(parsed, M)?.p2pCrossDwSize).toBe(90);
      expect(parsed.totals?.p2pCrossDwSize).toBe(90);
      q.set('format', 'csv');
      expect((await machine.get(`${PATHS.statistics.export}?${q}`)).body).toBe(csv.body);
    }
    const q = new URLSearchParams({ range: 'day', to: String(NOW), keys: k, by: 'network' });
    const byNetwork = await machine.get(`${PATHS.statistics.export}?${q}`);
    expect(byNetwork.status).toBe(200);
    expect(ZBreakdownResponse.parse(byNetwork.body).data).toEqual([
      expect.objectContaining({ p2pDwSize: 900, p2pCrossDwSize: 90 }),
    ]);
  });
});

describe('the statistics journal', () => {
  const facts = { country: 'US', network: 'AS1 X', browser: 'Chrome', os: 'Linux' };
  it('keeps the cross bytes of a report it replays', () => {
    const report = {
      apiKey: 'k',
      sessionId: 's',
      ts: M,
      cdnBytes: 1,
      p2pBytes: 700,
      p2pCrossBytes: 70,
      playMs: 9000,
      startupMs: [300],
    };
    const rec = JSON.parse(reportRecord(4, report, facts)) as ReportRecord;
    expect(reportOf(rec)).toEqual({ ...report, apiKey: '' });
  });

  it('writes a record as the JSON of its fields, whatever the strings hold', () => {
    const base = { apiKey: 'k', ts: M, cdnBytes: 1, p2pBytes: 2 };
    const cases: Array<[TIngestReport, typeof facts | null]> = [
      [{ ...base, sessionId: 's' }, null],
      [
        { ...base, sessionId: 'a"b\\c\u2028', seq: 7, stream: 'cdn.test/x "y".m3u8', startupMs: [1, 2] },
        facts,
      ],
      [{ ...base, sessionId: 'é', p2pCrossBytes: 2, rejectedBytes: 5, peers: 3, plays: 1 }, facts],
    ];
    for (const [report, f] of cases) {
      const text = reportRecord(9, report, f);
      const rec = JSON.parse(text) as ReportRecord;
      expect(rec.slice(0, 7)).toEqual([
        0,
        9,
        M,
        report.sessionId,
        report.seq ?? null,
        report.stream ?? null,
        f,
      ]);
      expect(reportOf(rec)).toEqual({ ...report, apiKey: '' });
      expect(text).toBe(JSON.stringify(rec));
    }
  });

  it('reads a record written before the field existed as it was written', () => {
    // [0, key, ts, session, seq, stream, facts, cdn, p2p, nodr, rejected, play, stall, plays, failures,
    // peers, startupMs]: the layout of the journal's first version.
    const old: ReportRecord = [0, 4, M, 's', 3, null, facts, 5, 600, 0, 0, 9000, 20, 1, 0, 2, [450]];
    expect(reportOf(old)).toEqual({
      apiKey: '',
      sessionId: 's',
      ts: M,
      seq: 3,
      cdnBytes: 5,
      p2pBytes: 600,
      playMs: 9000,
      stallMs: 20,
      plays: 1,
      peers: 2,
      startupMs: [450],
    });
  });
});
