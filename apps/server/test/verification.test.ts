import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isValidHash } from '../src/features/domains/verification/host.js';
import {
  createVerifier,
  newVerificationHash,
  normalizeHost,
  type Verifier,
  type VerifierOptions,
} from '../src/features/domains/verification/index.js';
import { instructions } from '../src/features/domains/verification/instructions.js';
import { checkVerificationMeta } from '../src/features/domains/verification/meta.js';
import { type AddressClass, classifyAddress, isPublicAddress } from '../src/net/address.js';
import { type SafeFetchOptions, safeFetch } from '../src/net/safe-fetch.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import { closedPort, type Route, startTestSite, type TestSite } from './helpers/http-site.js';

const HOST = 'site.test';
const HASH = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const OTHER = 'ffffffffffffffffffffffffffffffff';
const PUBLIC_HOST = 'dashboard.test';
const META = { CNAME: 1, dnsTXT: 2, HTML: 3, META: 4 } as const;

let dns: TestDns;
let site: TestSite;
let httpsPort: number;
/** Tests run with allowPrivate, since the only server they may reach is on 127.0.0.1. */
let verifier: Verifier;

function makeVerifier(overrides: Partial<VerifierOptions> = {}): Verifier {
  return createVerifier({
    dnsServers: [dns.server],
    httpPort: site.port,
    httpsPort,
    allowPrivate: true,
    publicHost: PUBLIC_HOST,
    timeoutMs: 2000,
    ...overrides,
  });
}

function page(head: string, body = '<p>hello</p>'): string {
  return `<!doctype html><html><head><title>Site</title>${head}</head><body>${body}</body></html>`;
}

function redirect(location: string): Route {
  return { status: 302, headers: { location }, body: 'moved' };
}

/** The reason of a failed result, or a marker that makes a wrong pass obvious in the diff. */
function reasonOf(result: { ok: true } | { ok: false; reason: string }): string {
  return result.ok ? '(passed)' : result.reason;
}

beforeAll(async () => {
  dns = await startTestDns();
  site = await startTestSite();
  httpsPort = await closedPort();
  verifier = makeVerifier();
});

afterAll(async () => {
  await site.close();
  await dns.close();
});

beforeEach(() => {
  site.clear();
  dns.set(HOST, { A: ['127.0.0.1'] });
});

describe('META method', () => {
  it('passes when the head holds the tag with the hash', async () => {
    site.route('/', { body: page(`<meta name="tlprt-verification" content="${HASH}">`) });
    expect(await verifier.verify(HOST, HASH, META.META)).toEqual({ ok: true });
    // https on the closed port failed first, then http reached the site with its own Host header.
    expect(site.requests).toHaveLength(1);
    expect(site.requests[0]?.host).toBe(`${HOST}:${site.port}`);
    expect(site.requests[0]?.userAgent).toMatch(/tlprt-domain-verifier/);
  });

  it('accepts any attribute order, quoting and case', async () => {
    site.route('/', { body: page(`<META content='${HASH}'\n  NAME=TLPRT-Verification />`) });
    expect(await verifier.verify(HOST, HASH, META.META)).toEqual({ ok: true });
  });

  it('fails for another hash', async () => {
    site.route('/', { body: page(`<meta name="tlprt-verification" content="${OTHER}">`) });
    const result = await verifier.verify(HOST, HASH, META.META);
    expect(reasonOf(result)).toMatch(/another hash/);
  });

  it('fails for a hash that only starts with ours', async () => {
    site.route('/', { body: page(`<meta name="tlprt-verification" content="${HASH}x">`) });
    expect((await verifier.verify(HOST, HASH, META.META)).ok).toBe(false);
  });

  it('fails when the tag is only in the body', async () => {
    site.route('/', { body: page('', `<meta name="tlprt-verification" content="${HASH}">`) });
    expect(reasonOf(await verifier.verify(HOST, HASH, META.META))).toMatch(/no tlprt-verification meta/);
  });

  it('fails when the tag is inside a comment or a script', async () => {
    const tag = `<meta name="tlprt-verification" content="${HASH}">`;
    site.route('/', { body: page(`<!-- ${tag} --><script>const s = '${tag}';</script>`) });
    expect(reasonOf(await verifier.verify(HOST, HASH, META.META))).toMatch(/no tlprt-verification meta/);
  });

  it('fails when the tag is missing', async () => {
    site.route('/', { body: page('<meta charset="utf-8">') });
    expect(reasonOf(await verifier.verify(HOST, HASH, META.META))).toMatch(/no tlprt-verification meta/);
  });

  it('fails when the home page is not 200', async () => {
    site.route('/', { status: 500, body: page(`<meta name="tlprt-verification" content="${HASH}">`) });
    expect(reasonOf(await verifier.verify(HOST, HASH, META.META))).toMatch(/HTTP 500/);
  });

  it('reads a big page when the head closes within the first 256 KiB', async () => {
    const big = 'x'.repeat(400 * 1024);
    site.route('/', { body: page(`<meta name="tlprt-verification" content="${HASH}">`, big) });
    expect(await verifier.verify(HOST, HASH, META.META)).toEqual({ ok: true });
  });

  it('fails when the head does not close within the first 256 KiB', async () => {
    const padding = `<meta name="filler" content="${'x'.repeat(300 * 1024)}">`;
    site.route('/', { body: page(`${padding}<meta name="tlprt-verification" content="${HASH}">`) });
    expect(reasonOf(await verifier.verify(HOST, HASH, META.META))).toMatch(/head is not closed/);
  });
});

