import {
  ENDPOINTS,
  endpointPath,
  INGEST_ANONYMOUS_MAX_REPORTS,
  INGEST_ERRORS,
  MSG_INGEST,
  PATHS,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressGroup } from '../src/http/client-address.js';
import { buildIngestToken, buildKey, buildTeam } from './factories.js';
import { Api, type Json, postFrom } from './helpers/http.js';
import { startServer, type TestServer } from './helpers/server.js';

const now = () => Math.floor(Date.now() / 1000);
const report = (apiKey: string, sessionId: string, cdnBytes: number, seq?: number) => ({
  apiKey,
  sessionId,
  ts: now(),
  cdnBytes,
  p2pBytes: 0,
  ...(seq === undefined ? {} : { seq }),
});

/** POST /stats/v1/ingest from a chosen loopback address: another client to the server. */
const ingestFrom = (base: string, address: string, body: unknown) =>
  postFrom(base, address, PATHS.statistics.ingest, body);

async function cdnBytesOf(
  server: TestServer,
  team: { id: number; owner: { token: string } },
  keys: string[],
) {
  await server.app.stats.flush();
  const r = await new Api(server.base).as(team.owner.token).post(PATHS.statistics.day, {
    apiKeys: keys,
    startTimestamp: now() - 3600,
    endTimestamp: now() + 60,
    team_id: team.id,
  });
  expect(r.status).toBe(200);
  return (r.body.data as Json[]).reduce((n, p) => n + p.cdnDwSize, 0) as number;
}

let server: TestServer;
let api: Api;
beforeAll(async () => {
  server = await startServer();
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
});

describe('anonymous reports: one session per request', () => {
  it(`takes up to ${INGEST_ANONYMOUS_MAX_REPORTS} reports of one session; more, or two sessions, is a 400 naming reports`, async () => {
    const team = await buildTeam(server.app);
    const k = (await buildKey(server.app, team.id, null)).keyHash;
    const one = Array.from({ length: INGEST_ANONYMOUS_MAX_REPORTS }, (_, i) => report(k, 'one', 1, i));
    expect((await api.post(PATHS.statistics.ingest, { reports: one })).body).toMatchObject({
      accepted: INGEST_ANONYMOUS_MAX_REPORTS,
    });
    for (const reports of [
      [...one, report(k, 'one', 1, 99)],
      [report(k, 'a', 1), report(k, 'b', 1)],
    ]) {
      const r = await api.post(PATHS.statistics.ingest, { reports });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        message: MSG_INGEST.anonymousBatch,
        errors: { reports: MSG_INGEST.anonymousBatch },
      });
    }
    // Nothing of the refused requests was counted.
    expect(await cdnBytesOf(server, team, [k])).toBe(INGEST_ANONYMOUS_MAX_REPORTS);
  });
});

describe('API tokens: batches of many sessions', () => {
  it("counts a token's batch of many sessions, only for its own team's keys", async () => {
    const team = await buildTeam(server.app);
    const other = await buildTeam(server.app);
    const k = (await buildKey(server.app, team.id, null)).keyHash;
    const foreign = (await buildKey(server.app, other.id, null)).keyHash;
    const token = await buildIngestToken(server.app, team);
    const reports = [
      ...Array.from({ length: 500 }, (_, i) => report(k, `s${i}`, 2, 0)),
      report(foreign, 'x', 1000, 0),
    ];
    const r = await api.post(PATHS.statistics.ingest, { reports }, { authorization: `Bearer ${token}` });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({
      accepted: 500,
      rejected: 1,
      errors: [{ index: 500, message: INGEST_ERRORS.notTokenTeam }],
    });
    expect(await cdnBytesOf(server, team, [k])).toBe(1000);
    expect(await cdnBytesOf(server, other, [foreign])).toBe(0);
  });

  it('answers 401 for a malformed, unknown or revoked token, counting nothing', async () => {
    const team = await buildTeam(server.app);
    const k = (await buildKey(server.app, team.id, null)).keyHash;
    const token = await buildIngestToken(server.app, team);
    const reports = [report(k, 'a', 5, 0), report(k, 'b', 5, 0)];
    const send = (authorization: string) => api.post(PATHS.statistics.ingest, { reports }, { authorization });
    const { id } = (
      await new Api(server.base)
        .as(team.owner.token)
        .get(endpointPath(ENDPOINTS.teamTokens.list, { teamId: team.id }))
    ).body.data[0] as { id: number };
    const revoke = await new Api(server.base)
      .as(team.owner.token)
      .send('DELETE', endpointPath(ENDPOINTS.teamTokens.revoke, { teamId: team.id, id }));
    expect(revoke.status).toBe(200);
    for (const authorization of [
      `Bearer ${token}`,
      `Bearer ${token.slice(0, -2)}xx`,
      'Bearer junk',
      `Basic ${token}`,
      'Bearer',
      team.owner.token,
    ]) {
      const r = await send(authorization);
      expect(r.status, authorization).toBe(401);
      expect(r.body, authorization).toEqual({ message: MSG_INGEST.badToken });
    }
    expect(await cdnBytesOf(server, team, [k])).toBe(0);
  });

  it('refuses the reports of a session pushed out of the replay memory rather than counting them again', async () => {
    const small = await startServer({ env: { INGEST_REPLAY_MEMORY_MB: '1' } });
    try {
      const team = await buildTeam(small.app);
      const k = (await buildKey(small.app, team.id, null)).keyHash;
      const a = new Api(small.base);
      const first = report(k, 'viewer', 100, 0);
      expect((await a.post(PATHS.statistics.ingest, { reports: [first] })).body.accepted).toBe(1);
      // The replay is recognised while the session is remembered.
      expect((await a.post(PATHS.statistics.ingest, { reports: [first] })).body.accepted).toBe(1);
      // Made-up sessions (about 5,000 fit in 1 MiB) push it out.
      const token = await buildIngestToken(small.app, team);
      for (let round = 0; round < 2; round++) {
        const flood = Array.from({ length: 5000 }, (_, i) => report(k, `fake-${round}-${i}`, 0, 0));
        const r = await a.post(
          PATHS.statistics.ingest,
          { reports: flood },
          { authorization: `Bearer ${token}` },
        );
        expect(r.status).toBe(202);
      }
      expect(small.app.stats.seen.usage.evicted).toBeGreaterThan(0);
      expect(small.app.stats.seen.usage.bytes).toBeLessThanOrEqual(1024 * 1024);
      const replay = await a.post(PATHS.statistics.ingest, { reports: [first] });
      expect(replay.body).toEqual({
        accepted: 0,
        rejected: 1,
        errors: [{ index: 0, message: INGEST_ERRORS.sessionForgotten }],
      });
      expect(await cdnBytesOf(small, team, [k])).toBe(100);
    } finally {
      await small.close();
    }
  });
});

