import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DomainStatus, INGEST_ERRORS, KeyStatus, PATHS, PLAYER_PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ASSETS } from '../src/config.js';
import { updateKey } from '../src/features/domains/keys/queries.js';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { Api, type Json } from './helpers/http.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';
import { connectWs, nextMessage, type Refused } from './helpers/ws.js';

/**
 * docs/DESIGN.md §7 "Integrity" and §11: what the server does for the player plugin — the Origin rule on the
 * ingest, the public settings and the tracker; seq de-duplication; the plugin bundle and the demo pages.
 */

const DASHBOARD = new URL(PUBLIC_URL).origin;
// Hosts are unique per run so the same names never meet an earlier run's rows on a shared PostgreSQL.
const R = randomBytes(3).toString('hex');
const SITE = `video${R}.com`;
const OTHER_TEAM_SITE = `rival${R}.com`;
const UNVERIFIED_SITE = `draft${R}.com`;
const INACTIVE_SITE = `paused${R}.com`;
const ICE_SERVERS = `stun:stun.ice${R}.test:3478, turn:turn.ice${R}.test:3478?transport=udp`;
const TURN_SECRET = `turn-secret-${R}-0123456789`;

/** The bundle the server serves: a file of this test, so the test needs no build of the plugin. */
const bundleDir = mkdtempSync(join(tmpdir(), 'tlprt-player-dist-'));
const BUNDLE = Buffer.from(`/* test bundle ${R} */\n${'var TlprtP2P={attach:function(){}};\n'.repeat(200)}`);

let server: TestServer;
let api: Api;
let teamId: number;
let owner: Api;
let siteId: number;
/** An active key on SITE. */
let key: string;
/** A key of every domain of the team. */
let teamKey: string;

const nowS = () => Math.floor(Date.now() / 1000);
const report = (apiKey: string, sessionId: string, cdnBytes: number, seq?: number) => ({
  apiKey,
  sessionId,
  ts: nowS(),
  cdnBytes,
  p2pBytes: 0,
  ...(seq === undefined ? {} : { seq }),
});

function ingest(reports: unknown[], origin?: string) {
  return api.post(PATHS.statistics.ingest, { reports }, origin ? { origin } : {});
}

/** CDN bytes of the team's keys over the last hour, read back through the statistics API. */
async function cdnBytes(keyHashes: string[]): Promise<number> {
  const r = await owner.post(PATHS.statistics.day, {
    apiKeys: keyHashes,
    startTimestamp: nowS() - 3600,
    endTimestamp: nowS() + 60,
    team_id: teamId,
    clientId: 1,
  });
  expect(r.status).toBe(200);
  return (r.body.data as Json[]).reduce((n, p) => n + p.cdnDwSize, 0);
}

/** A GET over node:http: fetch would send its own Accept-Encoding and decode the body. */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  writeFileSync(join(bundleDir, 'tlprt-p2p.min.js'), BUNDLE);
  server = await startServer({
    env: { PLAYER_DIST: bundleDir, ICE_SERVERS, TURN_SECRET, STATS_INGEST_FLUSH_MS: '600000' },
  });
  api = new Api(server.base);
  const team = await buildTeam(server.app);
  teamId = team.id;
  owner = api.as(team.owner.token);
  const site = await buildDomain(server.app, team.id, { host: SITE, promoted: true });
  await buildDomain(server.app, team.id, { host: UNVERIFIED_SITE });
  await buildDomain(server.app, team.id, {
    host: INACTIVE_SITE,
    promoted: true,
    status: DomainStatus.Inactive,
  });
  siteId = site.id;
  key = (await buildKey(server.app, team.id, site.id)).keyHash;
  teamKey = (await buildKey(server.app, team.id, null)).keyHash;
  const rival = await buildTeam(server.app);
  await buildDomain(server.app, rival.id, { host: OTHER_TEAM_SITE, promoted: true });
});
afterAll(async () => {
  await server?.close();
});

