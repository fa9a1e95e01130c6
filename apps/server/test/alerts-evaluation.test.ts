import {
  columnIndex,
  ENDPOINTS,
  EventCode,
  MSG_ALERTS,
  POINT_VALUES,
  Role,
  type TAlertMetric,
  TeamStatus,
  ZAlertPreviewResponse,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastClosedMinute } from '../src/features/alerts/evaluator.js';
import {
  conditionHolds,
  formatMetricValue,
  metricOf,
  PREVIEW_POINTS,
  previewEnds,
  previewPoints,
  windowValue,
} from '../src/features/alerts/window.js';
import { buildAlert, buildDomain, buildKey, buildTeam, buildUser, pointValues } from './factories.js';
import { streamsOf } from './helpers/events.js';
import { Api } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { manualClock, PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';
import { startSmtp, type TestSmtp } from './helpers/smtp.js';

/**
 * The alert evaluation engine (issue 38, docs/DESIGN.md §13): each metric's value over a rule's window of closed
 * minutes from real ingest traffic, the condition with its minimum of viewers, incidents that open once
 * and resolve once, the e-mails through a real SMTP server, the live event, and the form's preview.
 */

/** A whole hour three hours ago: every test takes minutes after the previous test's, so a rule of an
 *  earlier test is never evaluated at a minute before its own. */
const BASE = Math.floor(Date.now() / 3_600_000) * 3600 - 3 * 3600;
let cursor = BASE;
/** `n` fresh minutes (unix s of the first) for one test, apart from the others'. */
function minutes(n: number): number {
  const first = cursor;
  cursor += (n + 5) * 60;
  return first;
}
const clock = manualClock(BASE * 1000);
const setClock = (ms: number) => clock.advance(ms - clock());
/** When minute `m` is evaluated: its end plus the default ALERTS_EVALUATE_AFTER_MS. */
const evaluatedAt = (m: number) => (m + 60) * 1000 + 20_000;

let server: TestServer;
let api: Api;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({
    // Flushes and evaluations only when a test asks.
    env: { SMTP_URL: smtp.url, STATS_INGEST_FLUSH_MS: '600000', ALERTS_EVALUATE_EVERY_MS: '3600000' },
    deps: { now: clock },
  });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

async function setup(nKeys = 1) {
  const viewer = await buildUser(server.app);
  const team = await buildTeam(server.app, { roleOf: [{ user: viewer, role: Role.Viewer }] });
  const domain = await buildDomain(server.app, team.id, { promoted: true });
  const hashes: string[] = [];
  for (let i = 0; i < nKeys; i++) hashes.push((await buildKey(server.app, team.id, domain.id)).keyHash);
  return { team, viewer, hashes, as: api.as(team.owner.token) };
}

interface Play {
  cdnBytes?: number;
  p2pBytes?: number;
  rejectedBytes?: number;
  playMs?: number;
  stallMs?: number;
  plays?: number;
  failures?: number;
  startupMs?: number[];
}
/** Reports of minute `m` (sent at its 30th second, as the clock then says), stored by a flush. */
async function traffic(m: number, reports: Array<{ key: string; session: string } & Play>) {
  setClock((m + 30) * 1000);
  const res = await ingestAsBrowsers(
    api,
    reports.map(({ key, session, ...play }) => ({
      apiKey: key,
      sessionId: session,
      ts: m + 30,
      cdnBytes: 0,
      p2pBytes: 0,
      ...play,
    })),
  );
  expect(res.status).toBe(202);
  expect(res.body.rejected).toBe(0);
  await server.app.stats.flush();
}
const evaluate = (m: number) => server.app.alerts.evaluator.evaluate(evaluatedAt(m));

async function ruleRow(id: number) {
  return server.app.ctx.db
    .selectFrom('alert_rules')
    .select(['firing', 'last_value', 'evaluated_minute', 'last_evaluated_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}
function incidents(ruleId: number) {
  return server.app.ctx.db
    .selectFrom('alert_incidents')
    .selectAll()
    .where('rule_id', '=', ruleId)
    .orderBy('id')
    .execute();
}
const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email));

describe('window values (pure)', () => {
  const minute = (v: Parameters<typeof pointValues>[0]) => pointValues(v);
  const cases: Array<[TAlertMetric, ReturnType<typeof pointValues>[], number | null]> = [
    ['p2pShare', [minute({ cdnBytes: 300, p2pBytes: 100 }), minute({ p2pBytes: 500, nodrBytes: 100 })], 60],
    ['p2pShare', [minute({ users: 3 })], null],
    ['originSaved', [minute({ cdnBytes: 500, p2pBytes: 500, verifyBytes: 200 })], 30],
    ['originSaved', [minute({ cdnBytes: 100, p2pBytes: 100, verifyBytes: 150 })], -25],
    ['cdnBytes', [minute({ cdnBytes: 10 }), minute({ cdnBytes: 32 })], 42],
    ['rejectedBytes', [minute({ rejectedBytes: 7 }), minute({ cdnBytes: 1 })], 7],
    ['viewers', [minute({ users: 4 }), minute({ users: 9 }), minute({ users: 2 })], 9],
    ['failureRate', [minute({ plays: 3, failures: 1 }), minute({ plays: 1 })], 25],
    ['failureRate', [minute({ cdnBytes: 5, users: 1 })], null],
    ['rebufferRatio', [minute({ playMs: 9000, stallMs: 500 }), minute({ playMs: 0, stallMs: 500 })], 10],
    ['rebufferRatio', [minute({ stallMs: 500 })], null],
    ['startupP95Ms', [minute({ cdnBytes: 1 })], null],
  ];
  it.each(cases)('%s of the window', (metric, rows, expected) => {
    const w = windowValue(metric, rows);
    if (expected === null) expect(w.value).toBeNull();
    else expect(w.value).toBeCloseTo(expected, 9);
  });

  it('startup p95 from the summed buckets; viewers are the busiest minute; no row: no value', () => {
    // Buckets (…100], (100…250], …: 19 plays within 100 ms and one in (1000, 1500] → p95 at the 19th.
    const a = new Float64Array(POINT_VALUES);
    const b = new Float64Array(POINT_VALUES);
    const startup = columnIndex('startup');
    a[startup] = 19;
    b[startup + 5] = 1;
    expect(windowValue('startupP95Ms', [a, b]).value).toBe(100);
    b[startup + 5] = 19;
    expect(windowValue('startupP95Ms', [a, b]).value).toBeGreaterThan(1000);
    expect(windowValue('viewers', [undefined, undefined])).toEqual({ value: null, viewers: 0 });
    expect(metricOf('cdnBytes', new Float64Array(POINT_VALUES), 0)).toBe(0);
  });

  it('the condition: above or below, with enough viewers', () => {
    const w = { value: 10, viewers: 5 };
    expect(conditionHolds({ op: 'above', threshold: 9, minViewers: 5 }, w)).toBe(true);
    expect(conditionHolds({ op: 'above', threshold: 10, minViewers: 5 }, w)).toBe(false);
    expect(conditionHolds({ op: 'below', threshold: 11, minViewers: 5 }, w)).toBe(true);
    expect(conditionHolds({ op: 'below', threshold: 10, minViewers: 5 }, w)).toBe(false);
    expect(conditionHolds({ op: 'above', threshold: 1, minViewers: 6 }, w)).toBe(false);
    expect(conditionHolds({ op: 'below', threshold: 100, minViewers: 0 }, { value: null, viewers: 0 })).toBe(
      false,
    );
  });

  it('a minute is evaluated after its end plus the delay; the preview has 144 points 10 minutes apart', () => {
    expect(lastClosedMinute(evaluatedAt(BASE), 20_000)).toBe(BASE);
    expect(lastClosedMinute(evaluatedAt(BASE) - 1, 20_000)).toBe(BASE - 60);
    const ends = previewEnds(BASE + 1234);
    expect(ends).toHaveLength(PREVIEW_POINTS);
    expect(ends.at(-1)).toBe(BASE + 1200);
    expect((ends[1] ?? 0) - (ends[0] ?? 0)).toBe(600);
    const perMinute = new Map([[BASE + 1140, pointValues({ cdnBytes: 10, users: 2 })]]);
    const points = previewPoints({ metric: 'cdnBytes', windowMinutes: 1, minViewers: 2 }, perMinute, ends);
    expect(points.at(-1)).toEqual({ t: BASE + 1200, value: 10 });
    expect(points.at(-2)).toEqual({ t: BASE + 600, value: null });
    expect(
      previewPoints({ metric: 'cdnBytes', windowMinutes: 1, minViewers: 3 }, perMinute, ends).at(-1)?.value,
    ).toBeNull();
  });

  it('values in words', () => {
    expect(formatMetricValue('p2pShare', 12.345)).toBe('12.3%');
    expect(formatMetricValue('cdnBytes', 1_500_000)).toBe('1.5 MB');
    expect(formatMetricValue('viewers', 1)).toBe('1 viewer');
    expect(formatMetricValue('startupP95Ms', 812.4)).toBe('812 ms');
    expect(formatMetricValue('failureRate', null)).toBe('no data');
  });
});

/** The key's facts the integrity service counts verification bytes with. */
async function usableKey(hash: string) {
  const k = await server.app.ctx.db
    .selectFrom('keys')
    .select(['id', 'team_id', 'domain_id'])
    .where('key_hash', '=', hash)
    .executeTakeFirstOrThrow();
  return { id: k.id, hash, teamId: k.team_id, domainId: k.domain_id };
}

describe('evaluation of real traffic', () => {
  it('each metric over windows of 5 and 1 minutes, above and below, on chosen keys or all of them', async () => {
    const s = await setup(2);
    const [k1 = '', k2 = ''] = s.hashes;
    const m0 = minutes(3);
    // Key 2 is loud: a rule on key 1 must not see it.
    const loud = {
      key: k2,
      session: 'loud',
      cdnBytes: 1_000_000,
      rejectedBytes: 1_000_000,
      plays: 10,
      failures: 10,
    };
    await traffic(m0, [
      {
        key: k1,
        session: 's1',
        cdnBytes: 3000,
        p2pBytes: 1000,
        rejectedBytes: 500,
        playMs: 9000,
        stallMs: 1000,
        plays: 2,
        failures: 1,
        startupMs: [400, 800],
      },
      loud,
    ]);
    // The integrity service fetched 1000 bytes of key 1's origin in that minute.
    setClock((m0 + 40) * 1000);
    server.app.stats.countVerification(await usableKey(k1), 1000, undefined);
    await server.app.stats.flush();
    const m2 = m0 + 120;
    await traffic(m2, [
      {
        key: k1,
        session: 's2',
        cdnBytes: 1000,
        p2pBytes: 3000,
        playMs: 10_000,
        plays: 2,
        startupMs: [900, 4000],
      },
      // Plays from its buffer: a viewer without bytes.
      { key: k1, session: 's3', playMs: 10_000 },
      loud,
    ]);

    // Over m0 … m2 (5 minutes ending at m2), key 1 only: CDN 4000, P2P 4000, verification 1000, refused
    // 500, viewers 1 then 2, 1 failure of 4 plays, 1000 ms stalled of 30,000, startups 400, 800, 900,
    // 4000 ms (p95: rank 3.8 of 4, inside (3000, 5000] → 3000 + 2000 × 0.8).
    const expected: Record<TAlertMetric, number> = {
      p2pShare: 50,
      originSaved: 37.5,
      cdnBytes: 4000,
      rejectedBytes: 500,
      viewers: 2,
      failureRate: 25,
      rebufferRatio: (100 * 1000) / 30_000,
      startupP95Ms: 4600,
    };
    const metrics = Object.keys(expected) as TAlertMetric[];
    const rules: Array<{ id: number; metric: TAlertMetric; fires: boolean }> = [];
    for (const metric of metrics) {
      const x = expected[metric];
      for (const [op, threshold, fires] of [
        ['above', x * 0.9, true],
        ['above', x, false],
        ['below', x * 0.9, false],
        ['below', x * 1.1, true],
      ] as const) {
        const r = await buildAlert(server.app, s.team.id, {
          metric,
          op,
          threshold,
          windowMinutes: 5,
          keys: [k1],
        });
        rules.push({ id: r.id, metric, fires });
      }
    }
    // The last minute alone (window 1): P2P 3000 of 4000, no failure, 2 viewers.
    const share1 = await buildAlert(server.app, s.team.id, {
      metric: 'p2pShare',
      op: 'above',
      threshold: 70,
      windowMinutes: 1,
      keys: [k1],
    });
    const failures1 = await buildAlert(server.app, s.team.id, {
      metric: 'failureRate',
      op: 'above',
      threshold: 0,
      windowMinutes: 1,
      keys: [k1],
    });
    // No keys: every key of the team, the loud one too.
    const all = await buildAlert(server.app, s.team.id, {
      metric: 'cdnBytes',
      op: 'above',
      threshold: 1_000_000,
      windowMinutes: 5,
    });
    const allViewers = await buildAlert(server.app, s.team.id, {
      metric: 'viewers',
      op: 'above',
      threshold: 2,
      windowMinutes: 5,
    });
    // Too few viewers: no value, no incident, whatever the threshold.
    const few = await buildAlert(server.app, s.team.id, {
      metric: 'p2pShare',
      op: 'below',
      threshold: 100,
      windowMinutes: 5,
      minViewers: 3,
      keys: [k1],
    });
    const enough = await buildAlert(server.app, s.team.id, {
      metric: 'p2pShare',
      op: 'below',
      threshold: 100,
      windowMinutes: 5,
      minViewers: 2,
      keys: [k1],
    });

    await evaluate(m2);

    for (const r of rules) {
      const row = await ruleRow(r.id);
      expect(row.evaluated_minute).toBe(m2);
      expect(row.last_evaluated_at).toBe(evaluatedAt(m2));
      expect(row.last_value, r.metric).toBeCloseTo(expected[r.metric], 6);
      expect({ metric: r.metric, firing: row.firing }).toEqual({ metric: r.metric, firing: r.fires ? 1 : 0 });
      const inc = await incidents(r.id);
      expect(inc).toHaveLength(r.fires ? 1 : 0);
      if (r.fires) expect(inc[0]?.open_value).toBeCloseTo(expected[r.metric], 6);
    }
    expect(await ruleRow(share1.id)).toMatchObject({ firing: 1, last_value: 75 });
    expect(await ruleRow(failures1.id)).toMatchObject({ firing: 0, last_value: 0 });
    expect(await ruleRow(all.id)).toMatchObject({ firing: 1, last_value: 2_004_000 });
    expect(await ruleRow(allViewers.id)).toMatchObject({ firing: 1, last_value: 3 });
    expect(await ruleRow(few.id)).toMatchObject({ firing: 0, last_value: null });
    expect(await incidents(few.id)).toHaveLength(0);
    expect(await ruleRow(enough.id)).toMatchObject({ firing: 1, last_value: 50 });
  });

  it('an incident opens once and resolves once when the traffic stops: one e-mail each, one live event each', async () => {
    const s = await setup(1);
    const [k = ''] = s.hashes;
    const name = 'Refused bytes';
    const rule = await buildAlert(server.app, s.team.id, {
      name,
      metric: 'rejectedBytes',
      op: 'above',
      threshold: 0,
      windowMinutes: 1,
      emailRoles: [Role.Admin],
    });
    const streams = await streamsOf(server.base, { owner: s.team.owner, viewer: s.viewer });
    try {
      const m = minutes(10);
      for (let i = 0; i < 4; i++) {
        await traffic(m + i * 60, [{ key: k, session: `v${i}`, cdnBytes: 1000, rejectedBytes: 200 + i }]);
        await evaluate(m + i * 60);
        // Again at the same minute, as another tick would: nothing new.
        await evaluate(m + i * 60);
      }
      let inc = await incidents(rule.id);
      expect(inc).toHaveLength(1);
      expect(inc[0]).toMatchObject({ opened_at: evaluatedAt(m), open_value: 200, resolved_at: null });
      expect(await ruleRow(rule.id)).toMatchObject({ firing: 1, last_value: 203 });
      const opened = mailsTo(s.team.owner.email);
      expect(opened).toHaveLength(1);
      expect(opened[0]?.subject).toBe(MSG_ALERTS.mailOpenedSubject(name));
      expect(opened[0]?.text).toContain('Refused peer bytes was 200 B over the last minute, above 0 B');
      expect(opened[0]?.links).toContain(`${PUBLIC_URL}/statistics?range=live`);

      // The traffic stops: resolved at the first empty minute, then nothing more.
      for (let i = 4; i < 9; i++) await evaluate(m + i * 60);
      inc = await incidents(rule.id);
      expect(inc).toHaveLength(1);
      expect(inc[0]).toMatchObject({ resolved_at: evaluatedAt(m + 240), resolve_value: null });
      expect(await ruleRow(rule.id)).toMatchObject({
        firing: 0,
        last_value: null,
        evaluated_minute: m + 480,
      });
      const mails = mailsTo(s.team.owner.email);
      expect(mails.map((x) => x.subject)).toEqual([
        MSG_ALERTS.mailOpenedSubject(name),
        MSG_ALERTS.mailResolvedSubject(name),
      ]);
      expect(mails[1]?.text).toContain('Refused peer bytes had no value over the last minute');
      // Viewers are not among the chosen roles: no mail, but their screen hears of it.
      expect(mailsTo(s.viewer.email)).toHaveLength(0);
      const code = `"code":${EventCode.AlertChanged}`;
      await streams.owner.waitFor((raw) => raw.split(code).length - 1 >= 2);
      await streams.viewer.waitFor((raw) => raw.split(code).length - 1 >= 2);
      expect(streams.owner.raw()).toContain(`"alert_id":${rule.id}`);
      expect(streams.owner.raw().split(code).length - 1).toBe(2);
    } finally {
      streams.closeAll();
    }
  });

  it('a node that was down evaluates the latest closed minute only', async () => {
    const s = await setup(1);
    const [k = ''] = s.hashes;
    const rule = await buildAlert(server.app, s.team.id, {
      metric: 'cdnBytes',
      op: 'above',
      threshold: 10,
      windowMinutes: 1,
    });
    const m = minutes(5);
    await traffic(m, [{ key: k, session: 'a', cdnBytes: 1000 }]);
    // Evaluated only 3 minutes later: the window of that minute, empty; the old one is not looked at.
    await evaluate(m + 180);
    expect(await ruleRow(rule.id)).toMatchObject({ evaluated_minute: m + 180, firing: 0, last_value: null });
    // A minute not closed long enough is not evaluated yet.
    await server.app.alerts.evaluator.evaluate(evaluatedAt(m + 240) - 1);
    expect((await ruleRow(rule.id)).evaluated_minute).toBe(m + 180);
    expect(await incidents(rule.id)).toHaveLength(0);
  });

  it("a suspended team's rules are not evaluated", async () => {
    const s = await setup(1);
    const [k = ''] = s.hashes;
    const rule = await buildAlert(server.app, s.team.id, {
      metric: 'cdnBytes',
      op: 'above',
      threshold: 10,
      windowMinutes: 1,
    });
    const m = minutes(2);
    await traffic(m, [{ key: k, session: 'a', cdnBytes: 1000 }]);
    await server.app.ctx.db
      .updateTable('teams')
      .set({ status_id: TeamStatus.Suspended, suspended: 1 })
      .where('id', '=', s.team.id)
      .execute();
    await evaluate(m);
    expect(await ruleRow(rule.id)).toMatchObject({ evaluated_minute: 0, firing: 0 });
    expect(await incidents(rule.id)).toHaveLength(0);
  });
});

describe('preview', () => {
  const path = (teamId: number) => ENDPOINTS.alerts.preview.path.replace(':teamId', String(teamId));

  it('answers 144 points of the last 24 hours as the rule would have seen them', async () => {
    const s = await setup(2);
    const [k1 = '', k2 = ''] = s.hashes;
    const m = minutes(20);
    await traffic(m, [
      { key: k1, session: 'a', cdnBytes: 1000 },
      { key: k2, session: 'b', cdnBytes: 5000 },
    ]);
    setClock((m + 15 * 60) * 1000);
    const body = { metric: 'cdnBytes', windowMinutes: 30, minViewers: 1, keys: [k1] };
    // A Viewer reads it too.
    const viewer = await api.as(s.viewer.token).post(path(s.team.id), body);
    expect(viewer.status).toBe(200);
    const { data } = ZAlertPreviewResponse.parse(viewer.body);
    expect(data.points).toHaveLength(PREVIEW_POINTS);
    const last = data.points.at(-1)?.t ?? 0;
    expect(last % 600).toBe(0);
    expect(last).toBeLessThanOrEqual(m + 15 * 60);
    for (const p of data.points) {
      const covers = p.t - 30 * 60 <= m && m <= p.t - 60;
      expect({ t: p.t, value: p.value }).toEqual({ t: p.t, value: covers ? 1000 : null });
    }
    expect(data.points.some((p) => p.value === 1000)).toBe(true);
    // Every key, and a minimum of viewers the window never had.
    const every = ZAlertPreviewResponse.parse((await s.as.post(path(s.team.id), { ...body, keys: [] })).body);
    expect(Math.max(...every.data.points.map((p) => p.value ?? 0))).toBe(6000);
    const none = ZAlertPreviewResponse.parse(
      (await s.as.post(path(s.team.id), { ...body, keys: [], minViewers: 3 })).body,
    );
    expect(none.data.points.every((p) => p.value === null)).toBe(true);
  });

  it("refuses another team's key, naming the field", async () => {
    const s = await setup(1);
    const other = await setup(1);
    const res = await s.as.post(path(s.team.id), {
      metric: 'p2pShare',
      windowMinutes: 5,
      keys: [s.hashes[0], other.hashes[0]],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ keys: MSG_ALERTS.unknownKey });
    // A member of another team does not even learn that this team exists.
    expect((await other.as.post(path(s.team.id), { metric: 'p2pShare', windowMinutes: 5 })).status).toBe(404);
  });
});
