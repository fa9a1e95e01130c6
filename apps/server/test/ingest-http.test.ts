import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INGEST_ANONYMOUS_MAX_REPORTS, MSG_INGEST, PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFastPath } from '../src/features/statistics/ingest-http.js';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { startServer, type TestServer } from './helpers/server.js';

// The browsers' ingest path (ingest-http.ts) answers ahead of Fastify's router. Here it runs on a server
// of its own beside the app, so that what it declines shows (599), and each body is also sent to the
// app's Fastify route (inject): both must answer alike.

const DECLINED = 599;
const COMPARED = ['vary', 'access-control-allow-origin', 'x-content-type-options', 'content-type'];
const now = () => Math.floor(Date.now() / 1000);

interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string | undefined>;
}

async function fastPathServer(app: TestServer['app']) {
  const take = ingestFastPath(app.stats);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (take(req, res)) return;
    req.resume();
    res.writeHead(DECLINED).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const pick = (headers: Record<string, unknown>, names: string[]) =>
  Object.fromEntries(names.map((n) => [n, headers[n] === undefined ? undefined : String(headers[n])]));

async function viaFastPath(
  base: string,
  body: string,
  headers: Record<string, string> = {},
  path: string = PATHS.statistics.ingest,
): Promise<Answer> {
  const r = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await r.text();
  return {
    status: r.status,
    body: text ? JSON.parse(text) : undefined,
    headers: pick(Object.fromEntries(r.headers), [...COMPARED, 'retry-after']),
  };
}

async function viaRoute(app: TestServer['app'], body: string, headers: Record<string, string> = {}) {
  const r = await app.inject({
    method: 'POST',
    url: PATHS.statistics.ingest,
    headers: { 'content-type': 'application/json', ...headers },
    payload: body,
  });
  return {
    status: r.statusCode,
    body: r.body ? JSON.parse(r.body) : undefined,
    headers: pick(r.headers, [...COMPARED, 'retry-after']),
  };
}

describe('the ingest path ahead of the router', () => {
  let server: TestServer;
  let fast: Awaited<ReturnType<typeof fastPathServer>>;
  let key: string;
  const page = 'https://player.ingest-http.test';
  beforeAll(async () => {
    server = await startServer();
    fast = await fastPathServer(server.app);
    const team = await buildTeam(server.app);
    const domain = await buildDomain(server.app, team.id, {
      host: 'player.ingest-http.test',
      promoted: true,
    });
    key = (await buildKey(server.app, team.id, domain.id)).keyHash;
  });
  afterAll(async () => {
    await fast?.close();
    await server?.close();
  });

  const report = (extra: Record<string, unknown> = {}) => ({
    apiKey: key,
    sessionId: 'viewer-1',
    ts: now(),
    cdnBytes: 1000,
    p2pBytes: 500,
    ...extra,
  });
  const cases: Array<[string, () => string, Record<string, string>?]> = [
    ['a report from a page of the key', () => JSON.stringify({ reports: [report()] }), { origin: page }],
    [
      'a report from another site',
      () => JSON.stringify({ reports: [report()] }),
      { origin: 'https://else.test' },
    ],
    ['a report with no Origin (a server)', () => JSON.stringify({ reports: [report()] })],
    ['no reports', () => '{"reports":[]}'],
    ['reports that are not objects', () => '{"reports":[1,"x",null]}', { origin: page }],
    ['a report of an unknown key', () => JSON.stringify({ reports: [report({ apiKey: 'x'.repeat(40) })] })],
    ['a report with a negative count', () => JSON.stringify({ reports: [report({ cdnBytes: -1 })] })],
    [
      'a report with P2P bytes from other networks',
      () => JSON.stringify({ reports: [report({ p2pCrossBytes: 500, sessionId: 'cross' })] }),
      { origin: page },
    ],
    [
      'a report with more P2P bytes from other networks than P2P bytes',
      () => JSON.stringify({ reports: [report({ p2pCrossBytes: 501 })] }),
      { origin: page },
    ],
    ['a report from an hour ago', () => JSON.stringify({ reports: [report({ ts: now() - 3600 })] })],
    ['two sessions', () => JSON.stringify({ reports: [report(), report({ sessionId: 'viewer-2' })] })],
    [
      `more than ${INGEST_ANONYMOUS_MAX_REPORTS} reports`,
      () =>
        JSON.stringify({
          reports: Array.from({ length: INGEST_ANONYMOUS_MAX_REPORTS + 1 }, (_, i) => report({ seq: i })),
        }),
      { origin: page },
    ],
    ['broken JSON', () => '{"reports": ['],
    ['only spaces', () => '   '],
    ['a __proto__ key', () => '{"reports":[],"__proto__":{"polluted":true}}'],
    ['a constructor.prototype key', () => '{"reports":[],"constructor":{"prototype":{"polluted":true}}}'],
    ['an array', () => '[]'],
    ['null', () => 'null'],
    ['reports not a list', () => '{"reports":"x"}'],
    ['no reports field', () => '{}'],
  ];
  it.each(cases)('answers %s as the route does', async (_name, body, headers = {}) => {
    const text = body();
    const fastAnswer = await viaFastPath(fast.base, text, headers);
    expect(fastAnswer.status).not.toBe(DECLINED);
    expect(fastAnswer).toEqual(await viaRoute(server.app, text, headers));
  });

  it('answers a report as accepted, with CORS for the page, and counts it', async () => {
    const before = server.app.stats.reportsReceived;
    const r = await viaFastPath(fast.base, JSON.stringify({ reports: [report({ sessionId: 'counted' })] }), {
      origin: page,
    });
    expect(r).toEqual({
      status: 202,
      body: { accepted: 1, rejected: 0, errors: [] },
      headers: {
        vary: 'Origin',
        'access-control-allow-origin': page,
        'x-content-type-options': 'nosniff',
        'content-type': 'application/json; charset=utf-8',
        'retry-after': undefined,
      },
    });
    expect(server.app.stats.reportsReceived).toBe(before + 1);
  });

  it('leaves to the route what it does not take: tokens, other types, encodings, streams, other calls', async () => {
    const body = JSON.stringify({ reports: [report()] });
    const declined = async (init: RequestInit, path: string = PATHS.statistics.ingest) =>
      (await fetch(fast.base + path, { method: 'POST', body, ...init })).status;
    const json = { 'content-type': 'application/json' };
    expect(await declined({ headers: { ...json, authorization: 'Bearer abc' } })).toBe(DECLINED);
    expect(await declined({ headers: { 'content-type': 'text/plain' } })).toBe(DECLINED);
    expect(await declined({ headers: {} })).toBe(DECLINED);
    expect(await declined({ headers: { ...json, 'content-encoding': 'gzip' } })).toBe(DECLINED);
    expect(await declined({ headers: json }, `${PATHS.statistics.ingest}/x`)).toBe(DECLINED);
    expect(await declined({ headers: json, body: '' })).toBe(DECLINED);
    // A body of unknown length (chunked): the route reads it within its limit.
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(body));
        c.close();
      },
    });
    expect(await declined({ headers: json, body: stream, duplex: 'half' } as RequestInit)).toBe(DECLINED);
    expect((await fetch(fast.base + PATHS.statistics.ingest, { headers: json })).status).toBe(DECLINED);
    // Query strings do not matter, as for the router.
    expect((await viaFastPath(fast.base, body, {}, `${PATHS.statistics.ingest}?v=1`)).status).toBe(202);
  });
});

