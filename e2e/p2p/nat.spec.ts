import {
  type APIRequestContext,
  type BrowserType,
  expect,
  type LaunchOptions,
  type Page,
  test,
} from '@playwright/test';
import { PLAYER_PATHS } from '@tlprt/contract';
import { E2E } from '../playwright.config';
import { uniqueEmail } from '../support/mail';
import { teamWithKey } from '../support/session';
import {
  coturnLines,
  NatNetwork,
  NatViewers,
  relayed,
  startCoturn,
  startServer,
  turnSecret,
  type UsedPair,
  usedPairs,
} from './nat-net';
import { measuredShare, untilPlayed, watched } from './viewers';

/**
 * Viewers behind NAT: each viewer's Chromium sits in a home network namespace of its own
 * behind a router namespace that masquerades it (scripts/natns.sh); the server and coturn (Debian's
 * package, started here) are on the public side, the test's own namespace. Two viewers behind cone NATs
 * meet through the addresses STUN shows them; two behind symmetric NATs, whose every destination gets a
 * port of its own, only through coturn's relay. Both pairs share segments; the test prints the P2P share
 * and how much of it went through the relay.
 */
const net = new NatNetwork(['cone', 'cone', 'symmetric', 'symmetric']);
const secret = turnSecret();
let coturn: ReturnType<typeof startCoturn> | undefined;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
let api: APIRequestContext | undefined;

test.beforeAll(async ({ playwright }) => {
  net.up();
  coturn = startCoturn(secret);
  server = await startServer(E2E.port + 50, secret);
  api = await playwright.request.newContext({ baseURL: server.url });
});

test.afterAll(async () => {
  try {
    await api?.dispose();
    await server?.stop();
    await coturn?.stop();
  } finally {
    // The namespaces' names outlive the test's namespace (/var/run/netns): always removed.
    net.down();
  }
});

test.afterEach(async () => {
  const info = test.info();
  if (info.status !== info.expectedStatus) {
    for (const p of [coturn, server]) if (p) await info.attach(p.name, { body: p.text() });
  }
});

/** The bytes of the demo stream's segments: what each viewer loads in one pass. */
async function streamBytes() {
  if (!api || !server) throw new Error('no server (beforeAll failed)');
  const playlistUrl = `${server.url}${PLAYER_PATHS.demoStream}`;
  const segments = (await (await api.get(playlistUrl)).text()).split('\n').filter((l) => l.endsWith('.ts'));
  let bytes = 0;
  for (const s of segments) bytes += (await (await api.get(new URL(s, playlistUrl).href)).body()).length;
  return bytes;
}

/** Two viewers of one key, the first playing before the second joins (as viewers of a VOD title do),
 *  until each has loaded the whole stream once: their share and their connections' selected candidate
 *  pairs (which addresses carried the P2P bytes), printed. */
async function twoViewers(
  chromium: BrowserType,
  launchOptions: LaunchOptions,
  homes: [number, number],
  label: string,
  supervisor: string,
) {
  if (!api || !server) throw new Error('no server (beforeAll failed)');
  const team = await teamWithKey(api, server.url, uniqueEmail('nat'), supervisor);
  const viewers = new NatViewers(chromium, launchOptions, net, server.url);
  try {
    const first = await viewers.open(homes[0], team.keyHash);
    await untilPlayed([first], 2);
    const pages: Page[] = [first, await viewers.open(homes[1], team.keyHash)];
    // Until each has the whole stream: the share of its one pass, and no longer than that takes.
    const loaded = async () =>
      Math.min(...(await Promise.all(pages.map(watched))).map((w) => w.cdnBytes + w.p2pBytes));
    await expect
      .poll(loaded, { timeout: 90_000, intervals: [1000] })
      .toBeGreaterThanOrEqual(await streamBytes());
    const { share } = await measuredShare(pages, label);
    const used = (await Promise.all(pages.map(usedPairs))).flat();
    const pairs = used.filter((p) => p.selected);
    const received = (ps: UsedPair[]) => ps.reduce((n, p) => n + p.bytesReceived, 0);
    const viaRelay = received(used.filter(relayed));
    const all = received(used);
    // WebRTC's bytes (DTLS and SCTP included) over the viewers' candidate pairs: how much of what they
    // exchanged went through coturn.
    console.log(
      `${label}: relayed share ${all ? ((viaRelay / all) * 100).toFixed(1) : '0'}% of the bytes the viewers received from each other (${viaRelay} of ${all} B); selected candidate pairs (local/remote) ${pairs.map((p) => `${p.local}/${p.remote}`).join(', ')}`,
    );
    return { share, pairs, relayedShare: all ? viaRelay / all : 0 };
  } finally {
    await viewers.close();
  }
}

test('two viewers behind cone NATs share segments through the addresses STUN found', async ({
  playwright,
  launchOptions,
}) => {
  const { share, pairs, relayedShare } = await twoViewers(
    playwright.chromium,
    launchOptions,
    [1, 2],
    'cone NATs',
    'nat-supervisor@e2e.test',
  );
  // Each connection went through both routers' public mappings (a host address is out of reach) and
  // no relay: at most the ceiling of two viewers, 50%.
  expect(pairs.length).toBeGreaterThan(0);
  for (const p of pairs) {
    expect(['srflx', 'prflx']).toContain(p.local);
    expect(['srflx', 'prflx']).toContain(p.remote);
  }
  // ICE may send over the first pair that works, a relayed one, before it settles on the direct pair:
  // 4.4% of the bytes in a loaded CI run, 0% on an idle machine. Nearly everything goes direct.
  expect(relayedShare).toBeLessThan(0.1);
  expect(share).toBeGreaterThanOrEqual(0.4);
});

test('two viewers behind symmetric NATs share segments through the TURN relay', async ({
  playwright,
  launchOptions,
}) => {
  const allocations = coturn ? coturnLines(coturn, /ALLOCATE processed, success/) : 0;
  const { share, pairs, relayedShare } = await twoViewers(
    playwright.chromium,
    launchOptions,
    [3, 4],
    'symmetric NATs',
    'nat-supervisor2@e2e.test',
  );
  expect(pairs.length).toBeGreaterThan(0);
  for (const p of pairs) expect(relayed(p)).toBe(true);
  expect(relayedShare).toBe(1);
  expect(share).toBeGreaterThanOrEqual(0.4);
  // The relay took the credentials the server signed for each viewer (TURN_SECRET).
  expect(coturn ? coturnLines(coturn, /ALLOCATE processed, success/) : 0).toBeGreaterThan(allocations);
});
