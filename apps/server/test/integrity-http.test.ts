import { randomBytes } from 'node:crypto';
import { PLAYER_PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import { startTestSite, type TestSite } from './helpers/http-site.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';

// Integrity questions are answered ahead of Fastify's router (integrity-http.ts) over HTTP, and by the
// Fastify route for `inject` (and a closing server): both must answer every question alike, headers
// included, and a hash answer may be reused by a cache in front while an error may not.

const COMPARED = [
  'vary',
  'access-control-allow-origin',
  'x-content-type-options',
  'content-type',
  'cache-control',
  'retry-after',
];
const ORIGIN = new URL(PUBLIC_URL).origin;

let dns: TestDns;
let site: TestSite;
let server: TestServer;
let keyHash: string;
let host: string;

beforeAll(async () => {
  dns = await startTestDns();
  site = await startTestSite();
  server = await startServer({
    env: {
      DNS_SERVERS: dns.server,
      VERIFY_HTTP_PORT: String(site.port),
      VERIFY_ALLOW_PRIVATE: 'true',
      INTEGRITY_PER_KEY_PER_MINUTE: '1000',
    },
  });
  const team = await buildTeam(server.app);
  host = `h-${randomBytes(3).toString('hex')}.example.test`;
  dns.set(host, { A: ['127.0.0.1'] });
  await buildDomain(server.app, team.id, { host, promoted: true });
  ({ keyHash } = await buildKey(server.app, team.id, null));
  site.route('/a.ts', { body: randomBytes(2000) });
  site.route('/gone.ts', { status: 404, body: 'no' });
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  await dns?.close();
});

const pick = (headers: Record<string, unknown>) =>
  Object.fromEntries(COMPARED.map((n) => [n, headers[n] === undefined ? undefined : String(headers[n])]));

async function both(query: string, origin: string | undefined = ORIGIN) {
  const path = `${PLAYER_PATHS.integrity}?${query}`;
  const headers: Record<string, string> = origin ? { origin } : {};
  const r = await fetch(server.base + path, { headers });
  const text = await r.text();
  const fast = { status: r.status, body: JSON.parse(text), headers: pick(Object.fromEntries(r.headers)) };
  const i = await server.app.inject({ method: 'GET', url: path, headers });
  const routed = { status: i.statusCode, body: i.json(), headers: pick(i.headers) };
  return { fast, routed };
}

const seg = (path: string) => `http://${host}:${site.port}${path}`;
const q = (o: Record<string, string | string[]>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) for (const x of [v].flat()) p.append(k, x);
  return p.toString();
};

describe('the fast path and the route', () => {
  const cases: Array<[string, () => string, number, string?]> = [
    ['a hash', () => q({ key: keyHash, url: seg('/a.ts') }), 200],
    ['a hash again (from memory)', () => q({ key: keyHash, url: seg('/a.ts'), stream: seg('/i.m3u8') }), 200],
    ['a range', () => q({ key: keyHash, url: seg('/a.ts'), range: '0-99' }), 200],
    ['no key', () => q({ url: seg('/a.ts') }), 400],
    ['a repeated key', () => q({ key: [keyHash, keyHash], url: seg('/a.ts') }), 400],
    ['an unknown key', () => q({ key: 'nope', url: seg('/a.ts') }), 404],
    ['a foreign page', () => q({ key: keyHash, url: seg('/a.ts') }), 404, 'https://evil.example'],
    ['no url', () => q({ key: keyHash }), 400],
    ['a url of another scheme', () => q({ key: keyHash, url: 'ftp://x.example/a.ts' }), 400],
    ['a bad range', () => q({ key: keyHash, url: seg('/a.ts'), range: '9-1' }), 400],
    ['a stream name too long', () => q({ key: keyHash, url: seg('/a.ts'), stream: 'x'.repeat(3000) }), 400],
    ['a host of no team', () => q({ key: keyHash, url: 'http://other.example.test/a.ts' }), 403],
    ['an origin failure', () => q({ key: keyHash, url: seg('/gone.ts') }), 502],
  ];
  for (const [name, query, status, origin] of cases) {
    it(`answer alike: ${name} (${status})`, async () => {
      const { fast, routed } = await both(query(), origin);
      expect(fast.status, JSON.stringify(fast.body)).toBe(status);
      expect(fast).toEqual(routed);
      expect(fast.headers['cache-control']).toBe(status === 200 ? 'public, max-age=60' : 'no-store');
      expect(fast.headers.vary).toBe(status === 404 && origin === undefined ? undefined : fast.headers.vary);
    });
  }

  it('a key past its budget is answered 429 with Retry-After both ways, readable by the page', async () => {
    const team = await buildTeam(server.app);
    const h = `b-${randomBytes(3).toString('hex')}.example.test`;
    dns.set(h, { A: ['127.0.0.1'] });
    await buildDomain(server.app, team.id, { host: h, promoted: true });
    const k = (await buildKey(server.app, team.id, null)).keyHash;
    const query = q({ key: k, url: `http://${h}:${site.port}/a.ts` });
    // 1,000 a minute: spend them (both ways count against the same budget).
    await Promise.all(
      Array.from({ length: 1000 }, () =>
        server.app.inject({
          method: 'GET',
          url: `${PLAYER_PATHS.integrity}?${query}`,
          headers: { origin: ORIGIN },
        }),
      ),
    );
    const { fast, routed } = await both(query);
    expect(fast.status).toBe(429);
    expect(fast.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(Number(fast.headers['retry-after'])).toBeGreaterThan(0);
    expect({ ...fast, headers: { ...fast.headers, 'retry-after': 'n' } }).toEqual({
      ...routed,
      headers: { ...routed.headers, 'retry-after': 'n' },
    });
  });
});
