import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HASH_PUSH_RATE, LIMITS, MSG, MSG_HASHES, MSG_INTEGRITY, PATHS, PLAYER_PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { readStoredHash, segmentId } from '../src/features/integrity/store.js';
import { buildDomain, buildKey, buildOrigin, buildSession, buildTeamWithEveryRole } from './factories.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import { Api, type Json } from './helpers/http.js';
import { startTestSite, type TestSite } from './helpers/http-site.js';
import { manualClock, startServer, type TestServer } from './helpers/server.js';

/**
 * POST /player/v1/hashes over real HTTP (issue 36): a team's packager publishes its segments' SHA-256
 * with an API token of scope `hashes`; the integrity service then answers them (GET
 * /player/v1/integrity) without reading the segment from the origin, a real local web site whose host
 * names a real local DNS server resolves to 127.0.0.1. The packager recipe, scripts/push-hashes.mjs, runs
 * here against the same server.
 */
const TTL_S = 120;
/** A minute and one of its twelve slots: the sliding window's count has surely moved on. */
const WINDOW_MS = 65_000;
const SCRIPT = resolve(import.meta.dirname, '../../../scripts/push-hashes.mjs');

let dns: TestDns;
let site: TestSite;
let server: TestServer;
let api: Api;
const clock = manualClock();

beforeAll(async () => {
  dns = await startTestDns();
  site = await startTestSite();
  server = await startServer({
    env: {
      DNS_SERVERS: dns.server,
      VERIFY_HTTP_PORT: String(site.port),
      VERIFY_ALLOW_PRIVATE: 'true',
      INTEGRITY_PUSHED_TTL_S: String(TTL_S),
    },
    deps: { now: clock },
  });
  api = new Api(server.base);
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  await dns?.close();
});
beforeEach(() => site.clear());

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const hex = (seed: string) => sha(`fake ${seed}`);
const bytes = (n: number, seed = 1) =>
  Buffer.from(Array.from({ length: n }, (_, i) => (i * 17 + seed) & 0xff));
/** The origin's GETs of a path (the integrity service may ask a HEAD first, for a digest). */
const bodyReads = (path: string) => site.requests.filter((r) => r.method === 'GET' && r.path === path).length;
const urlOn = (host: string, path: string) => `http://${host}:${site.port}${path}`;
const ask = (key: string, url: string, range?: string) =>
  `${PLAYER_PATHS.integrity}?${new URLSearchParams({ key, url, ...(range ? { range } : {}) })}`;
let n = 0;
/** A fresh host name that the test DNS server resolves to the local site. */
function freshHost(label = 'p'): string {
  const host = `${label}${++n}-${randomBytes(3).toString('hex')}.example.test`;
  dns.set(host, { A: ['127.0.0.1'] });
  return host;
}

/** A team with a verified domain, a team-wide key and an API token of `scope` made by its Admin. */
async function customer(scope: 'hashes' | 'ingest' | 'statistics' = 'hashes') {
  const team = await buildTeamWithEveryRole(server.app);
  const host = freshHost();
  await buildDomain(server.app, team.id, { host, promoted: true });
  const { keyHash } = await buildKey(server.app, team.id, null);
  const admin = api.as(team.owner.token);
  const made = await admin.post(PATHS.teamTokens.list(team.id), { name: 'Packager', scope });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(made.body.data.scope).toBe(scope);
  return {
    teamId: team.id,
    host,
    keyHash,
    admin,
    token: made.body.data.token as string,
    tokenId: made.body.data.id as number,
  };
}

const push = (token: string | undefined, body: unknown) =>
  (token === undefined ? api : api.as(token)).post(PLAYER_PATHS.hashes, body as Json);

/** The team's live stored hash of a segment, as every node reads it. */
const stored = async (teamId: number, url: string, range?: { start: number; end: number }) =>
  (await readStoredHash(server.app.ctx.db, teamId, segmentId(new URL(url), range), clock()))?.sha256;

