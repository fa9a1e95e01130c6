import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import {
  KeyStatus,
  MSG,
  MSG_HASHES,
  MSG_INGEST,
  MSG_STATS_EXPORT,
  PATHS,
  PLAYER_ENDPOINTS,
  TEAM_TOKEN_PREFIX,
  type TTeamTokenScope,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../src/app.js';
import { insertToken } from '../src/features/team-tokens/queries.js';
import { newTeamToken } from '../src/features/team-tokens/service.js';
import { redactTokens } from '../src/http/token-guard.js';
import { sha256 } from '../src/lib/tokens.js';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { postFrom } from './helpers/http.js';
import { startServer, type TestServer } from './helpers/server.js';

/**
 * The token guard (http/token-guard.ts) of the calls taking a team API token: a bad token is refused
 * before the body is read (the answer arrives though the body was never sent), a malformed one without
 * a look-up, refusals are charged to the address's budget (429 past it, other addresses unaffected),
 * tokens never reach the access log, and an export URL of 500 of the longest key hashes fits. Real
 * HTTP over raw sockets; SQLite, and PostgreSQL with TEST_DATABASE_URL.
 */

const MIB = 1024 * 1024;
const madeUpToken = () => `${TEAM_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server ended the connection after the answer (within a second). */
  closed: boolean;
}

/**
 * Sends a request's head only (the body it announces is never sent) from `localAddress`, and answers
 * what came back: an answer at all proves the server decided without reading the body.
 */
function headOnly(base: string, head: string[], localAddress = '127.0.0.1'): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress });
    let data = Buffer.alloc(0);
    let answer: Omit<RawAnswer, 'closed'> | undefined;
    const timer = setTimeout(() => {
      socket.destroy();
      if (answer) resolve({ ...answer, closed: false });
      else reject(new Error(`no answer within 5 s to ${head[0]}`));
    }, 5000);
    const done = (closed: boolean) => {
      if (!answer) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...answer, closed });
    };
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf('\r\n\r\n');
      if (answer || end < 0) return;
      const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const length = Number(headers['content-length'] ?? 0);
      if (data.length < end + 4 + length) return;
      answer = {
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: data.subarray(end + 4, end + 4 + length).toString('utf8'),
      };
      // Wait a moment for the server to end the connection (it should after refusing a body).
      setTimeout(() => done(false), 1000).unref();
    });
    socket.on('end', () => done(true));
    socket.on('close', () => done(true));
    socket.on('error', () => done(true));
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
  });
}

const postHead = (path: string, authorization: string | undefined, bytes = MIB) => [
  `POST ${path} HTTP/1.1`,
  'Host: dashboard.test',
  'Content-Type: application/json',
  `Content-Length: ${bytes}`,
  ...(authorization === undefined ? [] : [`Authorization: ${authorization}`]),
];
const getHead = (path: string, authorization?: string) => [
  `GET ${path} HTTP/1.1`,
  'Host: dashboard.test',
  ...(authorization === undefined ? [] : [`Authorization: ${authorization}`]),
];

/** Counts the token look-ups (queries of team_tokens) of a server from now on. */
function countLookups(app: App) {
  const spy = vi.spyOn(app.ctx.db, 'selectFrom');
  return {
    get count() {
      return spy.mock.calls.filter((args) => String(args[0]) === 'team_tokens').length;
    },
    restore: () => spy.mockRestore(),
  };
}

async function tokenOf(app: App, team: { id: number; owner: { id: number } }, scope: TTeamTokenScope) {
  const token = newTeamToken();
  await insertToken(app.ctx.db, {
    teamId: team.id,
    name: `${scope} ${randomBytes(3).toString('hex')}`,
    scope,
    tokenHash: sha256(token),
    createdBy: team.owner.id,
    createdAt: app.ctx.now(),
  });
  return token;
}

const exportPath = (keys: string[]) =>
  `${PATHS.statistics.export}?${new URLSearchParams({ range: 'day', keys: keys.join(',') })}`;

describe('token calls refuse a bad token before the body', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a malformed token at once: no look-up, the announced MiB never read, the connection closed', async () => {
    const lookups = countLookups(server.app);
    try {
      for (const authorization of [
        'Bearer not-a-token',
        `Bearer ${TEAM_TOKEN_PREFIX}short`,
        'Basic dXNlcjpwYXNz',
      ]) {
        const ingest = await headOnly(server.base, postHead(PATHS.statistics.ingest, authorization));
        expect(ingest.status, authorization).toBe(401);
        expect(JSON.parse(ingest.body).message).toBe(MSG_INGEST.badToken);
        expect(ingest.headers.connection).toBe('close');
        expect(ingest.closed).toBe(true);
      }
      const push = await headOnly(
        server.base,
        postHead(PLAYER_ENDPOINTS.hashes.path, 'Bearer junk', 4 * MIB),
      );
      expect(push.status).toBe(401);
      expect(JSON.parse(push.body).message).toBe(MSG_HASHES.badToken);
      expect(push.closed).toBe(true);
      // No token at all on the calls that need one: the same refusal.
      expect((await headOnly(server.base, postHead(PLAYER_ENDPOINTS.hashes.path, undefined))).status).toBe(
        401,
      );
      // A GET has no body to refuse: its keep-alive connection stays.
      const exp = await headOnly(server.base, getHead(exportPath(['k']), 'Bearer junk'));
      expect(exp.status).toBe(401);
      expect(JSON.parse(exp.body).message).toBe(MSG_STATS_EXPORT.badToken);
      expect(exp.headers.connection).not.toBe('close');
      expect(lookups.count).toBe(0);
    } finally {
      lookups.restore();
    }
  });

  it('refuses an unknown or revoked token after one (cached) look-up, before the body', async () => {
    const team = await buildTeam(server.app);
    const ingestToken = await tokenOf(server.app, team, 'ingest');
    const lookups = countLookups(server.app);
    try {
      const unknown = madeUpToken();
      for (let i = 0; i < 3; i++) {
        const a = await headOnly(server.base, postHead(PATHS.statistics.ingest, `Bearer ${unknown}`));
        expect(a.status).toBe(401);
        expect(a.closed).toBe(true);
      }
      expect(lookups.count).toBe(1);
      // A live token of another scope is refused the same way.
      const push = await headOnly(
        server.base,
        postHead(PLAYER_ENDPOINTS.hashes.path, `Bearer ${ingestToken}`),
      );
      expect(push.status).toBe(401);
      expect(JSON.parse(push.body).message).toBe(MSG_HASHES.badToken);
    } finally {
      lookups.restore();
    }
  });

  it('still takes a live token with its body', async () => {
    const team = await buildTeam(server.app);
    const domain = await buildDomain(server.app, team.id, { promoted: true });
    const key = await buildKey(server.app, team.id, domain.id);
    const token = await tokenOf(server.app, team, 'ingest');
    const res = await fetch(`${server.base}${PATHS.statistics.ingest}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        reports: [
          {
            apiKey: key.keyHash,
            sessionId: 's1',
            ts: Math.floor(Date.now() / 1000),
            cdnBytes: 5,
            p2pBytes: 0,
          },
          {
            apiKey: key.keyHash,
            sessionId: 's2',
            ts: Math.floor(Date.now() / 1000),
            cdnBytes: 7,
            p2pBytes: 0,
          },
        ],
      }),
    });
    expect(res.status).toBe(202);
    expect(((await res.json()) as { accepted: number }).accepted).toBe(2);
  });

  it('answers 500 key hashes of the longest valid length in an export URL (Node allowed ~390 of 40)', async () => {
    const team = await buildTeam(server.app);
    const token = await tokenOf(server.app, team, 'statistics');
    const keys = Array.from(
      { length: 500 },
      (_, i) => `${i.toString(36).padStart(4, '0')}${'k'.repeat(196)}`,
    );
    await server.app.ctx.db
      .insertInto('keys')
      .values(
        keys.map((key_hash) => ({
          team_id: team.id,
          domain_id: null,
          key_hash,
          name: '',
          status: KeyStatus.Active,
          created_at: server.app.ctx.now(),
        })),
      )
      .execute();
    const path = exportPath(keys);
    expect(path.length).toBeGreaterThan(100_000);
    const res = await fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: unknown[] };
    expect(Array.isArray(body.data)).toBe(true);
  });
});

