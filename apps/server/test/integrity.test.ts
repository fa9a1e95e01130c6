import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { KeyStatus, MSG, MSG_INTEGRITY, PLAYER_PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ASSETS } from '../src/config.js';
import { createIntegrityService, integrityServiceOf } from '../src/features/integrity/service.js';
import { classifyAddress } from '../src/net/address.js';
import { buildDomain, buildKey, buildOrigin, buildTeam, setTeamState } from './factories.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import { Api } from './helpers/http.js';
import { type Route, startTestSite, type TestSite } from './helpers/http-site.js';
import { manualClock, PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';

/**
 * GET /player/v1/integrity over real HTTP: the server fetches segments from a real local web site
 * whose host names a real local DNS server resolves to 127.0.0.1. The main server may reach private
 * addresses (VERIFY_ALLOW_PRIVATE, as in the domain verification tests); the strict one may not, and
 * answers 502 for a host that resolves to one (a fetch failure: that segment comes from the CDN only).
 */
const MAX_BYTES = 200_000;
const CACHE_ENTRIES = 4;
const TIMEOUT_MS = 1500;

let dns: TestDns;
let site: TestSite;
let server: TestServer;
let strict: TestServer;
let api: Api;
const clock = manualClock();

beforeAll(async () => {
  dns = await startTestDns();
  site = await startTestSite();
  const env = { DNS_SERVERS: dns.server, VERIFY_HTTP_PORT: String(site.port) };
  server = await startServer({
    env: {
      ...env,
      VERIFY_ALLOW_PRIVATE: 'true',
      INTEGRITY_TIMEOUT_MS: String(TIMEOUT_MS),
      INTEGRITY_MAX_BYTES: String(MAX_BYTES),
      INTEGRITY_CACHE_ENTRIES: String(CACHE_ENTRIES),
    },
    deps: { now: clock },
  });
  strict = await startServer({ env: { ...env, VERIFY_ALLOW_PRIVATE: 'false' } });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
  await strict?.close();
  await site?.close();
  await dns?.close();
});
beforeEach(() => site.clear());

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** Bytes that differ per seed, so two segments never hash alike by accident. */
const bytes = (n: number, seed = 1) =>
  Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff));
const ask = (key: string, url: string, range?: string) =>
  `${PLAYER_PATHS.integrity}?${new URLSearchParams({ key, url, ...(range ? { range } : {}) })}`;
/** Body fetches of `path` (a HEAD asking for a digest is not one). */
const fetchesOf = (path: string) => site.requests.filter((r) => r.path === path && r.method === 'GET').length;
const urlOn = (host: string, path: string) => `http://${host}:${site.port}${path}`;
let n = 0;
/** A fresh host name that the test DNS server resolves to the local site. */
function freshHost(label = 'd'): string {
  const host = `${label}${++n}-${randomBytes(3).toString('hex')}.example.test`;
  dns.set(host, { A: ['127.0.0.1'] });
  return host;
}

/** A team with a verified, promoted domain and a team-wide key, on `on` (the main server by default). */
async function customer(on: TestServer = server) {
  const team = await buildTeam(on.app);
  const host = freshHost();
  const domain = await buildDomain(on.app, team.id, { host, promoted: true });
  const { keyHash } = await buildKey(on.app, team.id, null);
  return { teamId: team.id, host, domainId: domain.id, keyHash };
}

/** An origin that honours Range like a CDN (206 with Content-Range, clipped at the end). */
function servesRanges(body: Buffer, seen: string[] = []): Route {
  return (req: IncomingMessage, res: ServerResponse) => {
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    seen.push(req.headers.range ?? '');
    if (!m) {
      res.writeHead(200, { 'content-type': 'video/mp2t' }).end(body);
      return;
    }
    const start = Number(m[1]);
    const end = Math.min(Number(m[2]), body.length - 1);
    res
      .writeHead(206, {
        'content-type': 'video/mp2t',
        'content-range': `bytes ${start}-${end}/${body.length}`,
      })
      .end(body.subarray(start, end + 1));
  };
}