describe('POST /player/v1/hashes: who may push', () => {
  it('a token of scope hashes: 202, stored for the team until the TTL', async () => {
    const c = await customer();
    const url = urlOn(c.host, '/live/seg-1.ts');
    const r = await push(c.token, { hashes: [{ url, sha256: hex('1') }] });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body).toEqual({ accepted: 1, rejected: 0, errors: [] });
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(await stored(c.teamId, url)).toBe(hex('1'));
    const row = await server.app.ctx.db
      .selectFrom('segment_hashes')
      .select(['source', 'expires_at'])
      .where('team_id', '=', c.teamId)
      .executeTakeFirstOrThrow();
    expect(Number(row.expires_at)).toBe(clock() + TTL_S * 1000);
    expect(row.source).toBe(1);
  });

  it('refuses no token, junk, a session token, tokens of the other scopes and a revoked one (401)', async () => {
    const c = await customer();
    const body = { hashes: [{ url: urlOn(c.host, '/x.ts'), sha256: hex('x') }] };
    const session = await buildSession(server.app, (await buildTeamWithEveryRole(server.app)).owner.id);
    const ingest = await customer('ingest');
    const statistics = await customer('statistics');
    for (const [what, token] of [
      ['none', undefined],
      ['junk', 'tlprt_api_nope'],
      ['a session', session],
      ['ingest', ingest.token],
      ['statistics', statistics.token],
    ] as const) {
      const r = await push(token, body);
      expect(r.status, what).toBe(401);
      expect(r.body.message, what).toBe(MSG_HASHES.badToken);
    }
    // The token is checked before the body: a stranger's bad body is still a 401.
    expect((await push(undefined, { hashes: 'nope' })).status).toBe(401);
    // Another scope's token pushing for its own team's host is refused all the same.
    const own = await push(ingest.token, {
      hashes: [{ url: urlOn(ingest.host, '/x.ts'), sha256: hex('x') }],
    });
    expect(own.status).toBe(401);
    expect(await stored(ingest.teamId, urlOn(ingest.host, '/x.ts'))).toBeUndefined();

    expect((await push(c.token, body)).status).toBe(202);
    expect((await c.admin.send('DELETE', PATHS.teamTokens.revoke(c.teamId, c.tokenId))).status).toBe(200);
    const revoked = await push(c.token, body);
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toBe(MSG_HASHES.badToken);
  });

  it("accepts the team's hosts only: a subdomain yes; another team's domain, an unrelated host, an address literal, another port no", async () => {
    const c = await customer();
    const other = await customer();
    const unrelated = freshHost('stranger');
    const sub = `cdn.${c.host}`;
    const urls = [
      urlOn(sub, '/a.ts'),
      urlOn(other.host, '/a.ts'),
      urlOn(unrelated, '/a.ts'),
      `http://127.0.0.1:${site.port}/a.ts`,
      `http://[::1]:${site.port}/a.ts`,
      `http://${c.host}:1/a.ts`,
      `https://${c.host}/a.ts`,
      `https://${c.host}:8443/a.ts`,
    ];
    const r = await push(c.token, { hashes: urls.map((url, i) => ({ url, sha256: hex(String(i)) })) });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body.accepted).toBe(2);
    expect(r.body.rejected).toBe(6);
    const foreign = `url: ${MSG_HASHES.foreignHost}`;
    const port = `url: ${MSG_HASHES.port}`;
    expect(r.body.errors).toEqual([
      { index: 1, url: urls[1], message: foreign },
      { index: 2, url: urls[2], message: foreign },
      { index: 3, url: urls[3], message: foreign },
      { index: 4, url: urls[4], message: foreign },
      { index: 5, url: urls[5], message: port },
      { index: 7, url: urls[7], message: port },
    ]);
    expect(await stored(c.teamId, urls[0] as string)).toBe(hex('0'));
    expect(await stored(c.teamId, urls[6] as string)).toBe(hex('6'));
    // Nothing was stored for the other team, nor under this one.
    expect(await stored(other.teamId, urls[1] as string)).toBeUndefined();
    expect(await stored(c.teamId, urls[1] as string)).toBeUndefined();
  });

  it("another team's push never changes this team's answers, even on a host both may verify", async () => {
    const a = await customer();
    const b = await customer();
    // A CDN host both teams have as an Origin: each team's hashes stay its own.
    const shared = freshHost('shared-cdn');
    await buildOrigin(server.app, a.teamId, { name: shared, verified: true });
    await buildOrigin(server.app, b.teamId, { name: shared, verified: true });
    const body = bytes(3000, 7);
    site.route('/shared.ts', { body });
    site.route('/own.ts', { body });

    // b's push on a's own domain is refused; on the shared host it is stored for b only.
    const onA = await push(b.token, { hashes: [{ url: urlOn(a.host, '/own.ts'), sha256: hex('evil') }] });
    expect(onA.body).toMatchObject({ accepted: 0, rejected: 1 });
    const onShared = await push(b.token, {
      hashes: [{ url: urlOn(shared, '/shared.ts'), sha256: hex('b') }],
    });
    expect(onShared.body).toMatchObject({ accepted: 1, rejected: 0 });

    const own = await api.get(ask(a.keyHash, urlOn(a.host, '/own.ts')));
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.sha256).toBe(sha(body));
    const forA = await api.get(ask(a.keyHash, urlOn(shared, '/shared.ts')));
    expect(forA.status, JSON.stringify(forA.body)).toBe(200);
    expect(forA.body.sha256).toBe(sha(body));
    const forB = await api.get(ask(b.keyHash, urlOn(shared, '/shared.ts')));
    expect(forB.body.sha256).toBe(hex('b'));
  });
});