describe('HTML method', () => {
  const file = `/tlprt-${HASH}.html`;

  it('passes for a 200 file holding the hash (whitespace around it allowed)', async () => {
    site.route(file, { body: `${HASH}\n` });
    expect(await verifier.verify(HOST, HASH, META.HTML)).toEqual({ ok: true });
    expect(site.requests.map((r) => r.path)).toEqual([file]);
  });

  it('fails for a page that only contains the hash (a "not found" page answered 200 echoing the path)', async () => {
    site.route(file, { body: `<html><body>No page at /tlprt-${HASH}.html</body></html>` });
    expect(reasonOf(await verifier.verify(HOST, HASH, META.HTML))).toMatch(/does not hold the hash alone/);
  });

  it("never follows a redirect to another site: that site's file proves nothing about this host", async () => {
    dns.set('elsewhere.test', { A: ['127.0.0.1'] });
    site.route(file, redirect(`http://elsewhere.test/tlprt-${HASH}.html`));
    expect(reasonOf(await verifier.verify(HOST, HASH, META.HTML))).toMatch(/outside/);
    expect(site.requests.map((r) => r.host)).not.toContain(`elsewhere.test:${site.port}`);
  });

  it('fails for a 404', async () => {
    expect(reasonOf(await verifier.verify(HOST, HASH, META.HTML))).toMatch(/HTTP 404/);
  });

  it('fails when the file holds something else', async () => {
    site.route(file, { body: OTHER });
    expect(reasonOf(await verifier.verify(HOST, HASH, META.HTML))).toMatch(/does not hold the hash alone/);
  });

  it('fails for a file larger than 256 KiB, even with the hash at the start', async () => {
    site.route(file, { body: `${HASH}${'x'.repeat(300 * 1024)}` });
    expect(reasonOf(await verifier.verify(HOST, HASH, META.HTML))).toMatch(/larger than 262144 bytes/);
  });
});