describe('budgets per address and per key (anonymous reports)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      env: { INGEST_REPORTS_PER_ADDRESS_PER_MINUTE: '10', INGEST_REPORTS_PER_KEY_PER_MINUTE: '15' },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses an address past its reports of the minute with 429 and Retry-After; other addresses go on; nothing accepted is lost', async () => {
    const team = await buildTeam(server.app);
    const k = (await buildKey(server.app, team.id, null)).keyHash;
    const from2 = (reports: unknown[]) => ingestFrom(server.base, '127.0.0.2', { reports });
    expect((await from2(Array.from({ length: 6 }, (_, i) => report(k, 'a', 1, i)))).body.accepted).toBe(6);
    expect((await from2(Array.from({ length: 4 }, (_, i) => report(k, 'b', 1, i)))).body.accepted).toBe(4);
    for (const reports of [[report(k, 'c', 1, 0)], []]) {
      const refused = await from2(reports);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: MSG_INGEST.addressBudget });
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      // At most the rest of this minute plus the part of the next one in which this minute's 10 reports
      // still weigh too much for one more (a tenth of it): 66 s when refused at the top of a minute.
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(66);
    }
    // Another address (another viewer, another NAT) is not affected.
    expect(
      (await ingestFrom(server.base, '127.0.0.3', { reports: [report(k, 'd', 1, 0)] })).body.accepted,
    ).toBe(1);
    // A API token is not held to the address budget.
    const token = await buildIngestToken(server.app, team);
    const batch = Array.from({ length: 12 }, (_, i) => report(k, `t${i}`, 1, 0));
    const tokened = await new Api(server.base).post(
      PATHS.statistics.ingest,
      { reports: batch },
      { authorization: `Bearer ${token}` },
    );
    expect(tokened.body.accepted).toBe(12);
    expect(await cdnBytesOf(server, team, [k])).toBe(6 + 4 + 1 + 12);
  });

  it('refuses reports of a key past its budget one by one, from any address', async () => {
    const team = await buildTeam(server.app);
    const k = (await buildKey(server.app, team.id, null)).keyHash;
    const other = (await buildKey(server.app, team.id, null)).keyHash;
    const answers: Json[] = [];
    for (let i = 0; i < 4; i++) {
      const reports = Array.from({ length: 5 }, (_, s) => report(k, `v${i}`, 1, s));
      answers.push((await ingestFrom(server.base, `127.0.1.${i + 1}`, { reports })).body);
    }
    expect(answers.map((a) => a.accepted)).toEqual([5, 5, 5, 0]);
    expect(answers[3]?.errors[0]).toEqual({ index: 0, message: INGEST_ERRORS.keyBudget });
    // Another key has its own budget.
    expect(
      (await ingestFrom(server.base, '127.0.1.9', { reports: [report(other, 'w', 1, 0)] })).body.accepted,
    ).toBe(1);
    expect(await cdnBytesOf(server, team, [k])).toBe(15);
  });
});

describe('address groups', () => {
  it('counts IPv4 (mapped too) per address and IPv6 per /64', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('2001:0db8:0001:0002::')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