describe('POST /player/v1/hashes: what a push holds', () => {
  it('counts bad items apart (index, url, the field named) and stores the rest', async () => {
    const c = await customer();
    const ok = urlOn(c.host, '/ok.ts');
    const long = `${urlOn(c.host, '/')}${'a'.repeat(3000)}.ts`;
    const r = await push(c.token, {
      hashes: [
        { url: ok, sha256: hex('ok') },
        { url: ok, sha256: hex('ok').toUpperCase() },
        { url: ok, sha256: 'abc' },
        { url: 'ftp://x.example.test/a.ts', sha256: hex('1') },
        { url: long, sha256: hex('1') },
        { sha256: hex('1') },
        5,
        [ok],
        null,
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body.accepted).toBe(1);
    expect(r.body.rejected).toBe(8);
    expect(r.body.errors).toEqual([
      { index: 1, url: ok, message: `sha256: ${MSG_HASHES.sha256}` },
      { index: 2, url: ok, message: `sha256: ${MSG_HASHES.sha256}` },
      { index: 3, url: 'ftp://x.example.test/a.ts', message: `url: ${MSG_INTEGRITY.url}` },
      { index: 4, url: long.slice(0, 2048), message: `url: ${MSG_INTEGRITY.url}` },
      { index: 5, url: null, message: `url: ${MSG.required}` },
      { index: 6, url: null, message: MSG_HASHES.notItem },
      { index: 7, url: null, message: MSG_HASHES.notItem },
      { index: 8, url: null, message: MSG_HASHES.notItem },
    ]);
    expect(await stored(c.teamId, ok)).toBe(hex('ok'));
  });

  it('stores each range apart from the whole segment; a bad range is rejected; the fragment is dropped', async () => {
    const c = await customer();
    const url = urlOn(c.host, '/single.ts');
    const r = await push(c.token, {
      hashes: [
        { url, sha256: hex('whole') },
        { url, range: '0-999', sha256: hex('first') },
        { url: `${url}#t=2`, range: '1000-1999', sha256: hex('second') },
        { url, range: '2000-1999', sha256: hex('x') },
        { url, range: 'bytes=0-1', sha256: hex('x') },
        { url, range: 7, sha256: hex('x') },
      ],
    });
    expect(r.body).toMatchObject({ accepted: 3, rejected: 3 });
    expect(r.body.errors.map((e: Json) => e.index)).toEqual([3, 4, 5]);
    for (const e of r.body.errors) expect(e.message).toBe(`range: ${MSG_INTEGRITY.range}`);
    expect(await stored(c.teamId, url)).toBe(hex('whole'));
    expect(await stored(c.teamId, url, { start: 0, end: 999 })).toBe(hex('first'));
    expect(await stored(c.teamId, url, { start: 1000, end: 1999 })).toBe(hex('second'));

    // The integrity service answers each without a fetch.
    for (const [range, want] of [
      [undefined, hex('whole')],
      ['0-999', hex('first')],
      ['1000-1999', hex('second')],
    ] as const) {
      const a = await api.get(ask(c.keyHash, `${url}#any`, range));
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(a.body.sha256).toBe(want);
    }
    expect(site.requests).toHaveLength(0);
  });

  it(`takes ${LIMITS.hashesPerPush} hashes a request (one segment twice: the last wins); ${LIMITS.hashesPerPush + 1} is a 400`, async () => {
    const c = await customer();
    const items = Array.from({ length: LIMITS.hashesPerPush }, (_, i) => ({
      url: urlOn(c.host, `/vod/seg-${i}.ts`),
      sha256: hex(String(i)),
    }));
    items[LIMITS.hashesPerPush - 1] = { url: urlOn(c.host, '/vod/seg-0.ts'), sha256: hex('last') };
    const r = await push(c.token, { hashes: items });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body).toEqual({ accepted: LIMITS.hashesPerPush, rejected: 0, errors: [] });
    expect(await stored(c.teamId, urlOn(c.host, '/vod/seg-0.ts'))).toBe(hex('last'));
    expect(await stored(c.teamId, urlOn(c.host, '/vod/seg-998.ts'))).toBe(hex('998'));

    const over = await push(c.token, { hashes: [...items, items[0]] });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual({ hashes: MSG_HASHES.tooMany(LIMITS.hashesPerPush) });
  });

  it('answers 400 naming `hashes` for a request that is not a list of hashes or too large', async () => {
    const c = await customer();
    for (const body of [{}, { hashes: 'x' }, { hashes: { url: 'x' } }]) {
      const r = await push(c.token, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(r.body.errors), JSON.stringify(body)).toEqual(['hashes']);
    }
    const big = JSON.stringify({
      hashes: [{ url: urlOn(c.host, '/a.ts'), pad: 'x'.repeat(LIMITS.hashPushBodyBytes) }],
    });
    const tooLarge = await push(c.token, big);
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.errors).toEqual({ hashes: MSG_HASHES.bodyTooLarge(LIMITS.hashPushBodyBytes) });
  });

  it(`allows ${HASH_PUSH_RATE.requestsPerMinute} pushes and ${HASH_PUSH_RATE.hashesPerMinute} hashes a minute per token, then 429`, async () => {
    const c = await customer();
    for (let i = 0; i < HASH_PUSH_RATE.requestsPerMinute; i++) {
      const r = await push(c.token, { hashes: [] });
      if (r.status !== 202) expect(r.status, `push ${i}`).toBe(202);
    }
    const over = await push(c.token, { hashes: [] });
    expect(over.status).toBe(429);
    expect(over.body.message).toBe(MSG_HASHES.tooManyRequests);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another token of the team has its own budget.
    const second = await c.admin.post(PATHS.teamTokens.list(c.teamId), { name: 'Second', scope: 'hashes' });
    expect((await push(second.body.data.token, { hashes: [] })).status).toBe(202);
    clock.advance(WINDOW_MS);
    expect((await push(c.token, { hashes: [] })).status).toBe(202);

    // Hashes, bad ones included, count against the token's budget of hashes.
    const junk = Array.from({ length: LIMITS.hashesPerPush }, () => 0);
    for (let i = 0; i < HASH_PUSH_RATE.hashesPerMinute / LIMITS.hashesPerPush; i++)
      expect((await push(c.token, { hashes: junk })).status).toBe(202);
    const tooMany = await push(c.token, { hashes: [0] });
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.message).toBe(MSG_HASHES.tooManyHashes);
    clock.advance(WINDOW_MS);
  });

  it('is described in the API document (a 202, the items, the token errors)', async () => {
    const doc = (await api.get('/api/docs/json')).body;
    const op = doc.paths[PLAYER_PATHS.hashes].post;
    expect(Object.keys(op.responses).sort()).toEqual(['202', '400', '401', '429']);
    const hashes = op.requestBody.content['application/json'].schema.properties.hashes;
    expect(hashes.maxItems).toBe(LIMITS.hashesPerPush);
    expect(hashes.items.description).toMatch(/sha256/);
  });

  it('is counted in /metrics', async () => {
    const c = await customer();
    await push(c.token, { hashes: [{ url: urlOn(c.host, '/m.ts'), sha256: hex('m') }, 5] });
    const text = await (await fetch(`${server.base}/metrics`)).text();
    expect(text).toMatch(/^tlprt_integrity_pushed_hashes_total\{result="accepted"\} [1-9]/m);
    expect(text).toMatch(/^tlprt_integrity_pushed_hashes_total\{result="rejected"\} [1-9]/m);
  });
});