describe('the ingest path ahead of the router, at an address budget', () => {
  let server: TestServer;
  let fast: Awaited<ReturnType<typeof fastPathServer>>;
  let key: string;
  beforeAll(async () => {
    server = await startServer({ env: { INGEST_REPORTS_PER_ADDRESS_PER_MINUTE: '3' } });
    fast = await fastPathServer(server.app);
    const team = await buildTeam(server.app);
    key = (await buildKey(server.app, team.id, null)).keyHash;
  });
  afterAll(async () => {
    await fast?.close();
    await server?.close();
  });

  it('refuses a batch past the budget as the route does (429, counted), and leaves a spent address to the route', async () => {
    const batch = (seq: number, n: number) =>
      JSON.stringify({
        reports: Array.from({ length: n }, (_, i) => ({
          apiKey: key,
          sessionId: 'budget',
          ts: now(),
          cdnBytes: 1,
          p2pBytes: 0,
          seq: seq + i,
        })),
      });
    expect((await viaFastPath(fast.base, batch(0, 2))).status).toBe(202);
    const refused = await viaFastPath(fast.base, batch(2, 2));
    const route = await viaRoute(server.app, batch(2, 2));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: MSG_INGEST.addressBudget });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect({ ...refused, headers: { ...refused.headers, 'retry-after': 'n' } }).toEqual({
      ...route,
      headers: { ...route.headers, 'retry-after': 'n' },
    });
    const limited = await server.app.ctx.metrics.registry.getSingleMetric('tlprt_rate_limited_total')?.get();
    const byRoute = limited?.values.find((v) => v.labels.route === PATHS.statistics.ingest);
    expect(byRoute?.value).toBe(2);
    expect((await viaFastPath(fast.base, batch(4, 1))).status).toBe(202);
    // The budget spent, the route answers before the body is read.
    expect((await viaFastPath(fast.base, batch(5, 1))).status).toBe(DECLINED);
  });
});
