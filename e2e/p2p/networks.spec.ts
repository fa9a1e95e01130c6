import { type APIRequestContext, type BrowserType, expect, type LaunchOptions, test } from '@playwright/test';
import { PLAYER_PATHS } from '@tlprt/contract';
import { E2E } from '../playwright.config';
import { uniqueEmail } from '../support/mail';
import { teamWithKey } from '../support/session';
import { livePoints } from './live-points';
import { countsSince, type Home, homeLabel, NetworkViewers, startServer, TwoNetworks } from './two-networks';
import { untilPlayed } from './viewers';

/**
 * Peers meet their own network first (issue 40, docs/DESIGN.md §14): two "ISP" networks, each a router
 * namespace with viewer homes behind it on routed addresses (scripts/netsplit.sh), joined through the
 * test's own namespace, where the server runs with NETWORKS_FILE naming each network an autonomous
 * system. Every byte the viewers exchange passes their routers, which count it: what crossed between
 * the networks, and what stayed inside one. Those counts, not the plugin's, judge the matching; the
 * plugin's report of what crossed (p2pCrossDwSize) is checked against them.
 */
const SUPERVISORS = ['net-supervisor@e2e.test', 'net-supervisor2@e2e.test'];
const net = new TwoNetworks();
let server: Awaited<ReturnType<typeof startServer>> | undefined;
let api: APIRequestContext | undefined;

test.beforeAll(async ({ playwright }) => {
  net.up();
  server = await startServer(E2E.port + 60, net.networksFile(), SUPERVISORS);
  api = await playwright.request.newContext({ baseURL: server.url });
});

test.afterAll(async () => {
  try {
    await api?.dispose();
    await server?.stop();
  } finally {
    // The namespaces' names outlive the test's namespace (/var/run/netns): always removed.
    net.down();
  }
});

test.afterEach(async () => {
  const info = test.info();
  if (info.status !== info.expectedStatus && server) await info.attach('server', { body: server.text() });
});

/** The bytes of the demo stream's segments: what each viewer loads in one pass. */
async function streamBytes(request: APIRequestContext, url: string) {
  const playlistUrl = `${url}${PLAYER_PATHS.demoStream}`;
  const segments = (await (await request.get(playlistUrl)).text())
    .split('\n')
    .filter((l) => l.endsWith('.ts'));
  let bytes = 0;
  for (const s of segments) bytes += (await (await request.get(new URL(s, playlistUrl).href)).body()).length;
  return bytes;
}

const pct = (part: number, whole: number) => (whole ? `${((part / whole) * 100).toFixed(1)}%` : '-');

/** What one run of viewers is: who arrives when, whom the tracker matches, and how long they watch. */
interface Run {
  label: string;
  /** Groups of viewers arriving together, one group after the other. */
  groups: Home[][];
  /** Seconds each group plays before the next arrives. */
  lead: number;
  /** Milliseconds between two viewers of a group opening their pages: the second finds the first's
   *  opening segments instead of fetching the same ones from the origin at the same moment (neighbours
   *  seldom press play in the same instant; opening together, both fetched the opening window from the
   *  origin: 39–47% instead of 48–50%). It stays well under the plugin's wait for own-network peers
   *  (PLAYER_OWN_NETWORK_WAIT_MS). */
  stagger: number;
  /** 'loaded': until each viewer has loaded the whole stream once (its share is that of one pass);
   *  'shared': until each has received bytes from peers. */
  until: 'loaded' | 'shared';
  supervisor: string;
}

/**
 * Viewers of one key play the demo stream as `run` says. The routers' counts over that time: `cross`
 * what passed between the networks (router a's out and in; router b counts the same packets), `peers`
 * every byte the viewers exchanged (cross, and inside each network), IP packets with their headers, so
 * the two compare like with like. The P2P share is the plugin's accepted peer bytes against what the
 * origin served the viewers (every segment body byte that reached their browsers).
 */