describe('answers the origin hash', () => {
  it('of a segment on a verified domain of the key, fetched once, then from the cache', async () => {
    const c = await customer();
    const body = bytes(5000);
    site.route('/v/seg-1.ts', { body, headers: { 'content-type': 'video/mp2t' } });
    const r = await api.get(ask(c.keyHash, urlOn(c.host, '/v/seg-1.ts')));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ sha256: sha(body) });
    // A HEAD for a digest the site does not send, then the body.
    expect(site.requests.map((q) => q.method)).toEqual(['HEAD', 'GET']);
    expect(site.requests[1]?.host).toBe(`${c.host}:${site.port}`);
    expect(site.requests[1]?.userAgent).toMatch(/tlprt-integrity/);
    const again = await api.get(ask(c.keyHash, urlOn(c.host, '/v/seg-1.ts')));
    expect(again.body).toEqual({ sha256: sha(body) });
    expect(fetchesOf('/v/seg-1.ts')).toBe(1);
  });

  it('of a subdomain of a verified domain, and of another domain of the team for a domain-bound key', async () => {
    const c = await customer();
    const sub = `cdn.${c.host}`;
    dns.set(sub, { A: ['127.0.0.1'] });
    const body = bytes(3000, 2);
    site.route('/sub.ts', { body });
    const r = await api.get(ask(c.keyHash, urlOn(sub, '/sub.ts')));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.sha256).toBe(sha(body));

    // The page is on one domain, the stream on another of the same team.
    const page = await buildDomain(server.app, c.teamId, { host: freshHost('page'), promoted: true });
    const bound = await buildKey(server.app, c.teamId, page.id);
    const other = await api.get(ask(bound.keyHash, urlOn(c.host, '/sub.ts')));
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect(other.body.sha256).toBe(sha(body));
  });

  it("of a segment on an active Origin's host (a bare name or a URL), not an inactive one's", async () => {
    const team = await buildTeam(server.app);
    const { keyHash } = await buildKey(server.app, team.id, null);
    const bare = freshHost('o');
    const typedAsUrl = freshHost('u');
    const inactive = freshHost('i');
    await buildOrigin(server.app, team.id, { name: bare, verified: true });
    await buildOrigin(server.app, team.id, { name: `https://${typedAsUrl}/`, verified: true });
    await buildOrigin(server.app, team.id, { name: inactive, status: 20, verified: true });
    const body = bytes(1234, 3);
    site.route('/o.ts', { body });
    for (const host of [bare, `edge.${bare}`, typedAsUrl]) {
      dns.set(host, { A: ['127.0.0.1'] });
      const r = await api.get(ask(keyHash, urlOn(host, '/o.ts')));
      expect(r.status, `${host}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body.sha256).toBe(sha(body));
    }
    const off = await api.get(ask(keyHash, urlOn(inactive, '/o.ts')));
    expect(off.status).toBe(403);
    expect(off.body.message).toBe(MSG_INTEGRITY.hostNotOfKey);
  });

  it('of the demo stream, read from disk (also a range), never by a fetch', async () => {
    const c = await customer();
    const file = readFileSync(join(DEMO_ASSETS, 'demo-stream', 'segment-01.ts'));
    const url = `${PUBLIC_URL}/demo/stream/segment-01.ts`;
    const whole = await api.get(ask(c.keyHash, url));
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);
    expect(whole.body.sha256).toBe(sha(file));
    const part = await api.get(ask(c.keyHash, url, '100-1099'));
    expect(part.body.sha256).toBe(sha(file.subarray(100, 1100)));
    expect(site.requests).toHaveLength(0);

    const missing = await api.get(ask(c.keyHash, `${PUBLIC_URL}/demo/stream/segment-99.ts`));
    expect(missing.status).toBe(502);
  });

  it('refuses to leave the demo folder, encoded or not', async () => {
    const c = await customer();
    for (const path of ['..%2fdemo%2fplayer.html', '%2e%2e%5cconfig.ts', 'a/..%2F..%2F..%2Fpackage.json']) {
      const r = await api.get(ask(c.keyHash, `${PUBLIC_URL}/demo/stream/${path}`));
      expect(r.status, path).toBe(403);
      expect(r.body.message).toBe(MSG_INTEGRITY.notDemoFile);
    }
    // URL parsing resolves a plain or dotted `..`: the path is no longer the demo stream's, and the
    // dashboard's host is not the team's.
    for (const path of ['../player', '%2e%2e/player']) {
      const r = await api.get(ask(c.keyHash, `${PUBLIC_URL}/demo/stream/${path}`));
      expect(r.status, path).toBe(403);
      expect(r.body.message).toBe(MSG_INTEGRITY.hostNotOfKey);
    }
  });

  it('of a byte range (end included): from a 206, from a 200 cut to it, clipped at the end', async () => {
    const c = await customer();
    const body = bytes(10_000, 4);
    const seen: string[] = [];
    site.route('/r/206.ts', servesRanges(body, seen));
    const r = await api.get(ask(c.keyHash, urlOn(c.host, '/r/206.ts'), '1000-1999'));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.sha256).toBe(sha(body.subarray(1000, 2000)));
    expect(seen).toEqual(['bytes=1000-1999']);
    // The whole segment and the range are different answers.
    const whole = await api.get(ask(c.keyHash, urlOn(c.host, '/r/206.ts')));
    expect(whole.body.sha256).toBe(sha(body));
    // Past the end: the bytes up to the end, as the CDN gave them to the peers.
    const tail = await api.get(ask(c.keyHash, urlOn(c.host, '/r/206.ts'), '9000-10999'));
    expect(tail.body.sha256).toBe(sha(body.subarray(9000)));

    site.route('/r/200.ts', { body });
    const cut = await api.get(ask(c.keyHash, urlOn(c.host, '/r/200.ts'), '0-0'));
    expect(cut.body.sha256).toBe(sha(body.subarray(0, 1)));

    site.route('/r/wrong.ts', {
      status: 206,
      headers: { 'content-range': `bytes 0-99/${body.length}` },
      body: body.subarray(0, 100),
    });
    const wrong = await api.get(ask(c.keyHash, urlOn(c.host, '/r/wrong.ts'), '100-199'));
    expect(wrong.status).toBe(502);
    expect(wrong.body.message).toMatch(/bytes 0-99 for 100-199/);
  });

  it("follows a redirect to another host of the team, never to one outside the team's", async () => {
    const c = await customer();
    const edge = `edge.${c.host}`;
    dns.set(edge, { A: ['127.0.0.1'] });
    const foreign = freshHost('edge');
    const body = bytes(700, 5);
    site.route('/moved.ts', { status: 302, headers: { location: urlOn(edge, '/at-edge.ts') } });
    site.route('/away.ts', { status: 302, headers: { location: urlOn(foreign, '/at-foreign.ts') } });
    site.route('/at-edge.ts', { body });
    site.route('/at-foreign.ts', { body });
    const r = await api.get(ask(c.keyHash, urlOn(c.host, '/moved.ts')));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.sha256).toBe(sha(body));
    const away = await api.get(ask(c.keyHash, urlOn(c.host, '/away.ts')));
    expect(away.status).toBe(502);
    expect(away.body.message).toMatch(/redirect to a host outside the team's/);
    expect(site.requests.filter((q) => q.path === '/at-foreign.ts')).toEqual([]);
  });
});

describe('refuses', () => {
  it("another team's host, an unknown host, a draft domain, an address literal, another port (403)", async () => {
    const c = await customer();
    const other = await customer();
    const draft = freshHost('draft');
    await buildDomain(server.app, c.teamId, { host: draft });
    site.route('/x.ts', { body: 'x' });
    const urls = [
      urlOn(other.host, '/x.ts'),
      urlOn(freshHost('nobody'), '/x.ts'),
      urlOn(draft, '/x.ts'),
      urlOn('127.0.0.1', '/x.ts'),
      `http://[::1]:${site.port}/x.ts`,
      // A look-alike that only ends with the team's host.
      urlOn(`evil${c.host}`, '/x.ts'),
    ];
    for (const url of urls) {
      const r = await api.get(ask(c.keyHash, url));
      expect(r.status, url).toBe(403);
      expect(r.body.message, url).toBe(MSG_INTEGRITY.hostNotOfKey);
    }
    const port = await api.get(ask(c.keyHash, `http://${c.host}:${site.port + 1}/x.ts`));
    expect(port.status).toBe(403);
    expect(port.body.message).toBe(MSG_INTEGRITY.portNotFetched);
    expect(site.requests).toHaveLength(0);
  });

  it('an origin error with 502, remembered for a few seconds only', async () => {
    const c = await customer();
    site.route('/gone.ts', { status: 404, body: 'no' });
    const url = urlOn(c.host, '/gone.ts');
    const r = await api.get(ask(c.keyHash, url));
    expect(r.status).toBe(502);
    expect(r.body.message).toBe(`${MSG_INTEGRITY.originFailed}: HTTP 404`);
    expect((await api.get(ask(c.keyHash, url))).status).toBe(502);
    expect(fetchesOf('/gone.ts')).toBe(1);
    clock.advance(3001);
    const body = bytes(100, 6);
    site.route('/gone.ts', { body });
    const back = await api.get(ask(c.keyHash, url));
    expect(back.status).toBe(200);
    expect(back.body.sha256).toBe(sha(body));
    expect(fetchesOf('/gone.ts')).toBe(2);
  });

  it('a segment above INTEGRITY_MAX_BYTES (502)', async () => {
    const c = await customer();
    site.route('/big.ts', { body: bytes(MAX_BYTES + 1) });
    const r = await api.get(ask(c.keyHash, urlOn(c.host, '/big.ts')));
    expect(r.status).toBe(502);
    expect(r.body.message).toMatch(new RegExp(`larger than ${MAX_BYTES} bytes`));
    site.route('/fits.ts', { body: bytes(MAX_BYTES) });
    expect((await api.get(ask(c.keyHash, urlOn(c.host, '/fits.ts')))).status).toBe(200);
  });

  it('an origin slower than INTEGRITY_TIMEOUT_MS (502)', async () => {
    const c = await customer();
    site.route('/slow.ts', { body: 'late', delayMs: 5000 });
    const t0 = Date.now();
    const r = await api.get(ask(c.keyHash, urlOn(c.host, '/slow.ts')));
    expect(r.status).toBe(502);
    expect(r.body.message).toMatch(/timed out/);
    expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS + 1500);
  });

  it('an unknown key, an inactive key, the key of a suspended team, of an unverified domain (404)', async () => {
    const c = await customer();
    site.route('/k.ts', { body: 'k' });
    const url = urlOn(c.host, '/k.ts');
    const inactive = await buildKey(server.app, c.teamId, null, { status: KeyStatus.Inactive });
    const draft = await buildDomain(server.app, c.teamId, { host: freshHost('dr') });
    const ofDraft = await buildKey(server.app, c.teamId, draft.id);
    const suspendedTeam = await buildTeam(server.app);
    await buildDomain(server.app, suspendedTeam.id, { host: freshHost(), promoted: true });
    await setTeamState(server.app, suspendedTeam.id, { suspended: 1 });
    const ofSuspended = await buildKey(server.app, suspendedTeam.id, null);
    for (const key of ['no-such-key-0123456789', inactive.keyHash, ofDraft.keyHash, ofSuspended.keyHash]) {
      const r = await api.get(ask(key, url), { origin: `https://${c.host}` });
      expect(r.status, key).toBe(404);
      expect(r.body.message).toBe(MSG_INTEGRITY.keyNotUsable);
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(site.requests).toHaveLength(0);
  });

  it("a page that is not the key's (404); the key's own pages get CORS, 400s included", async () => {
    const c = await customer();
    const body = bytes(50, 7);
    site.route('/c.ts', { body });
    const url = urlOn(c.host, '/c.ts');
    for (const origin of ['https://elsewhere.example.org', 'null', `https://x${c.host}`]) {
      const r = await api.get(ask(c.keyHash, url), { origin });
      expect(r.status, origin).toBe(404);
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
    }
    const page = `https://www.${c.host}`;
    const ok = await api.get(ask(c.keyHash, url), { origin: page });
    expect(ok.status).toBe(200);
    expect(ok.body.sha256).toBe(sha(body));
    expect(ok.headers.get('access-control-allow-origin')).toBe(page);
    expect(ok.headers.get('vary')).toMatch(/Origin/);
    const bad = await api.get(ask(c.keyHash, 'ftp://x/y'), { origin: page });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe(page);

    const pre = await api.send('OPTIONS', ask(c.keyHash, url), undefined, {
      origin: page,
      'access-control-request-method': 'GET',
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(page);
    expect(pre.headers.get('access-control-allow-methods')).toMatch(/GET/);
    const foreign = await api.send('OPTIONS', ask(c.keyHash, url), undefined, {
      origin: 'https://elsewhere.example.org',
      'access-control-request-method': 'GET',
    });
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a bad query with 400 naming the field', async () => {
    const c = await customer();
    const cases: Array<[string, string, string]> = [
      [`${PLAYER_PATHS.integrity}?key=${c.keyHash}`, 'url', MSG.required],
      [ask(c.keyHash, `ftp://${c.host}/a.ts`), 'url', MSG_INTEGRITY.url],
      [ask(c.keyHash, `/a.ts`), 'url', MSG_INTEGRITY.url],
      [ask(c.keyHash, `http://user:pw@${c.host}/a.ts`), 'url', MSG_INTEGRITY.url],
      [ask(c.keyHash, `http://${c.host}/${'a'.repeat(2048)}`), 'url', MSG_INTEGRITY.url],
      [ask(c.keyHash, urlOn(c.host, '/a.ts'), '9-1'), 'range', MSG_INTEGRITY.range],
      [ask(c.keyHash, urlOn(c.host, '/a.ts'), 'bytes=0-1'), 'range', MSG_INTEGRITY.range],
      [`${PLAYER_PATHS.integrity}?url=${encodeURIComponent(urlOn(c.host, '/a.ts'))}`, 'key', MSG.required],
    ];
    for (const [path, field, message] of cases) {
      const r = await api.get(path);
      expect(r.status, path).toBe(400);
      expect(r.body.errors, path).toEqual({ [field]: message });
    }
    expect(site.requests).toHaveLength(0);
  });
});

describe('origin load', () => {
  it('50 concurrent requests for one segment make exactly one origin fetch', async () => {
    const c = await customer();
    const body = bytes(20_000, 8);
    site.route('/hot.ts', { body, delayMs: 300 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => api.get(ask(c.keyHash, urlOn(c.host, '/hot.ts')))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((a) => a.body.sha256))).toEqual(new Set([sha(body)]));
    expect(fetchesOf('/hot.ts')).toBe(1);
  });

  it(`keeps at most INTEGRITY_CACHE_ENTRIES (${CACHE_ENTRIES}) hashes, the least recently used going first`, async () => {
    const c = await customer();
    const paths = Array.from({ length: CACHE_ENTRIES + 2 }, (_, i) => `/lru/${i}.ts`);
    for (const [i, p] of paths.entries()) site.route(p, { body: bytes(100 + i, i) });
    for (const p of paths) expect((await api.get(ask(c.keyHash, urlOn(c.host, p)))).status).toBe(200);
    const svc = integrityServiceOf(server.app.ctx);
    expect(svc?.cachedEntries).toBe(CACHE_ENTRIES);
    const [first] = paths as [string];
    const last = paths[paths.length - 1] as string;
    // The newest is still held; the oldest left this node's memory, and comes back from the table every
    // node shares, not from the origin.
    await api.get(ask(c.keyHash, urlOn(c.host, last)));
    expect(fetchesOf(last)).toBe(1);
    const again = await api.get(ask(c.keyHash, urlOn(c.host, first)));
    expect(again.body.sha256).toBe(sha(bytes(100, 0)));
    expect(fetchesOf(first)).toBe(1);
    expect(svc?.cachedEntries).toBeLessThanOrEqual(CACHE_ENTRIES);
  });
});

describe('SSRF guard', () => {
  it('refuses a host of the team that resolves to a loopback address (502), before connecting', async () => {
    const c = await customer(strict);
    site.route('/p.ts', { body: 'p' });
    const r = await new Api(strict.base).get(ask(c.keyHash, urlOn(c.host, '/p.ts')));
    expect(r.status).toBe(502);
    expect(r.body.message).toMatch(/refused loopback address 127\.0\.0\.1/);
    expect(site.requests).toHaveLength(0);
  });

  it('re-checks every redirect: one to a private address is refused', async () => {
    // The strict policy with 127.0.0.1 alone treated as public (the local site standing for a public
    // one); 127.0.0.2 stays loopback and must never be connected to.
    const ctx = server.app.ctx;
    const svc = createIntegrityService(
      { ...ctx, config: { ...ctx.config, verifyAllowPrivate: false } },
      { classify: (ip) => (ip === '127.0.0.1' ? 'public' : classifyAddress(ip)) },
    );
    const c = await customer();
    const key = await ctx.keys.find(c.keyHash);
    if (!key) throw new Error('key not usable');
    // A host of the team that resolves to a private address: the redirect passes the team's hosts and
    // the SSRF guard must still refuse it.
    const inner = `inner${++n}.${c.host}`;
    dns.set(inner, { A: ['127.0.0.2'] });
    const body = bytes(10, 9);
    site.route('/direct.ts', { body });
    site.route('/to-inner.ts', { status: 302, headers: { location: urlOn(inner, '/x.ts') } });
    site.route('/to-literal.ts', {
      status: 302,
      headers: { location: `http://127.0.0.2:${site.port}/x.ts` },
    });

    const question = (path: string) => ({
      key,
      url: new URL(urlOn(c.host, path)),
      range: undefined,
      stream: undefined,
    });
    expect(await svc.sha256Of(question('/direct.ts'))).toBe(sha(body));
    await expect(svc.sha256Of(question('/to-inner.ts'))).rejects.toMatchObject({
      statusCode: 502,
      message: expect.stringMatching(/refused loopback address 127\.0\.0\.2/),
    });
    // An address literal is never a host of the team: refused before any connection.
    await expect(svc.sha256Of(question('/to-literal.ts'))).rejects.toMatchObject({
      statusCode: 502,
      message: expect.stringMatching(/redirect to a host outside the team's/),
    });
    expect(site.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual([
      '/direct.ts',
      '/to-inner.ts',
      '/to-literal.ts',
    ]);
  });
});

describe('rate limits', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startServer({
      env: { INTEGRITY_PER_ADDRESS_PER_MINUTE: '6', INTEGRITY_PER_KEY_PER_MINUTE: '3' },
    });
  });
  afterAll(async () => limited?.close());

  it('per key, then per address (429 with Retry-After)', async () => {
    const la = new Api(limited.base);
    const team = await buildTeam(limited.app);
    const k1 = await buildKey(limited.app, team.id, null);
    const k2 = await buildKey(limited.app, team.id, null);
    const url = `${PUBLIC_URL}/demo/stream/segment-00.ts`;
    for (let i = 0; i < 3; i++) expect((await la.get(ask(k1.keyHash, url))).status).toBe(200);
    const byKey = await la.get(ask(k1.keyHash, url));
    expect(byKey.status).toBe(429);
    expect(byKey.body.message).toBe(MSG_INTEGRITY.tooManyForKey);
    expect(Number(byKey.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another key of the same address goes on until the address's 6 requests are spent.
    for (let i = 0; i < 2; i++) expect((await la.get(ask(k2.keyHash, url))).status).toBe(200);
    const byAddress = await la.get(ask(k2.keyHash, url));
    expect(byAddress.status).toBe(429);
    expect(byAddress.body.message).toBe(MSG_INTEGRITY.tooManyForAddress);
    expect(Number(byAddress.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