describe('the budget of refused token attempts per address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TOKEN_FAILURES_PER_ADDRESS_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 429 to that address before any look-up once spent; another address is unaffected', async () => {
    const team = await buildTeam(server.app);
    const good = await tokenOf(server.app, team, 'statistics');
    const keys = [(await buildKey(server.app, team.id, null)).keyHash];
    const bad = '127.0.0.5';
    const other = '127.0.0.6';
    // Failures of all three calls count together.
    expect((await headOnly(server.base, postHead(PATHS.statistics.ingest, 'Bearer x'), bad)).status).toBe(
      401,
    );
    expect(
      (await headOnly(server.base, getHead(exportPath(keys), `Bearer ${madeUpToken()}`), bad)).status,
    ).toBe(401);
    expect((await headOnly(server.base, postHead(PLAYER_ENDPOINTS.hashes.path, undefined), bad)).status).toBe(
      401,
    );

    const lookups = countLookups(server.app);
    try {
      const spent = await headOnly(
        server.base,
        postHead(PATHS.statistics.ingest, `Bearer ${madeUpToken()}`),
        bad,
      );
      expect(spent.status).toBe(429);
      expect(JSON.parse(spent.body).message).toBe(MSG.tooManyRequests);
      expect(Number(spent.headers['retry-after'])).toBeGreaterThan(0);
      expect(spent.closed).toBe(true);
      // Even a live token from that address waits: nothing is looked up for it.
      const live = await headOnly(server.base, getHead(exportPath(keys), `Bearer ${good}`), bad);
      expect(live.status).toBe(429);
      // Those were answered ahead of Fastify (tokenBudgetAhead); the route's own hook answers the same.
      const routed = await server.app.inject({
        method: 'POST',
        url: PATHS.statistics.ingest,
        remoteAddress: bad,
        headers: { authorization: `Bearer ${good}`, 'content-type': 'application/json' },
        payload: '{"reports":[]}',
      });
      expect(routed.statusCode).toBe(429);
      expect(routed.json()).toEqual(JSON.parse(spent.body));
      expect(routed.headers.connection).toBe('close');
      expect(Number(routed.headers['retry-after'])).toBeGreaterThan(0);
      expect(lookups.count).toBe(0);
    } finally {
      lookups.restore();
    }
    // Browsers' reports (no token) from that address are not token calls: not refused by this budget.
    const anonymous = await postFrom(server.base, bad, PATHS.statistics.ingest, { reports: [] });
    expect(anonymous.status).not.toBe(429);

    const fine = await headOnly(server.base, getHead(exportPath(keys), `Bearer ${good}`), other);
    expect(fine.status).toBe(200);
    expect((await headOnly(server.base, getHead(exportPath(keys), 'Bearer x'), other)).status).toBe(401);

    const metrics =
      await server.app.ctx.metrics.registry.getSingleMetricAsString('tlprt_token_refused_total');
    expect(metrics).toContain('tlprt_token_refused_total{reason="budget"} 3');
    expect(metrics).toContain('tlprt_token_refused_total{reason="malformed"} 3');
    expect(metrics).toContain('tlprt_token_refused_total{reason="unknown"} 1');
  });
});

