import {
  type APIRequestContext,
  type BrowserType,
  expect,
  type LaunchOptions,
  type Page,
  test,
} from '@playwright/test';
import { PATHS, PLAYER_PATHS, ZDomainListResponse } from '@tlprt/contract';
import { startTestDns, type TestDns } from '../../apps/server/test/helpers/dns-server';
import { E2E } from '../playwright.config';
import { signInOrUpByApi } from '../support/accounts';
import { uniqueEmail } from '../support/mail';
import { adminWithTeam } from '../support/session';
import { CustomerSite, SiteViewers, sha256Hex } from './customer-site';
import { livePoints } from './live-points';
import { measuredShare, playWhenPeering, untilPlayed, type Watch, watched } from './viewers';

/**
 * Issue 36: what the origin really saves. A customer's own site on port 80 of the test's namespace
 * (customer-site.ts), under a verified domain of the key's team, counts who fetched what: the viewers'
 * segment bytes, and the integrity service's requests (its User-Agent) and body bytes. The dashboard
 * server finds the site through the suite's DNS server (DNS_SERVERS) and fetches it on port 80
 * (VERIFY_HTTP_PORT, e2e/p2p/playwright.config.ts); the browsers map the site's name to 127.0.0.1.
 * - Live HLS whose origin states `Repr-Digest`: the service asks HEADs only, never a body.
 * - VOD whose hashes the packager pushed with a `hashes` token: the service never asks the site.
 * - DASH with neither: the service fetches bodies, and the statistics count them (verifyDwSize).
 */
let site: CustomerSite;
let dns: TestDns;
test.beforeAll(async () => {
  site = new CustomerSite(80);
  await site.start();
  dns = await startTestDns({}, E2E.dnsPort);
});
test.afterAll(async () => {
  await site?.close();
  await dns?.close();
});

interface Customer {
  teamId: number;
  auth: Record<string, string>;
  keyHash: string;
  host: string;
}

/** A team whose domain (`name`-….e2e.test, found by the server through the suite's DNS server) is
 *  verified (a supervisor's bypass), promoted, with plain-http pages on, and one key. */
async function customer(request: APIRequestContext, baseURL: string, name: string, supervisor: string) {
  const admin = await adminWithTeam(request, baseURL, uniqueEmail(name), 'site-secret', 'Site Owner');
  const superToken = await signInOrUpByApi(request, baseURL, supervisor, 'super-secret');
  const host = `${name}-${Date.now()}.e2e.test`;
  dns.set(host, { A: ['127.0.0.1'] });
  const created = await request.post(PATHS.domains.create(admin.teamId), {
    headers: admin.auth,
    data: { url: host },
  });
  expect(created.status()).toBe(201);
  const domainId = ((await created.json()) as { data: { id: number } }).data.id;
  const bypass = await request.put(PATHS.domains.verify(admin.teamId, domainId), {
    headers: { Authorization: `Bearer ${superToken}` },
    data: { verificationMethod: 5 },
  });
  expect(bypass.status()).toBe(200);
  const promoted = await request.get(PATHS.domains.promote(admin.teamId, domainId), { headers: admin.auth });
  expect(promoted.status()).toBe(200);
  // The site's pages are http:// on port 80, as many customers' are.
  const plain = await request.put(PATHS.domains.setPlainHttp(admin.teamId, domainId), {
    headers: admin.auth,
    data: { plainHttp: true },
  });
  expect(plain.status()).toBe(200);
  const key = await request.post(PATHS.keys.create(admin.teamId, domainId), {
    headers: admin.auth,
    data: { name: 'Player' },
  });
  expect(key.status()).toBe(201);
  const list = ZDomainListResponse.parse(
    await (await request.post(PATHS.domains.list(admin.teamId), { headers: admin.auth, data: {} })).json(),
  );
  const keyHash = list.verified[0]?.keys[0]?.keyHash as string;
  return { teamId: admin.teamId, auth: admin.auth, keyHash, host } satisfies Customer;
}