describe('pushed hashes and the integrity answer', () => {
  it('a pushed hash beats a fetched one, on the next answer', async () => {
    const c = await customer();
    const body = bytes(4000, 3);
    site.route('/live/seg-9.ts', { body });
    const url = urlOn(c.host, '/live/seg-9.ts');
    const fetched = await api.get(ask(c.keyHash, url));
    expect(fetched.status, JSON.stringify(fetched.body)).toBe(200);
    expect(fetched.body.sha256).toBe(sha(body));
    expect(bodyReads('/live/seg-9.ts')).toBe(1);
    const origin = site.requests.length;

    expect((await push(c.token, { hashes: [{ url, sha256: hex('packager') }] })).body.accepted).toBe(1);
    const after = await api.get(ask(c.keyHash, url));
    expect(after.body.sha256).toBe(hex('packager'));
    // Not even a HEAD: the origin is not asked again.
    expect(site.requests).toHaveLength(origin);
  });

  it('expires after INTEGRITY_PUSHED_TTL_S: then the origin is read again', async () => {
    const c = await customer();
    const body = bytes(2500, 9);
    site.route('/live/seg-3.ts', { body });
    const url = urlOn(c.host, '/live/seg-3.ts');
    await push(c.token, { hashes: [{ url, sha256: hex('pushed') }] });
    expect((await api.get(ask(c.keyHash, url))).body.sha256).toBe(hex('pushed'));
    expect(site.requests).toHaveLength(0);

    clock.advance(TTL_S * 1000 - 1000);
    expect(await stored(c.teamId, url)).toBe(hex('pushed'));
    clock.advance(1000);
    expect(await stored(c.teamId, url)).toBeUndefined();
    const later = await api.get(ask(c.keyHash, url));
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    expect(later.body.sha256).toBe(sha(body));
    expect(bodyReads('/live/seg-3.ts')).toBe(1);
  });

  it('INTEGRITY_PUSHED_TTL_S: 24 hours unless set, at least a minute', () => {
    const base = { DATABASE_URL: 'sqlite::memory:' };
    expect(loadConfig(base).integrity.pushedTtlMs).toBe(86_400_000);
    expect(loadConfig({ ...base, INTEGRITY_PUSHED_TTL_S: '60' }).integrity.pushedTtlMs).toBe(60_000);
    expect(() => loadConfig({ ...base, INTEGRITY_PUSHED_TTL_S: '59' })).toThrow(/INTEGRITY_PUSHED_TTL_S/);
  });
});