describe('tokens in the access log', () => {
  const lines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      deps: { logger: { level: 'debug', stream: { write: (line: string) => void lines.push(line) } } },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('redacts a token placed in the URL and never logs the Authorization header', async () => {
    const team = await buildTeam(server.app);
    const live = await tokenOf(server.app, team, 'statistics');
    const inQuery = madeUpToken();
    const keys = [(await buildKey(server.app, team.id, null)).keyHash];
    // A token in the query string (and a bad query: the error path), the live one in the header.
    const a = await fetch(`${server.base}${exportPath(keys)}&token=${inQuery}&from=soon`, {
      headers: { authorization: `Bearer ${live}` },
    });
    expect(a.status).toBe(400);
    const b = await fetch(`${server.base}/stats/v1/export/${inQuery}?t=${live}`);
    expect(b.status).toBe(404);
    const c = await fetch(`${server.base}${PATHS.statistics.ingest}?token=${inQuery}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${inQuery}`, 'content-type': 'application/json' },
      body: '{"reports":[]}',
    });
    expect(c.status).toBe(401);
    const log = lines.join('');
    expect(log).toContain('/stats/v1/export?');
    expect(log).toContain(`token=${TEAM_TOKEN_PREFIX}[redacted]`);
    expect(log).not.toContain(inQuery);
    expect(log).not.toContain(live);
    expect(log).not.toContain(inQuery.slice(TEAM_TOKEN_PREFIX.length));
    expect(log).not.toContain(live.slice(TEAM_TOKEN_PREFIX.length));
  });

  it('redacts every token-like value, whatever its length', () => {
    expect(redactTokens(`/x?a=${TEAM_TOKEN_PREFIX}abc&b=${TEAM_TOKEN_PREFIX}${'Z'.repeat(43)}`)).toBe(
      `/x?a=${TEAM_TOKEN_PREFIX}[redacted]&b=${TEAM_TOKEN_PREFIX}[redacted]`,
    );
    expect(redactTokens('/stats/v1/export?range=day')).toBe('/stats/v1/export?range=day');
  });
});