describe('ingest: the Origin rule (docs/DESIGN.md §7)', () => {
  it("counts reports from the key's domain, its subdomains, the dashboard's own origin and without an Origin", async () => {
    const accepted: Array<[string | undefined, number]> = [
      [`https://${SITE}`, 1],
      [`https://www.${SITE}`, 2],
      [`https://live.eu.${SITE}`, 4],
      [DASHBOARD, 8],
      [undefined, 16],
    ];
    const k = (await buildKey(server.app, teamId, siteId)).keyHash;
    for (const [origin, bytes] of accepted) {
      const r = await ingest([report(k, `s-${bytes}`, bytes)], origin);
      expect(r.status, origin).toBe(202);
      expect(r.body, origin).toEqual({ accepted: 1, rejected: 0, errors: [] });
    }
    expect(await cdnBytes([k])).toBe(31);
  });

  it('refuses, and counts nothing of, reports from another site, a look-alike, another team, an unusable domain', async () => {
    const k = (await buildKey(server.app, teamId, siteId)).keyHash;
    const refused = [
      'https://elsewhere.example.net',
      `https://evil-${SITE}`,
      `https://evil${SITE}`,
      `https://${SITE}.evil.net`,
      `https://${OTHER_TEAM_SITE}`,
      `https://${UNVERIFIED_SITE}`,
      `https://${INACTIVE_SITE}`,
      'null',
    ];
    for (const [i, origin] of refused.entries()) {
      const r = await ingest([report(k, `r-${i}`, 1000 + i)], origin);
      expect(r.status, origin).toBe(202);
      expect(r.body, origin).toEqual({
        accepted: 0,
        rejected: 1,
        errors: [{ index: 0, message: INGEST_ERRORS.origin }],
      });
    }
    // One refused origin does not poison the key: the same key still counts from its own site.
    const ok = await ingest([report(k, 'fine', 7)], `https://${SITE}`);
    expect(ok.body.accepted).toBe(1);
    expect(await cdnBytes([k])).toBe(7);
  });

  it("a key of every domain counts from any of the team's usable domains, not from another team's", async () => {
    const second = await buildDomain(server.app, teamId, { promoted: true });
    const a = await ingest([report(teamKey, 'a', 100)], `https://${SITE}`);
    const b = await ingest([report(teamKey, 'b', 200)], `https://${second.host}`);
    const c = await ingest([report(teamKey, 'c', 400)], `https://${OTHER_TEAM_SITE}`);
    expect([a.body.accepted, b.body.accepted, c.body.accepted]).toEqual([1, 1, 0]);
    expect(c.body.errors).toEqual([{ index: 0, message: INGEST_ERRORS.origin }]);
    expect(await cdnBytes([teamKey])).toBe(300);
  });

  it('judges each key of a batch by the Origin: the refused key does not take the others down', async () => {
    const rival = await buildTeam(server.app);
    const rivalDomain = await buildDomain(server.app, rival.id, { promoted: true });
    const rivalKey = (await buildKey(server.app, rival.id, rivalDomain.id)).keyHash;
    const k = (await buildKey(server.app, teamId, siteId)).keyHash;
    // One session naming two keys (a page with players of two customers).
    const r = await ingest([report(rivalKey, 'x', 5), report(k, 'x', 9)], `https://${SITE}`);
    expect(r.body).toEqual({
      accepted: 1,
      rejected: 1,
      errors: [{ index: 0, message: INGEST_ERRORS.origin }],
    });
    expect(await cdnBytes([k])).toBe(9);
  });
});

