import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserType, LaunchOptions, Page, PlaywrightTestConfig } from '@playwright/test';
import { PLAYER_PATHS } from '@tlprt/contract';
import base from '../playwright.config';
import { watchStalls } from './viewers';

/**
 * Viewers behind NATs (e2e/p2p/nat.spec.ts): the network scripts/natns.sh builds inside the
 * test's own namespace, coturn and a server of our own on its public side, and viewers whose Chromium
 * runs in a home namespace behind a router.
 */
const root = resolve(import.meta.dirname, '../..');
/** The public side's address (scripts/natns.sh): the server's and coturn's. */
export const PUBLIC_IP = '10.98.0.1';
const TURN_PORT = 3478;

export function need(command: string, pkg: string) {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
  } catch {
    // CI installs these (.ci/run); a machine without them must not pass the test by skipping it.
    throw new Error(`${command} is not installed: apt-get install -y ${pkg}`);
  }
}

/** The namespaces of scripts/natns.sh: one home and router per viewer, `kinds[i]` the NAT of viewer i+1. */
export class NatNetwork {
  /** Unique per run: the names live in /var/run/netns, which every namespace of the machine sees. */
  readonly prefix = `nat${process.pid}`;
  private readonly wrappers = mkdtempSync(join(tmpdir(), 'nat-chromium-'));

  constructor(readonly kinds: ('cone' | 'symmetric')[]) {}

  up() {
    need('ip', 'iproute2');
    need('iptables', 'iptables');
    execFileSync('sh', [join(root, 'scripts/natns.sh'), 'up', this.prefix, ...this.kinds], {
      stdio: 'inherit',
    });
  }

  down() {
    execFileSync('sh', [join(root, 'scripts/natns.sh'), 'down', this.prefix], { stdio: 'inherit' });
    rmSync(this.wrappers, { recursive: true, force: true });
  }

  /** Viewer `n`'s (1-based) home namespace. */
  home(n: number) {
    return `${this.prefix}h${n}`;
  }

  /**
   * A Chromium that runs in viewer `n`'s home. Playwright starts the executable it is given and talks to
   * it over inherited pipes, which `ip netns exec` keeps (it execs in place: same process, same fds).
   */
  chromiumIn(n: number, chromium: string): string {
    const wrapper = join(this.wrappers, `chromium-${n}`);
    writeFileSync(wrapper, `#!/bin/sh\nexec ip netns exec ${this.home(n)} ${chromium} "$@"\n`);
    chmodSync(wrapper, 0o755);
    return wrapper;
  }
}

/** A process the test started, with what it printed (kept for the assertions and a failure's log). */
export class Started {
  readonly output: string[] = [];
  private readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {
    const keep = (d: Buffer) => this.output.push(d.toString());
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((done) => child.on('exit', () => done()));
  }