describe('dnsTXT method', () => {
  it('passes when a TXT record holds the token', async () => {
    dns.set(HOST, { TXT: [['v=spf1 -all'], [`tlprt-verification=${HASH}`]] });
    expect(await verifier.verify(HOST, HASH, META.dnsTXT)).toEqual({ ok: true });
  });

  it('joins a record split into chunks', async () => {
    dns.set(HOST, { TXT: [['tlprt-verif', `ication=${HASH.slice(0, 10)}`, HASH.slice(10)]] });
    expect(await verifier.verify(HOST, HASH, META.dnsTXT)).toEqual({ ok: true });
  });

  it('fails for another hash', async () => {
    dns.set(HOST, { TXT: [[`tlprt-verification=${OTHER}`]] });
    expect(reasonOf(await verifier.verify(HOST, HASH, META.dnsTXT))).toMatch(/another hash/);
  });

  it('fails for a longer hash that starts with ours', async () => {
    dns.set(HOST, { TXT: [[`tlprt-verification=${HASH}0`]] });
    expect((await verifier.verify(HOST, HASH, META.dnsTXT)).ok).toBe(false);
  });

  it('fails when the host has no TXT record', async () => {
    dns.set(HOST, { A: ['127.0.0.1'] });
    expect(reasonOf(await verifier.verify(HOST, HASH, META.dnsTXT))).toMatch(/no record of this type/);
  });

  it('fails when the name does not exist', async () => {
    expect(reasonOf(await verifier.verify('nowhere.test', HASH, META.dnsTXT))).toMatch(/no such name/);
  });

  it('times out when the DNS server never answers', async () => {
    const silent: Socket = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const mute = makeVerifier({
      dnsServers: [`127.0.0.1:${(silent.address() as AddressInfo).port}`],
      timeoutMs: 300,
    });
    const started = Date.now();
    const result = await mute.verify(HOST, HASH, META.dnsTXT);
    silent.close();
    expect(reasonOf(result)).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('CNAME method', () => {
  const name = `tlprt-${HASH}.${HOST}`;

  it('passes for the right target, whatever its case and root dot', async () => {
    dns.set(name, { CNAME: `VERIFY.${PUBLIC_HOST.toUpperCase()}.` });
    expect(await verifier.verify(HOST, HASH, META.CNAME)).toEqual({ ok: true });
    expect(dns.queries).toContain(`${name} CNAME`);
  });

  it('fails for another target', async () => {
    dns.set(name, { CNAME: 'verify.elsewhere.test' });
    expect(reasonOf(await verifier.verify(HOST, HASH, META.CNAME))).toMatch(
      /points to verify\.elsewhere\.test/,
    );
  });

  it('fails when there is no CNAME', async () => {
    dns.remove(name);
    expect(reasonOf(await verifier.verify(HOST, HASH, META.CNAME))).toMatch(/no such name/);
  });

  it('fails when the name holds another record type', async () => {
    dns.set(name, { A: ['127.0.0.1'] });
    expect((await verifier.verify(HOST, HASH, META.CNAME)).ok).toBe(false);
  });
});

describe('redirects', () => {
  const tagged = page(`<meta name="tlprt-verification" content="${HASH}">`);

  it('follows one redirect to the page', async () => {
    site.route('/', redirect('/home'));
    site.route('/home', { body: tagged });
    expect(await verifier.verify(HOST, HASH, META.META)).toEqual({ ok: true });
  });

  it('follows an absolute redirect to another host of the zone (re-resolved)', async () => {
    dns.set(`www.${HOST}`, { A: ['127.0.0.1'] });
    // The same local server answers both names; the Host header tells them apart.
    site.route('/', (req, res) => {
      const onWww = req.headers.host?.startsWith('www.');
      if (onWww) res.writeHead(200, { 'content-type': 'text/html' }).end(tagged);
      else res.writeHead(301, { location: `http://www.${HOST}/` }).end();
    });
    expect(await verifier.verify(HOST, HASH, META.META)).toEqual({ ok: true });
    expect(site.requests.map((r) => r.host)).toEqual([`${HOST}:${site.port}`, `www.${HOST}:${site.port}`]);
  });

  it('follows three redirects', async () => {
    site.route('/', redirect('/1'));
    site.route('/1', redirect('/2'));
    site.route('/2', redirect('/3'));
    site.route('/3', { body: tagged });
    expect(await verifier.verify(HOST, HASH, META.META)).toEqual({ ok: true });
  });

  it('fails on a fourth redirect', async () => {
    site.route('/', redirect('/1'));
    site.route('/1', redirect('/2'));
    site.route('/2', redirect('/3'));
    site.route('/3', redirect('/4'));
    site.route('/4', { body: tagged });
    expect(reasonOf(await verifier.verify(HOST, HASH, META.META))).toMatch(/more than 3 redirects/);
    expect(site.requests.map((r) => r.path)).not.toContain('/4');
  });

  it('fails on a redirect loop', async () => {
    site.route('/', redirect('/a'));
    site.route('/a', redirect('/'));
    expect(reasonOf(await verifier.verify(HOST, HASH, META.META))).toMatch(/redirect loop/);
  });

  it('refuses a redirect to another port', async () => {
    site.route('/', redirect(`http://${HOST}:${httpsPort}/`));
    expect(reasonOf(await verifier.verify(HOST, HASH, META.META))).toMatch(/port \d+ is not allowed/);
  });

  it('refuses a redirect to a non-web scheme', async () => {
    site.route('/', redirect('file:///etc/passwd'));
    expect(reasonOf(await verifier.verify(HOST, HASH, META.META))).toMatch(/non-web URL/);
  });
});

describe('time limits', () => {
  it('times out on a server that answers too late', async () => {
    const quick = makeVerifier({ timeoutMs: 300 });
    site.route('/', { delayMs: 3000, body: page(`<meta name="tlprt-verification" content="${HASH}">`) });
    const started = Date.now();
    const result = await quick.verify(HOST, HASH, META.META);
    expect(reasonOf(result)).toMatch(/http:\/\/site\.test: timed out after 300 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('times out on a body that never ends', async () => {
    const quick = makeVerifier({ timeoutMs: 300 });
    site.route(`/tlprt-${HASH}.html`, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write(HASH);
    });
    expect(reasonOf(await quick.verify(HOST, HASH, META.HTML))).toMatch(/timed out/);
  });
});

describe('SSRF guard', () => {
  it('refuses a host resolving to 127.0.0.1 without allowPrivate, before any connection', async () => {
    const strict = makeVerifier({ allowPrivate: false });
    site.route('/', { body: page(`<meta name="tlprt-verification" content="${HASH}">`) });
    const result = await strict.verify(HOST, HASH, META.META);
    expect(reasonOf(result)).toMatch(/refused loopback address 127\.0\.0\.1/);
    expect(site.requests).toHaveLength(0);
  });

  it('allows it with allowPrivate', async () => {
    site.route('/', { body: page(`<meta name="tlprt-verification" content="${HASH}">`) });
    expect(await verifier.verify(HOST, HASH, META.META)).toEqual({ ok: true });
  });

  it('refuses a host when any of its addresses is private', async () => {
    const strict = makeVerifier({ allowPrivate: false });
    // Never connected to: the guard refuses before any socket is opened.
    dns.set('mixed.test', { A: ['10.0.0.1'], AAAA: ['::ffff:192.168.1.1'] });
    expect(reasonOf(await strict.verify('mixed.test', HASH, META.HTML))).toMatch(/refused private address/);
  });

  describe('redirect targets are re-checked', () => {
    // A strict verifier cannot reach the local site at all, so these call safeFetch with a policy
    // that treats 127.0.0.1 alone as public; 127.0.0.2 stays loopback and must never be connected to.
    const onlyFirstLoopbackIsPublic = (ip: string): AddressClass =>
      ip === '127.0.0.1' ? 'public' : classifyAddress(ip);
    const fetchOptions = (): SafeFetchOptions => ({
      ports: { http: site.port, https: httpsPort },
      allowPrivate: false,
      classify: onlyFirstLoopbackIsPublic,
      timeoutMs: 2000,
      maxBytes: 1024,
      maxRedirects: 3,
      userAgent: 'test',
      resolveAddresses: async (host) => (host === HOST ? ['127.0.0.1'] : ['127.0.0.2']),
    });

    it('passes the policy for the first hop', async () => {
      site.route('/', { body: 'ok' });
      const fetched = await safeFetch(new URL(`http://${HOST}/`), fetchOptions());
      expect(fetched.status).toBe(200);
    });

    it('refuses a redirect to a host resolving to a refused address', async () => {
      site.route('/', redirect(`http://internal.test/`));
      await expect(safeFetch(new URL(`http://${HOST}/`), fetchOptions())).rejects.toThrow(
        /refused loopback address 127\.0\.0\.2/,
      );
      expect(site.requests).toHaveLength(1);
    });

    it('refuses a redirect to an address literal', async () => {
      site.route('/', redirect(`http://127.0.0.2:${site.port}/`));
      await expect(safeFetch(new URL(`http://${HOST}/`), fetchOptions())).rejects.toThrow(/refused loopback/);
      site.route('/', redirect(`http://[::1]:${site.port}/`));
      await expect(safeFetch(new URL(`http://${HOST}/`), fetchOptions())).rejects.toThrow(/refused loopback/);
    });
  });

  it('DNS checks are not subject to the address guard', async () => {
    const strict = makeVerifier({ allowPrivate: false });
    dns.set(HOST, { A: ['127.0.0.1'], TXT: [[`tlprt-verification=${HASH}`]] });
    expect(await strict.verify(HOST, HASH, META.dnsTXT)).toEqual({ ok: true });
  });
});

describe('input validation', () => {
  it.each([
    '',
    'http://site.test/',
    'site.test:80',
    'site.test/path',
    'user@site.test',
    'a..test',
    '-a.test',
    'a-.test',
    'site_test.test',
    'localhost',
    '127.0.0.1',
    '[::1]',
    '1.2.3.4.5',
    `${'a'.repeat(64)}.test`,
    `${'a.'.repeat(127)}test`,
    'site test.test',
  ])('rejects host %j without any network call', async (host) => {
    const queries = dns.queries.length;
    const result = await verifier.verify(host, HASH, META.META);
    expect(result).toEqual({ ok: false, reason: 'invalid host name' });
    expect(dns.queries.length).toBe(queries);
    expect(site.requests).toHaveLength(0);
  });

  it.each(['short', `${HASH} `, 'has space in it!!', 'x'.repeat(129), `${HASH}<`])(
    'rejects hash %j without any network call',
    async (hash) => {
      const queries = dns.queries.length;
      expect(await verifier.verify(HOST, hash, META.dnsTXT)).toEqual({
        ok: false,
        reason: 'invalid verification hash',
      });
      expect(dns.queries.length).toBe(queries);
    },
  );

  it('normalizes case, a root dot and IDN names', async () => {
    expect(normalizeHost('Site.TEST.')).toBe('site.test');
    expect(normalizeHost('bücher.test')).toBe('xn--bcher-kva.test');
    dns.set('xn--bcher-kva.test', { TXT: [[`tlprt-verification=${HASH}`]] });
    expect(await verifier.verify('Bücher.test', HASH, META.dnsTXT)).toEqual({ ok: true });
  });

  it('accepts the hashes it generates', () => {
    const hash = newVerificationHash();
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(isValidHash(hash)).toBe(true);
    expect(isValidHash('A-b_c'.repeat(4))).toBe(true);
  });

  it('refuses a hash too long for the CNAME label', async () => {
    const long = 'a'.repeat(60);
    expect(reasonOf(await verifier.verify(HOST, long, META.CNAME))).toMatch(/too long for a DNS label/);
  });

  it('refuses method 5, which needs no check', async () => {
    const result = await verifier.verify(HOST, HASH, 5 as unknown as 1);
    expect(reasonOf(result)).toMatch(/cannot be checked/);
  });
});

describe('private-address classifier', () => {
  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.10', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.1.1', 'link-local'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['fe80::1%eth0', 'link-local'],
  ])('refuses %s (%s)', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.0.1',
    '2606:4700::1',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
  ])('allows %s', (ip) => {
    expect(classifyAddress(ip)).toBe('public');
    expect(isPublicAddress(ip)).toBe(true);
  });

  it('calls anything else invalid', () => {
    expect(classifyAddress('site.test')).toBe('invalid');
    expect(classifyAddress('300.1.1.1')).toBe('invalid');
  });
});

describe('meta parser', () => {
  const tag = `<meta name="tlprt-verification" content="${HASH}">`;

  it('finds the tag in a head with omitted head tags', () => {
    expect(checkVerificationMeta(`<html>${tag}<body>x</body>`, false, HASH)).toEqual({ ok: true });
    expect(checkVerificationMeta(tag, false, HASH)).toEqual({ ok: true });
  });

  it('does not trust an unclosed head of a truncated page', () => {
    expect(checkVerificationMeta(`<html><head>${tag}`, true, HASH).ok).toBe(false);
  });

  it('keeps quoted > inside attribute values', () => {
    const html = `<head><meta data-x="a>b" name="tlprt-verification" content="${HASH}"></head>`;
    expect(checkVerificationMeta(html, false, HASH)).toEqual({ ok: true });
  });
});

describe('instructions', () => {
  it('gives the exact copyable texts of the four methods', () => {
    expect(instructions('Site.test', HASH, PUBLIC_HOST)).toEqual({
      meta: { tag: `<meta name="tlprt-verification" content="${HASH}">` },
      html: { fileName: `tlprt-${HASH}.html`, content: HASH, url: `https://site.test/tlprt-${HASH}.html` },
      dnsTxt: { name: 'site.test', type: 'TXT', value: `tlprt-verification=${HASH}` },
      cname: { name: `tlprt-${HASH}.site.test`, type: 'CNAME', target: 'verify.dashboard.test' },
    });
    expect(verifier.instructions(HOST, HASH).cname.target).toBe('verify.dashboard.test');
  });
});
