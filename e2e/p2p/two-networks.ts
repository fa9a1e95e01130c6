import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserType, LaunchOptions, Page } from '@playwright/test';
import { PLAYER_PATHS } from '@tlprt/contract';
import { need, type Started, startPublicServer } from './nat-net';
import { type Watch, watched, watchStalls } from './viewers';

/**
 * Two "ISP" networks of viewers (e2e/p2p/networks.spec.ts): the namespaces scripts/netsplit.sh builds
 * inside the test's own, a server of our own on the public side whose NETWORKS_FILE names each network
 * as an autonomous system, and viewers whose Chromium runs in a home of one network. The bytes the
 * viewers exchange are counted on the routers, not by the plugin.
 */
const root = resolve(import.meta.dirname, '../..');
/** The public side's address (scripts/netsplit.sh): the server's. */
export const PUBLIC_IP = '10.60.0.1';
/** The networks' ranges (scripts/netsplit.sh) and the autonomous systems NETWORKS_FILE names them. */
export const NETWORKS = {
  a: { range: ['10.61.0.0', '10.61.255.255'], asn: 64601, name: 'Network A' },
  b: { range: ['10.62.0.0', '10.62.255.255'], asn: 64602, name: 'Network B' },
} as const;
export type NetworkName = keyof typeof NETWORKS;
/** A viewer's home: its network and which of its two homes (1, 2). */
export interface Home {
  network: NetworkName;
  n: 1 | 2;
}
export const homeLabel = (h: Home) => `${h.network}${h.n}`;

/** One router's counters, as scripts/netsplit.sh `counts` prints them. */
export interface RouterBytes {
  /** From its network to the other: IP packets' bytes, headers included. */
  out: number;
  /** From the other network to its own. */
  in: number;
  /** Between two of its own homes. */
  inside: number;
  /**
   * What the packets of `out` of 200 bytes or more carried over UDP: the peers' data (segments and
   * their messages, inside WebRTC's DTLS and SCTP framing), without acknowledgements, connectivity
   * checks and the IP and UDP headers: what the plugin's count of received bytes compares to.
   */
  outData: number;
  inData: number;
}
export type Counts = Record<NetworkName, RouterBytes>;

const COUNTERS = { out: 'out', in: 'in', inside: 'inside', outdata: 'outData', indata: 'inData' } as const;
/** An IPv4 header without options and a UDP header: what the routers count beyond UDP's payload. */
const IP_UDP_HEADERS = 28;

/** The bytes counted from `before` to `after`. */
export const countsSince = (after: Counts, before: Counts): Counts => {
  const d = (n: NetworkName) =>
    Object.fromEntries(
      Object.values(COUNTERS).map((c) => [c, after[n][c] - before[n][c]]),
    ) as unknown as RouterBytes;
  return { a: d('a'), b: d('b') };
};

/** The namespaces of scripts/netsplit.sh: two networks, two homes each. */
export class TwoNetworks {
  /** Unique per run: the names live in /var/run/netns, which every namespace of the machine sees. */
  readonly prefix = `xn${process.pid}`;
  /** Made at `up`: Playwright loads a spec file in processes that never run its tests. */
  private made: string | undefined;

  private get dir(): string {
    if (!this.made) throw new Error('the networks are not up');
    return this.made;
  }

  up() {
    this.made = mkdtempSync(join(tmpdir(), 'two-networks-'));
    need('ip', 'iproute2');
    need('iptables', 'iptables');
    execFileSync('sh', [join(root, 'scripts/netsplit.sh'), 'up', this.prefix], { stdio: 'inherit' });
  }

  down() {
    execFileSync('sh', [join(root, 'scripts/netsplit.sh'), 'down', this.prefix], { stdio: 'inherit' });
    if (this.made) rmSync(this.made, { recursive: true, force: true });
  }

  /** Each router's byte counters now. */
  counts(): Counts {
    const text = execFileSync('sh', [join(root, 'scripts/netsplit.sh'), 'counts', this.prefix], {
      encoding: 'utf8',
    });
    const zero = (): RouterBytes => ({ out: 0, in: 0, inside: 0, outData: 0, inData: 0 });
    const counts: Counts = { a: zero(), b: zero() };
    for (const line of text.trim().split('\n')) {
      const [network = '', counter = '', packets, bytes] = line.split(' ');
      const name = COUNTERS[counter as keyof typeof COUNTERS];
      if ((network !== 'a' && network !== 'b') || !name) throw new Error(`netsplit.sh counts: ${line}?`);
      counts[network][name] =
        name === 'outData' || name === 'inData'
          ? Number(bytes) - IP_UDP_HEADERS * Number(packets)
          : Number(bytes);
    }
    return counts;
  }

  /** The NETWORKS_FILE naming the two networks (addresses in their usual notation). */
  networksFile(): string {
    const file = join(this.dir, 'networks.csv');
    writeFileSync(
      file,
      Object.values(NETWORKS)
        .map((n) => `${n.range[0]},${n.range[1]},${n.asn},"${n.name}"`)
        .join('\n'),
    );
    return file;
  }