/** Opens viewers of `address` one after another: each joins once the one before has played 2 s, as
 *  viewers of a stream come and go (two started in the same second both fetch their start). */
/** `count` viewers of the site's `stream` with the `player`'s snippet, each playing with peering on
 *  before the next one opens. */
async function viewersOf(
  fixtures: {
    playwright: { chromium: BrowserType };
    launchOptions: LaunchOptions;
    baseURL: string | undefined;
  },
  team: Customer,
  player: 'HLS.js' | 'Shaka',
  stream: string,
  count: number,
): Promise<{ viewers: SiteViewers; pages: Page[] }> {
  const viewers = new SiteViewers(fixtures.playwright.chromium, fixtures.launchOptions, team.host);
  const name = stream.split('/')[1] ?? 'stream';
  const address = site.addPage(
    team.host,
    `${name}-${team.keyHash}.html`,
    player,
    team.keyHash,
    fixtures.baseURL as string,
    stream,
  );
  const pages: Page[] = [];
  for (let i = 0; i < count; i++) {
    const page = await viewers.open(address);
    await playWhenPeering(page);
    await untilPlayed([page], 2);
    pages.push(page);
  }
  return { viewers, pages };
}

/**
 * What the origin saw of the viewers' bytes since `since` (ms): the segment bytes it served them, its
 * share of what they played (their CDN and P2P bytes since `baseline`), and what it really saved once
 * the integrity service's bodies are counted too. Read until the viewers' CDN counters agree with the
 * origin within 1% (a segment may be between the origin and the player).
 */
async function atTheOrigin(pages: Page[], prefix: string, since: number, baseline: Watch[]) {
  let seen = { viewers: 0, cdn: 0, played: 0 };
  await expect
    .poll(
      async () => {
        const now = await Promise.all(pages.map(watched));
        const cdn = now.reduce((n, w, i) => n + w.cdnBytes - (baseline[i]?.cdnBytes ?? 0), 0);
        const p2p = now.reduce((n, w, i) => n + w.p2pBytes - (baseline[i]?.p2pBytes ?? 0), 0);
        seen = { viewers: site.viewerSegmentBytes(prefix, since), cdn, played: cdn + p2p };
        return Math.abs(seen.viewers - cdn) / Math.max(cdn, 1);
      },
      { timeout: 10_000, intervals: [300] },
    )
    .toBeLessThanOrEqual(0.01);
  const verification = site
    .integrityHits(prefix)
    .filter((h) => h.at >= since)
    .reduce((n, h) => n + h.bytes, 0);
  const share = 1 - seen.viewers / seen.played;
  const saving = 1 - (seen.viewers + verification) / seen.played;
  console.log(
    `${prefix} at the origin: viewers fetched ${seen.viewers} B of ${seen.played} B played (share ${(share * 100).toFixed(1)}%), the integrity service ${verification} B: saved ${(saving * 100).toFixed(1)}%`,
  );
  return { share, saving, verification };
}