async function watch(chromium: BrowserType, launchOptions: LaunchOptions, run: Run) {
  if (!api || !server) throw new Error('no server (beforeAll failed)');
  const team = await teamWithKey(api, server.url, uniqueEmail('net'), run.supervisor);
  const whole = await streamBytes(api, server.url);
  const viewers = new NetworkViewers(chromium, launchOptions, net, server.url);
  try {
    const pages = await viewers.ready(run.groups.flat());
    const started = Date.now();
    const before = net.counts();
    for (const group of run.groups) {
      const arriving = pages.splice(0, group.length);
      for (const [i, page] of arriving.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, run.stagger));
        await viewers.arrive([page], team.keyHash);
      }
      await untilPlayed(arriving, run.lead);
    }
    if (run.until === 'loaded') {
      const loaded = async () => Math.min(...(await viewers.viewed()).map((v) => v.cdnBytes + v.p2pBytes));
      await expect.poll(loaded, { timeout: 90_000, intervals: [1000] }).toBeGreaterThanOrEqual(whole);
    } else {
      const shared = async () => Math.min(...(await viewers.viewed()).map((v) => v.p2pBytes));
      await expect.poll(shared, { timeout: 60_000, intervals: [1000] }).toBeGreaterThan(0);
    }
    const d = countsSince(net.counts(), before);
    const viewed = await viewers.viewed();
    const cross = d.a.out + d.a.in;
    const peers = cross + d.a.inside + d.b.inside;
    const served = viewed.reduce((n, v) => n + v.served, 0);
    const p2p = viewed.reduce((n, v) => n + v.p2pBytes, 0);
    const share = p2p / (served + p2p);
    console.log(
      `${run.label}: ${pct(cross, peers)} of the bytes between viewers crossed networks (router a: out ${d.a.out} B, in ${d.a.in} B, data out ${d.a.outData} B, in ${d.a.inData} B, inside ${d.a.inside} B; router b: out ${d.b.out} B, in ${d.b.in} B, inside ${d.b.inside} B); P2P share ${pct(p2p, served + p2p)} (origin served ${served} B, peers gave ${p2p} B); per viewer served/P2P/cross(plugin)/stalls ${viewed.map((v) => `${homeLabel(v.home)} ${v.served}/${v.p2pBytes}/${v.p2pCrossBytes ?? '-'}/${v.stalls}`).join(', ')}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    return { team, viewers, viewed, share, cross, peers, before };
  } catch (e) {
    await viewers.close();
    throw e;
  }
}

/**
 * The viewers leave (their plugins send what is left), and the statistics answer's `p2pCrossDwSize` of
 * the key comes within 10% of what crossed between the networks from the viewers' start to their
 * leaving, counted on router a as the UDP payload of the packets that carry data (netsplit.sh's
 * outdata and indata: the segments inside WebRTC's DTLS and SCTP framing, without acknowledgements,
 * connectivity checks and IP/UDP headers). Where little crossed (a tenth of the P2P bytes or less: the
 * peers' first exchange before they part), within a hundredth of the P2P bytes.
 */
async function expectCrossReported(w: Awaited<ReturnType<typeof watch>>, label: string) {
  if (!api) throw new Error('no server (beforeAll failed)');
  const request = api;
  await w.viewers.leave();
  const d = countsSince(net.counts(), w.before);
  const routed = d.a.outData + d.a.inData;
  const p2p = w.viewed.reduce((n, v) => n + v.p2pBytes, 0);
  const gap = async () => {
    const points = await livePoints(request, w.team);
    const reported = points.reduce((n, p) => n + p.p2pCrossDwSize, 0);
    console.log(
      `${label}: p2pCrossDwSize ${reported} B; router a counted ${routed} B of data crossing (${d.a.out + d.a.in} B of IP packets); P2P ${p2p} B`,
    );
    return Math.abs(reported - routed) / Math.max(routed, p2p / 10);
  };
  await expect.poll(gap, { timeout: 30_000, intervals: [2000] }).toBeLessThanOrEqual(0.1);
}

const A1: Home = { network: 'a', n: 1 };
const A2: Home = { network: 'a', n: 2 };
const B1: Home = { network: 'b', n: 1 };
const B2: Home = { network: 'b', n: 2 };
/** Network a's two viewers arrive, and once they play, network b's two: b's viewers join a swarm
 *  whose other network already holds the stream, and find each other there. */
const A_THEN_B: Pick<Run, 'groups' | 'lead' | 'stagger' | 'until'> = {
  groups: [
    [A1, A2],
    [B1, B2],
  ],
  lead: 2,
  stagger: 500,
  until: 'loaded',
};

test('two networks of two viewers: the P2P bytes stay within each network, and the plugin reports what crossed', async ({
  playwright,
  launchOptions,
}) => {
  const w = await watch(playwright.chromium, launchOptions, {
    ...A_THEN_B,
    label: 'network first',
    supervisor: SUPERVISORS[0] as string,
  });
  try {
    // Soft: a run that misses one bound still checks the others (each says something else).
    expect
      .soft(w.cross / w.peers, 'share of the bytes between viewers that crossed networks')
      .toBeLessThanOrEqual(0.1);
    // Each network takes its own copy from the origin: the ceiling is 50%, not 75%.
    expect.soft(w.share, 'P2P share').toBeGreaterThanOrEqual(0.4);
    await expectCrossReported(w, 'network first');
  } finally {
    await w.viewers.close();
  }
});

test('one viewer in each network: the two still share segments across', async ({
  playwright,
  launchOptions,
}) => {
  // Both arrive at once, each alone in its network: each has segments the other lacks.
  const w = await watch(playwright.chromium, launchOptions, {
    groups: [[A1, B1]],
    lead: 2,
    stagger: 0,
    // The whole stream: leaving at their first shared bytes, after the plugin's wait for own-network
    // peers, the fixed framing of WebRTC weighed up to a tenth of the little that crossed.
    until: 'loaded',
    label: 'one per network',
    supervisor: SUPERVISORS[1] as string,
  });
  try {
    expect(w.cross).toBeGreaterThan(0);
    for (const v of w.viewed) expect(v.p2pBytes, homeLabel(v.home)).toBeGreaterThan(0);
    await expectCrossReported(w, 'one per network');
  } finally {
    await w.viewers.close();
  }
});