  /**
   * A Chromium that runs in `home`. Playwright starts the executable it is given and talks to it over
   * inherited pipes, which `ip netns exec` keeps (it execs in place: same process, same fds).
   */
  chromiumIn(home: Home, chromium: string): string {
    const wrapper = join(this.dir, `chromium-${homeLabel(home)}`);
    writeFileSync(
      wrapper,
      `#!/bin/sh\nexec ip netns exec ${this.prefix}${homeLabel(home)} ${chromium} "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    return wrapper;
  }
}

/** The test's own server on the public side, with its own supervisors and NETWORKS_FILE. */
export const startServer = (
  port: number,
  networksFile: string,
  supervisors: string[],
): Promise<{ url: string } & Started> =>
  startPublicServer('networks', PUBLIC_IP, port, {
    SUPERVISOR_EMAILS: supervisors.join(','),
    // Host candidates only: every home's address is routed, as the networks' own addresses are.
    ICE_SERVERS: '',
    NETWORKS_FILE: networksFile,
  });

const SEGMENT = /\/demo\/stream\/.+\.(ts|m4s)(\?.*)?$/;

/** What one viewer did: the plugin's counters and stalls, and the bytes the origin served it. */
export interface Viewed extends Watch {
  home: Home;
  served: number;
  /** The plugin's P2P bytes from peers of another network, when it counts them. */
  p2pCrossBytes: number | undefined;
}

/** Viewers of the demo page at `serverUrl`, each in a browser of its own in its home. */
export class NetworkViewers {
  private readonly browsers: Browser[] = [];
  private readonly viewers: { page: Page; home: Home; served: number }[] = [];

  constructor(
    private readonly browserType: BrowserType,
    private readonly launchOptions: LaunchOptions,
    private readonly net: TwoNetworks,
    private readonly serverUrl: string,
  ) {}

  /**
   * Browsers for viewers in `homes`, their pages still blank: started before any viewer arrives, so that
   * a viewer's arrival is its page's opening alone (a Chromium's start takes seconds here, which
   * would otherwise leave the viewers who came before it alone for that long).
   */
  async ready(homes: Home[]): Promise<Page[]> {
    return Promise.all(homes.map((h) => this.browse(h)));
  }

  /** The viewers of `pages` arrive together: their pages open the demo player on `key`. */
  async arrive(pages: Page[], key: string) {
    await Promise.all(
      pages.map((p) => p.goto(`${this.serverUrl}${PLAYER_PATHS.demo}?key=${key}&stream=index`)),
    );
  }

  private async browse(home: Home): Promise<Page> {
    const chromium = this.launchOptions.executablePath;
    if (!chromium) throw new Error('no Chromium in the launch options (e2e/playwright.config.ts)');
    const browser = await this.browserType.launch({
      ...this.launchOptions,
      executablePath: this.net.chromiumIn(home, chromium),
    });
    this.browsers.push(browser);
    const context = await browser.newContext({ viewport: { width: 640, height: 480 } });
    await context.addInitScript(watchStalls);
    // Only the test's server is asked for anything; whatever else a page asks for fails at once.
    const own = this.serverUrl;
    await context.route(
      (url) => url.origin !== own,
      (route) => route.abort(),
    );
    const page = await context.newPage();
    const viewer = { page, home, served: 0 };
    this.viewers.push(viewer);
    // What the origin served: every body byte of a segment response that reached the browser, as
    // viewers.ts counts it (aborted requests' bytes too, as an access log counts what was sent).
    const cdp = await context.newCDPSession(page);
    const segments = new Set<string>();
    cdp.on('Network.requestWillBeSent', (e) => {
      if (SEGMENT.test(e.request.url)) segments.add(e.requestId);
    });
    cdp.on('Network.dataReceived', (e) => {
      if (segments.has(e.requestId)) viewer.served += e.dataLength;
    });
    await cdp.send('Network.enable');
    return page;
  }

  get pages(): Page[] {
    return this.viewers.map((v) => v.page);
  }

  /** Every viewer's counters now. */
  async viewed(): Promise<Viewed[]> {
    return Promise.all(
      this.viewers.map(async (v) => {
        const w = await watched(v.page);
        const cross = await v.page.evaluate(
          () =>
            (
              window as unknown as { demoP2P?: { counters(): { p2pCrossBytes?: number } } }
            ).demoP2P?.counters().p2pCrossBytes,
        );
        return { ...w, home: v.home, served: v.served, p2pCrossBytes: cross };
      }),
    );
  }

  /** The viewers leave their pages: the plugin sends what is left on page hide. */
  async leave() {
    for (const v of this.viewers) if (!v.page.isClosed()) await v.page.close();
  }

  async close() {
    for (const b of this.browsers.splice(0)) await b.close();
  }
}