  get running() {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  text() {
    return this.output.join('');
  }

  /** Stops it and removes its directory. */
  async stop() {
    if (this.running) {
      this.child.kill('SIGTERM');
      const late = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      await this.exited;
      clearTimeout(late);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * coturn (Debian's package) on the public side: STUN and TURN on one UDP port, TURN REST credentials
 * checked against `secret`. It relays only between addresses of the test's public network: coturn by
 * itself refuses no private peer, and nothing here may reach any other network.
 */
export function startCoturn(secret: string): Started {
  need('turnserver', 'coturn');
  const dir = mkdtempSync(join(tmpdir(), 'coturn-'));
  const child = spawn(
    'turnserver',
    [
      '-n',
      '--listening-ip',
      PUBLIC_IP,
      '--relay-ip',
      PUBLIC_IP,
      '--listening-port',
      String(TURN_PORT),
      '--use-auth-secret',
      '--static-auth-secret',
      secret,
      '--realm',
      'nat.e2e.test',
      '--fingerprint',
      '--no-cli',
      '--no-tls',
      '--no-dtls',
      '--no-multicast-peers',
      '--denied-peer-ip=0.0.0.0-255.255.255.255',
      '--allowed-peer-ip=10.98.0.0-10.98.0.255',
      // Its own files in a directory of the test's, not /var.
      '--pidfile',
      join(dir, 'turnserver.pid'),
      '--userdb',
      join(dir, 'turndb'),
      // Sessions, allocations and each session's relayed bytes when it closes.
      '--verbose',
      '--log-file',
      'stdout',
      '--simple-log',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Started('coturn', child, dir);
}

/** Counts coturn log lines matching `pattern`. */
export function coturnLines(coturn: Started, pattern: RegExp) {
  return coturn
    .text()
    .split('\n')
    .filter((l) => pattern.test(l)).length;
}

type WebServer = Extract<PlaywrightTestConfig['webServer'], { command: string }>;

/**
 * A server of a P2P test's own on its public side (`ip`, in a namespace the test built): the suite's
 * settings and mail sink, a database of its own, `env` over them; resolves once it answers.
 */
export async function startPublicServer(
  test: string,
  ip: string,
  port: number,
  env: Record<string, string>,
): Promise<{ url: string } & Started> {
  const [, suiteServer] = base.webServer as [WebServer, WebServer];
  const url = `http://${ip}:${port}`;
  const dir = mkdtempSync(join(tmpdir(), `${test}-db-`));
  const child = spawn('node', ['apps/server/dist/main.js'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      ...suiteServer.env,
      HOST: ip,
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: `sqlite:${join(dir, 'dashboard.db')}`,
      STATS_INGEST_FLUSH_MS: '1000',
      ...env,
    },
  });
  const server = new Started('server', child, dir);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (!server.running) throw new Error(`the ${test} test's server exited:\n${server.text()}`);
    try {
      if ((await fetch(`${url}/auth/get_time_server`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`the ${test} test's server did not answer within 30 s:\n${server.text()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return Object.assign(server, { url });
}

/** The NAT test's server, with the STUN and TURN servers in its ICE_SERVERS (the suite's has none). */
export const startServer = (port: number, turnSecret: string) =>
  startPublicServer('NAT', PUBLIC_IP, port, {
    SUPERVISOR_EMAILS: 'nat-supervisor@e2e.test,nat-supervisor2@e2e.test',
    ICE_SERVERS: `stun:${PUBLIC_IP}:${TURN_PORT},turn:${PUBLIC_IP}:${TURN_PORT}`,
    TURN_SECRET: turnSecret,
  });

export const turnSecret = () => randomBytes(24).toString('hex');

/** Keeps every RTCPeerConnection the page makes (window.natPeerConnections), for their ICE statistics.
 *  Runs in the page before its scripts, so the P2P library constructs this subclass. */
function keepPeerConnections() {
  const w = window as unknown as { natPeerConnections: RTCPeerConnection[] };
  const Native = window.RTCPeerConnection;
  const kept: RTCPeerConnection[] = [];
  w.natPeerConnections = kept;
  window.RTCPeerConnection = class extends Native {
    constructor(config?: RTCConfiguration) {
      super(config);
      kept.push(this);
    }
  };
}

/** A candidate pair of one of the page's connections that carried bytes: the candidate types at each
 *  end, whether it is its connection's selected pair now, and what it carried. */
export interface UsedPair {
  local: string;
  remote: string;
  selected: boolean;
  bytesReceived: number;
}

/** The candidate pairs that carried bytes, of each of the page's open peer connections. Every pair that
 *  carried some counts, not only the selected one: ICE may have moved a connection to a better pair. */
export function usedPairs(page: Page): Promise<UsedPair[]> {
  return page.evaluate(async () => {
    const kept = (window as unknown as { natPeerConnections?: RTCPeerConnection[] }).natPeerConnections ?? [];
    const pairs: UsedPair[] = [];
    for (const pc of kept) {
      if (pc.connectionState === 'closed') continue;
      const stats = await pc.getStats();
      const selected = new Set<string>();
      const candidatePairs: RTCIceCandidatePairStats[] = [];
      stats.forEach((s: { type: string; selectedCandidatePairId?: string }) => {
        if (s.type === 'transport' && s.selectedCandidatePairId) selected.add(s.selectedCandidatePairId);
        if (s.type === 'candidate-pair') candidatePairs.push(s as unknown as RTCIceCandidatePairStats);
      });
      const type = (id: string) =>
        (stats.get(id) as { candidateType?: string } | undefined)?.candidateType ?? '?';
      for (const pair of candidatePairs) {
        if (!pair.bytesReceived && !selected.has(pair.id)) continue;
        pairs.push({
          local: type(pair.localCandidateId),
          remote: type(pair.remoteCandidateId),
          selected: selected.has(pair.id),
          bytesReceived: pair.bytesReceived ?? 0,
        });
      }
    }
    return pairs;
  });
}

/** A pair whose bytes pass through the TURN server: a relay candidate at either end. */
export const relayed = (p: UsedPair) => p.local === 'relay' || p.remote === 'relay';

/** Viewers of the demo page at `serverUrl`, viewer n's browser in the network's home n. */
export class NatViewers {
  private readonly browsers: Browser[] = [];

  constructor(
    private readonly browserType: BrowserType,
    private readonly launchOptions: LaunchOptions,
    private readonly net: NatNetwork,
    private readonly serverUrl: string,
  ) {}

  async open(n: number, key: string): Promise<Page> {
    const chromium = this.launchOptions.executablePath;
    if (!chromium) throw new Error('no Chromium in the launch options (e2e/playwright.config.ts)');
    const browser = await this.browserType.launch({
      ...this.launchOptions,
      executablePath: this.net.chromiumIn(n, chromium),
    });
    this.browsers.push(browser);
    const context = await browser.newContext({ viewport: { width: 640, height: 480 } });
    await context.addInitScript(watchStalls);
    await context.addInitScript(keepPeerConnections);
    const page = await context.newPage();
    await page.goto(`${this.serverUrl}${PLAYER_PATHS.demo}?key=${key}&stream=index`);
    return page;
  }

  async close() {
    for (const b of this.browsers.splice(0)) await b.close();
  }
}