test('live HLS from an origin that states Repr-Digest: three viewers share 60% or more, and the integrity service fetches no segment body (HEAD only)', async ({
  playwright,
  launchOptions,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const team = await customer(request, baseURL as string, 'live', 'supervisor3@e2e.test');
  const { viewers, pages } = await viewersOf(
    { playwright, launchOptions, baseURL },
    team,
    'HLS.js',
    '/live/index.m3u8',
    3,
  );
  // Once all three play, each new segment needs to come from the origin once (live.spec.ts).
  await untilPlayed(pages, 4);
  const joined = await Promise.all(pages.map(watched));
  const joinedAt = Date.now();
  await untilPlayed(pages, 24, 90_000);
  const { share } = await measuredShare(pages, 'live HLS with digests, all three playing', joined);
  expect(share).toBeGreaterThanOrEqual(0.6);
  const origin = await atTheOrigin(pages, '/live/', joinedAt, joined);
  expect(origin.share).toBeGreaterThanOrEqual(0.6);

  const asked = site.integrityHits('/live/');
  console.log(`integrity service at the origin: ${asked.map((h) => `${h.method} ${h.path}`).join(', ')}`);
  // It verified the peers' segments, and asked the origin for their digests only.
  expect(asked.length).toBeGreaterThan(0);
  expect(asked.filter((h) => h.method !== 'HEAD')).toEqual([]);
  expect(origin.saving).toBeGreaterThanOrEqual(0.6);
  await viewers.close();
});

test('VOD whose hashes the packager pushed with a hashes token: two viewers share 45% or more, and the integrity service never asks the origin', async ({
  playwright,
  launchOptions,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const team = await customer(request, baseURL as string, 'vod', 'supervisor4@e2e.test');
  // The packager's token, made as a team admin makes one on Team settings.
  const made = await request.post(PATHS.teamTokens.create(team.teamId), {
    headers: team.auth,
    data: { name: 'Packager', scope: 'hashes' },
  });
  expect(made.status()).toBe(201);
  const token = ((await made.json()) as { data: { token: string } }).data.token;
  const origin = site.originOf(team.host);
  const segments = site.segments('vod');
  const pushed = await request.post(PLAYER_PATHS.hashes, {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      hashes: segments.map(([name, body]) => ({ url: `${origin}/vod/${name}`, sha256: sha256Hex(body) })),
    },
  });
  expect(pushed.status()).toBe(202);
  expect(await pushed.json()).toMatchObject({ accepted: segments.length, rejected: 0 });

  const { viewers, pages } = await viewersOf(
    { playwright, launchOptions, baseURL },
    team,
    'HLS.js',
    '/vod/index.m3u8',
    2,
  );
  // Both hold the whole title once (hls.js buffers 30 s ahead; the rest comes as they play).
  const streamBytes = segments.reduce((n, [, body]) => n + body.length, 0);
  await expect
    .poll(
      async () =>
        Math.min(
          ...(await Promise.all(
            pages.map(async (p) => {
              const w = await watched(p);
              return w.cdnBytes + w.p2pBytes;
            }),
          )),
        ),
      { timeout: 60_000, intervals: [1000] },
    )
    .toBeGreaterThanOrEqual(streamBytes);
  const none = pages.map(() => ({ cdnBytes: 0, p2pBytes: 0, stalls: 0, played: 0 }));
  const { share } = await measuredShare(pages, 'VOD with pushed hashes');
  expect(share).toBeGreaterThanOrEqual(0.45);
  const atOrigin = await atTheOrigin(pages, '/vod/', 0, none);
  expect(atOrigin.share).toBeGreaterThanOrEqual(0.45);
  // The pushed hashes answered every question: not one request of the service reached the site.
  expect(site.integrityHits('/vod/')).toEqual([]);
  await viewers.close();
});

test('DASH (Shaka) with neither digests nor pushed hashes: the statistics count as verifyDwSize the bytes the origin served the integrity service', async ({
  playwright,
  launchOptions,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const team = await customer(request, baseURL as string, 'dash', 'supervisor6@e2e.test');
  const { viewers, pages } = await viewersOf(
    { playwright, launchOptions, baseURL },
    team,
    'Shaka',
    '/dash/manifest.mpd',
    2,
  );
  await untilPlayed(pages, 8);
  await measuredShare(pages, 'DASH, no digests');
  // The viewers leave: the service has no more segment to verify.
  for (const page of pages) await page.close();
  const served = () =>
    site
      .integrityHits('/dash/')
      .filter((h) => h.method === 'GET')
      .reduce((n, h) => n + h.bytes, 0);
  expect(served()).toBeGreaterThan(0);
  const gap = async () => {
    const counted = (await livePoints(request, team)).reduce((n, p) => n + p.verifyDwSize, 0);
    console.log(
      `DASH: verifyDwSize ${counted} B; bodies the origin served the integrity service ${served()} B`,
    );
    return Math.abs(counted - served()) / served();
  };
  await expect.poll(gap, { timeout: 30_000, intervals: [2000] }).toBeLessThanOrEqual(0.02);
  await viewers.close();
});