describe('ingest: CORS', () => {
  it('names only an accepted Origin in Access-Control-Allow-Origin', async () => {
    for (const origin of [`https://${SITE}`, `https://www.${SITE}`, DASHBOARD]) {
      const r = await ingest([report(key, 'cors', 1)], origin);
      expect(r.headers.get('access-control-allow-origin'), origin).toBe(origin);
      expect(r.headers.get('vary') ?? '', origin).toMatch(/\bOrigin\b/i);
    }
    for (const origin of [
      'https://elsewhere.example.net',
      `https://evil-${SITE}`,
      `https://${UNVERIFIED_SITE}`,
      'null',
    ]) {
      const r = await ingest([report(key, 'cors', 1)], origin);
      expect(r.status, origin).toBe(202);
      expect(r.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
    const none = await ingest([report(key, 'cors', 1)]);
    expect(none.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers the preflight of an accepted Origin with 204, the method and the header; 403 otherwise', async () => {
    const preflight = (origin?: string) =>
      api.send('OPTIONS', PATHS.statistics.ingest, undefined, {
        ...(origin ? { origin } : {}),
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      });
    for (const origin of [`https://${SITE}`, `https://cdn.${SITE}`, DASHBOARD]) {
      const r = await preflight(origin);
      expect(r.status, origin).toBe(204);
      expect(r.headers.get('access-control-allow-origin'), origin).toBe(origin);
      expect(r.headers.get('access-control-allow-methods'), origin).toMatch(/\bPOST\b/);
      expect(r.headers.get('access-control-allow-headers'), origin).toMatch(/\bContent-Type\b/i);
      expect(r.headers.get('access-control-allow-credentials'), origin).toBeNull();
    }
    for (const origin of ['https://elsewhere.example.net', `https://${SITE}.evil.net`, undefined]) {
      const r = await preflight(origin);
      expect(r.status, origin).toBe(403);
      expect(r.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });
});

describe('ingest: seq (docs/DESIGN.md §7 Integrity)', () => {
  it('counts a (key, session, seq) once: a replayed report and a retried batch add nothing twice', async () => {
    const k = (await buildKey(server.app, teamId, siteId)).keyHash;
    const first = report(k, 'viewer', 1000, 0);
    const once = await ingest([first], `https://${SITE}`);
    const again = await ingest([first], `https://${SITE}`);
    // A replay is acknowledged (the plugin must drop it), just not counted.
    expect(once.body).toMatchObject({ accepted: 1, rejected: 0 });
    expect(again.body).toMatchObject({ accepted: 1, rejected: 0 });
    expect(await cdnBytes([k])).toBe(1000);

    // The plugin's retry after a lost answer: the unacknowledged report with the next one.
    const retry = await ingest([first, report(k, 'viewer', 200, 1)], `https://${SITE}`);
    expect(retry.body).toMatchObject({ accepted: 2, rejected: 0 });
    expect(await cdnBytes([k])).toBe(1200);

    // The same seq of another session is another report.
    await ingest([report(k, 'other viewer', 30, 0)], `https://${SITE}`);
    expect(await cdnBytes([k])).toBe(1230);
  });

  it('a seq seen on one key is new on another key', async () => {
    const [a, b] = [await buildKey(server.app, teamId, null), await buildKey(server.app, teamId, null)];
    await ingest([report(a.keyHash, 'same', 10, 5)]);
    await ingest([report(b.keyHash, 'same', 20, 5)]);
    expect(await cdnBytes([a.keyHash])).toBe(10);
    expect(await cdnBytes([b.keyHash])).toBe(20);
  });

  it('counts every report without seq (server-side reporters that never retry)', async () => {
    const k = (await buildKey(server.app, teamId, null)).keyHash;
    const r = report(k, 'edge', 500);
    await ingest([r]);
    await ingest([r]);
    await ingest([r, r]);
    expect(await cdnBytes([k])).toBe(2000);
  });

  it('a refused report does not burn its seq: the same report from the right page then counts', async () => {
    const k = (await buildKey(server.app, teamId, siteId)).keyHash;
    const r = report(k, 'moved', 64, 0);
    expect((await ingest([r], 'https://elsewhere.example.net')).body.rejected).toBe(1);
    expect((await ingest([r], `https://${SITE}`)).body.accepted).toBe(1);
    expect(await cdnBytes([k])).toBe(64);
  });
});

describe('public key settings for the plugin (docs/DESIGN.md §11)', () => {
  const stun = { urls: `stun:stun.ice${R}.test:3478` };
  const turnUrl = `turn:turn.ice${R}.test:3478?transport=udp`;

  it("answers 200 with the settings and ICE servers to the key's pages, TURN with credentials of its own", async () => {
    const usernames = new Set<string>();
    for (const origin of [`https://${SITE}`, `https://www.${SITE}`, DASHBOARD, undefined]) {
      const r = await api.get(PATHS.keySettings.publicRead(key), origin ? { origin } : {});
      expect(r.status, origin).toBe(200);
      expect(r.body, origin).toMatchObject({
        message: 'ok',
        data: { keyHash: key, settings: { 12: 5, 13: 10, 101: 100 } },
      });
      const [first, turn, ...rest] = r.body.data.iceServers as Array<Record<string, string>>;
      expect(first).toEqual(stun);
      expect(rest).toEqual([]);
      // TURN REST credentials (coturn use-auth-secret): "<expiry>:<id>" signed with the shared secret,
      // expiring TURN_CREDENTIAL_TTL_S (4 h by default) from now, never the secret itself.
      expect(turn?.urls).toBe(turnUrl);
      const [expiry, id] = String(turn?.username).split(':');
      expect(Number(expiry) - Date.now() / 1000).toBeGreaterThan(4 * 3600 - 60);
      expect(Number(expiry) - Date.now() / 1000).toBeLessThanOrEqual(4 * 3600);
      expect(id).toMatch(/^[A-Za-z0-9_-]{12}$/);
      expect(turn?.credential).toBe(
        createHmac('sha1', TURN_SECRET).update(String(turn?.username)).digest('base64'),
      );
      expect(JSON.stringify(r.body)).not.toContain(TURN_SECRET);
      usernames.add(String(turn?.username));
      expect(r.headers.get('cache-control'), origin).toBe('no-store');
      expect(r.headers.get('access-control-allow-origin'), origin).toBe(origin ?? null);
    }
    expect(usernames.size).toBe(4);
  });

  it('answers no ICE servers when ICE_SERVERS is not set (no public STUN server implied)', async () => {
    const plain = await startServer({ env: { PLAYER_DIST: bundleDir } });
    try {
      const t = await buildTeam(plain.app);
      const d = await buildDomain(plain.app, t.id, { promoted: true });
      const k = await buildKey(plain.app, t.id, d.id);
      const r = await new Api(plain.base).get(PATHS.keySettings.publicRead(k.keyHash));
      expect(r.status).toBe(200);
      expect(r.body.data.iceServers).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('is 404, like an unusable key, for a page elsewhere, a look-alike or another team', async () => {
    for (const origin of [
      'https://elsewhere.example.net',
      `https://evil-${SITE}`,
      `https://${OTHER_TEAM_SITE}`,
      `https://${UNVERIFIED_SITE}`,
      `https://${INACTIVE_SITE}`,
    ]) {
      const r = await api.get(PATHS.keySettings.publicRead(key), { origin });
      expect(r.status, origin).toBe(404);
      expect(r.body, origin).toEqual({ message: 'Not found' });
      expect(r.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('is 404 for an inactive, suspended or deleted key, even from its own page', async () => {
    const inactive = await buildKey(server.app, teamId, siteId, { status: KeyStatus.Inactive });
    const suspended = await buildKey(server.app, teamId, siteId);
    await updateKey(server.app.ctx.db, teamId, suspended.id, { suspended: 1 });
    const deleted = await buildKey(server.app, teamId, siteId);
    await updateKey(server.app.ctx.db, teamId, deleted.id, { status: KeyStatus.Deleted });
    for (const [what, k] of [
      ['inactive', inactive],
      ['suspended', suspended],
      ['deleted', deleted],
    ] as const) {
      for (const origin of [`https://${SITE}`, undefined]) {
        const r = await api.get(PATHS.keySettings.publicRead(k.keyHash), origin ? { origin } : {});
        expect(r.status, `${what} ${origin}`).toBe(404);
      }
    }
  });
});

describe('tracker (WebSocket on /tracker)', () => {
  const url = () => `${server.base.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}?key=${key}`;
  const binary20 = () => randomBytes(20).toString('latin1');

  it("refuses the upgrade with 403 and closes the socket without an Origin, from a foreign one or a domain the key doesn't serve", async () => {
    for (const origin of [
      undefined,
      'https://elsewhere.example.net',
      `https://evil-${SITE}`,
      `https://${UNVERIFIED_SITE}`,
      // Verified and active, but another team's: no player there may join this key's swarms.
      `https://${OTHER_TEAM_SITE}`,
      'null',
    ]) {
      const r = (await connectWs(url(), origin)) as Refused;
      expect(r.status, origin).toBe(403);
      expect(r.closed, origin).toBe(true);
    }
  });

  it('refuses an upgrade of another path (404), even from an accepted Origin', async () => {
    for (const path of ['/tracker/x', '/trackers', '/api/v1/tracker', '/']) {
      const r = (await connectWs(`${server.base.replace(/^http/, 'ws')}${path}`, DASHBOARD)) as Refused;
      expect(r.status, path).toBe(404);
      expect(r.closed, path).toBe(true);
    }
  });

  it("accepts the dashboard's origin and a customer domain's; answers announces of the same info_hash", async () => {
    const infoHash = binary20();
    const announce = {
      action: 'announce',
      info_hash: infoHash,
      numwant: 50,
      uploaded: 0,
      downloaded: 0,
      left: 1000,
      event: 'started',
      offers: [],
    };
    const a = await connectWs(url(), DASHBOARD);
    const b = await connectWs(`${url()}&client=demo`, `https://www.${SITE}`);
    expect(a.status).toBe(101);
    expect(b.status).toBe(101);
    if (!('ws' in a) || !('ws' in b)) throw new Error('not connected');
    try {
      const first = nextMessage(a.ws);
      a.ws.send(JSON.stringify({ ...announce, peer_id: binary20() }));
      const one = await first;
      expect(one).toMatchObject({ action: 'announce', info_hash: infoHash });

      const second = nextMessage(b.ws);
      b.ws.send(JSON.stringify({ ...announce, peer_id: binary20() }));
      const two = await second;
      expect(two).toMatchObject({ action: 'announce', info_hash: infoHash });
      // Both viewers are in one swarm on this tracker.
      expect(Number(two.complete ?? 0) + Number(two.incomplete ?? 0)).toBe(2);
    } finally {
      a.ws.close();
      b.ws.close();
    }
  });
});

describe('tracker at shutdown', () => {
  it("a graceful stop ends the tracker's open connections and completes", async () => {
    const other = await startServer({ env: { PLAYER_DIST: bundleDir } });
    const t = await buildTeam(other.app);
    const k = (await buildKey(other.app, t.id, null)).keyHash;
    const c = await connectWs(
      `${other.base.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}?key=${k}`,
      DASHBOARD,
    );
    if (!('ws' in c)) throw new Error('not connected');
    const closed = new Promise<void>((resolve) => c.ws.once('close', resolve));
    const hung = (what: string) =>
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} hung`)), 5000));
    await Promise.race([other.close(), hung('close')]);
    await Promise.race([closed, hung('the connection')]);
  });
});

describe('plugin bundle and demo pages (docs/DESIGN.md §11)', () => {
  it('serves the bundle as JavaScript, loadable from any page, with an ETag', async () => {
    const r = await rawGet(server.base, PLAYER_PATHS.bundle);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/javascript/);
    expect(r.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(r.headers['content-encoding']).toBeUndefined();
    // @fastify/static's validator (size and time of the file): weak, as the bytes vary by encoding.
    expect(r.headers.etag).toMatch(/^(W\/)?"[^"]+"$/);
    expect(r.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(r.body.equals(BUNDLE)).toBe(true);
  });

  it('answers 304 without a body to If-None-Match of the current ETag, 200 to another', async () => {
    const etag = (await rawGet(server.base, PLAYER_PATHS.bundle)).headers.etag as string;
    const same = await rawGet(server.base, PLAYER_PATHS.bundle, { 'if-none-match': etag });
    expect(same.status).toBe(304);
    expect(same.body.length).toBe(0);
    expect(same.headers.etag).toBe(etag);
    const stale = await rawGet(server.base, PLAYER_PATHS.bundle, { 'if-none-match': '"an-old-release"' });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(BUNDLE)).toBe(true);
  });

  it('sends it brotli- or gzip-compressed to clients that accept it', async () => {
    const br = await rawGet(server.base, PLAYER_PATHS.bundle, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(BUNDLE.length);
    expect(brotliDecompressSync(br.body).equals(BUNDLE)).toBe(true);
    const gz = await rawGet(server.base, PLAYER_PATHS.bundle, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(BUNDLE)).toBe(true);
    expect(String(gz.headers.vary)).toMatch(/Accept-Encoding/i);
  });

  it('serves the demo page, its script and the demo stream outside production', async () => {
    const page = await rawGet(server.base, `${PLAYER_PATHS.demo}?key=${key}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
    const script = await rawGet(server.base, '/demo/player.js');
    expect(script.status).toBe(200);
    expect(script.body.equals(readFileSync(join(DEMO_ASSETS, 'demo', 'player.js')))).toBe(true);
    expect((await rawGet(server.base, '/demo/no-such-file.js')).status).toBe(404);

    const playlist = await rawGet(server.base, PLAYER_PATHS.demoStream);
    expect(playlist.status).toBe(200);
    expect(playlist.body.toString()).toMatch(/^#EXTM3U/);
    const segment = await rawGet(server.base, '/demo/stream/segment-00.ts');
    expect(segment.status).toBe(200);
    expect(segment.body.equals(readFileSync(join(DEMO_ASSETS, 'demo-stream', 'segment-00.ts')))).toBe(true);

    // The live stream lists six of the same segments; each URL (live number included) is served.
    const live = await rawGet(server.base, PLAYER_PATHS.demoLiveStream);
    expect(live.status).toBe(200);
    expect(live.headers['cache-control']).toBe('no-cache');
    const uris = live.body
      .toString()
      .split('\n')
      .filter((l) => l.startsWith('segment-'));
    expect(uris).toHaveLength(6);
    const served = await rawGet(server.base, `/demo/stream/${uris[0]}`);
    expect(served.status).toBe(200);
    expect(served.body.length).toBeGreaterThan(1000);
  });

  it('serves no demo page nor stream in production, but still the bundle', async () => {
    const prod = await startServer({ env: { NODE_ENV: 'production', PLAYER_DIST: bundleDir } });
    try {
      for (const path of [
        `${PLAYER_PATHS.demo}?key=${key}`,
        '/demo/player.js',
        PLAYER_PATHS.demoStream,
        PLAYER_PATHS.demoLiveStream,
        '/demo/stream/segment-00.ts',
      ]) {
        expect((await rawGet(prod.base, path)).status, path).toBe(404);
      }
      const bundle = await rawGet(prod.base, PLAYER_PATHS.bundle);
      expect(bundle.status).toBe(200);
      expect(bundle.body.equals(BUNDLE)).toBe(true);
    } finally {
      await prod.close();
    }
  });

  it('answers 503 for the bundle when the plugin is not built', async () => {
    const unbuilt = await startServer({ env: { PLAYER_DIST: join(bundleDir, 'missing') } });
    try {
      expect((await rawGet(unbuilt.base, PLAYER_PATHS.bundle)).status).toBe(503);
    } finally {
      await unbuilt.close();
    }
  });
});