describe('scripts/push-hashes.mjs (the README recipe)', () => {
  const children: ChildProcess[] = [];
  const folders: string[] = [];
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    for (const f of folders) await rm(f, { recursive: true, force: true });
  });

  const run = (token: string, args: string[]) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], {
      env: { ...process.env, TLPRT_HASHES_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    return { child, exited, output: () => output };
  };
  async function folder() {
    const dir = await mkdtemp(join(tmpdir(), 'tlprt-hls-'));
    folders.push(dir);
    return dir;
  }
  async function until(what: () => Promise<boolean>, describe: () => string) {
    for (let i = 0; i < 200; i++) {
      if (await what()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out: ${describe()}`);
  }

  it('--once: posts every segment of a folder (sub-folders too), nothing else', async () => {
    const c = await customer();
    const dir = await folder();
    await mkdir(join(dir, '720p'));
    const a = bytes(1880, 1);
    const b = bytes(3760, 2);
    await writeFile(join(dir, 'index.m3u8'), '#EXTM3U\n');
    await writeFile(join(dir, 'seg 0.ts'), a);
    await writeFile(join(dir, '720p', 'part1.m4s'), b);
    const base = urlOn(c.host, '/vod/film/');
    const p = run(c.token, ['--dir', dir, '--base', base, '--server', server.base, '--once']);
    expect(await p.exited, p.output()).toBe(0);
    expect(p.output()).toMatch(/2 accepted, 0 rejected/);
    expect(await stored(c.teamId, `${base}seg%200.ts`)).toBe(sha(a));
    expect(await stored(c.teamId, `${base}720p/part1.m4s`)).toBe(sha(b));
    // A viewer's check of that segment needs no fetch.
    const answer = await api.get(ask(c.keyHash, `${base}720p/part1.m4s`));
    expect(answer.body.sha256).toBe(sha(b));
    expect(site.requests).toHaveLength(0);
  });

  it('watches a live folder: each new segment, and a rewritten one, is posted', async () => {
    const c = await customer();
    const dir = await folder();
    const base = urlOn(c.host, '/live/');
    const p = run(c.token, ['--dir', dir, '--base', base, '--server', server.base, '--interval', '100']);
    const first = bytes(1000, 11);
    await writeFile(join(dir, 'seg-1.ts'), first);
    await until(async () => (await stored(c.teamId, `${base}seg-1.ts`)) === sha(first), p.output);
    const second = bytes(1200, 12);
    await writeFile(join(dir, 'seg-2.ts'), second);
    await until(async () => (await stored(c.teamId, `${base}seg-2.ts`)) === sha(second), p.output);
    const rewritten = bytes(900, 13);
    await writeFile(join(dir, 'seg-1.ts'), rewritten);
    await until(async () => (await stored(c.teamId, `${base}seg-1.ts`)) === sha(rewritten), p.output);
    p.child.kill('SIGTERM');
    await p.exited;
  });

  it('stops at once with a token that is not of scope hashes', async () => {
    const c = await customer('statistics');
    const dir = await folder();
    await writeFile(join(dir, 'a.ts'), bytes(10));
    const p = run(c.token, ['--dir', dir, '--base', urlOn(c.host, '/'), '--server', server.base]);
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain(MSG_HASHES.badToken);
  });
});
