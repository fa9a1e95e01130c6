import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type APIRequestContext,
  type Browser,
  type BrowserType,
  expect,
  type LaunchOptions,
  type Page,
} from '@playwright/test';
import {
  PLAYER_PATHS,
  PLAYER_TABLE,
  STREAM_PLACEHOLDER,
  type TMorePlayer,
  type TPlayer,
} from '@tlprt/contract';
import { playerSnippet } from '../../apps/web/src/platform/integration/snippets';
import { livePoints } from './live-points';

/** Where the snippets' provider files are read from: the plugin's development dependencies (plain
 *  paths: some packages, Plyr's among them, export no subpath for their dist files; npm nests a
 *  version it cannot hoist, as Video.js 8.10.0, the snippet's, under the plugin's package). */
const PACKAGE_DIRS = ['../../packages/player/node_modules', '../../node_modules'].map((d) =>
  join(import.meta.dirname, d),
);
const packageFile = (file: string) => {
  const found = PACKAGE_DIRS.map((d) => join(d, file)).find((f) => existsSync(f));
  if (!found) throw new Error(`${file} is not installed (npm ci)`);
  return found;
};

/**
 * Viewers of the demo page for the P2P share and byte-accounting tests: each in a browser
 * of its own, with its stalls, the seconds it played, its plugin's counters, and the bytes the
 * origin served it (the bodies of its segment responses, as the origin's access log would count them).
 */
export interface Watch {
  cdnBytes: number;
  p2pBytes: number;
  stalls: number;
  played: number;
}

/** Counts stalls (a `waiting` once playback has begun). Runs in the page before its scripts. */
export function watchStalls() {
  const w = window as unknown as { watch: { stalls: number; playing: boolean } };
  w.watch = { stalls: 0, playing: false };
  document.addEventListener('playing', () => (w.watch.playing = true), true);
  document.addEventListener(
    'waiting',
    () => {
      if (w.watch.playing) w.watch.stalls += 1;
    },
    true,
  );
}

export function watched(page: Page): Promise<Watch> {
  return page.evaluate(() => {
    const w = window as unknown as {
      watch: { stalls: number };
      demoP2P?: { counters(): { cdnBytes: number; p2pBytes: number } };
    };
    const video = document.querySelector('video') as HTMLVideoElement;
    let played = 0;
    for (let i = 0; i < video.played.length; i++) played += video.played.end(i) - video.played.start(i);
    const c = w.demoP2P?.counters() ?? { cdnBytes: 0, p2pBytes: 0 };
    return { cdnBytes: c.cdnBytes, p2pBytes: c.p2pBytes, stalls: w.watch.stalls, played };
  });
}

const SEGMENT = /\/demo\/stream\/.+\.(ts|m4s)(\?.*)?$/;

/**
 * Uppod publishes no copy of its player (it builds uppod.js for each site), so its CDN-only snippet runs
 * on a stand-in under Uppod's constructor: a real player that loads segments itself, Video.js with its
 * own HLS engine (VHS, also where the browser plays HLS natively), whose bytes the plugin can count
 * only from the page's resource timing.
 */
const UPPOD_STAND_IN = 'uppod.js stand-in';
const standInBody = () => `${readFileSync(packageFile('video.js/dist/video.min.js'), 'utf8')}
window.Uppod = function (options) {
  var video = document.createElement('video');
  video.className = 'video-js';
  video.muted = true;
  document.getElementById(options.uid).append(video);
  videojs(video, { autoplay: 'muted', html5: { vhs: { overrideNative: true } } })
    .src({ src: options.file, type: 'application/x-mpegURL' });
};`;

/** The npm files standing in for each provider CDN file of a snippet (scripts, then styles). */
const PROVIDER_FILES = {
  'HLS.js': ['hls.js/dist/hls.min.js'],
  Shaka: ['shaka-player/dist/shaka-player.compiled.js'],
  Clappr: ['@clappr/player/dist/clappr.min.js'],
  Flowplayer: [
    '@flowplayer/player/default.js',
    '@flowplayer/player/plugins/hls.js',
    '@flowplayer/player/flowplayer.css',
  ],
  'Video.js': ['video.js/dist/video.min.js', 'hls.js/dist/hls.min.js', 'video.js/dist/video-js.min.css'],
  Other: ['hls.js/dist/hls.min.js'],
  Uppod: [UPPOD_STAND_IN],
} satisfies Partial<Record<TPlayer, string[]>>;

/** A file of an npm package on the CDN the recipes load from: its package (name@version dropped) and path. */
const NPM_CDN_FILE = /^https:\/\/cdn\.jsdelivr\.net\/npm\/((?:@[^/@]+\/)?[^/@]+)@[^/]+\/(.+)$/;
const CONTENT_TYPES: Record<string, string> = {
  css: 'text/css',
  svg: 'image/svg+xml',
  json: 'application/json',
};
const contentTypeOf = (file: string) => CONTENT_TYPES[file.split('.').pop() ?? ''] ?? 'text/javascript';

/** A player a customer adds to the Other snippet: its CDN files (and their npm copies), and its start. */
export interface AddedPlayer {
  files: Record<string, string>;
  start: string;
}

/** Plyr on the Other snippet's video element, as that snippet's last comment says. */
export const PLYR: AddedPlayer = {
  files: {
    'https://cdn.plyr.io/3.8.4/plyr.css': 'plyr/dist/plyr.css',
    'https://cdn.plyr.io/3.8.4/plyr.js': 'plyr/dist/plyr.min.js',
  },
  start: "new Plyr('#video');",
};

/** Keeps the handle a snippet's `TlprtP2P.attach` gives, as the demo page does (window.demoP2P). Runs
 *  in the page before its scripts: the plugin's bundle then assigns the global through this setter. */
export function keepHandle() {
  const w = window as unknown as Record<string, unknown>;
  let plugin: { attach(o: unknown): Promise<unknown> } | undefined;
  Object.defineProperty(w, 'TlprtP2P', {
    configurable: true,
    get: () => plugin,
    set(value: { attach(o: unknown): Promise<unknown> }) {
      plugin = {
        ...value,
        attach: (o: unknown) =>
          value.attach(o).then((handle) => {
            w.demoP2P = handle;
            return handle;
          }),
      };
    },
  });
}

/** Opens a page of `address` made of `html` as a customer's page holds it, the plugin's handle kept. */
async function showPage(page: Page, address: string, title: string, html: string): Promise<Page> {
  await page.context().route(address, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>\n${html}\n</body></html>`,
    }),
  );
  await page.context().addInitScript(keepHandle);
  await page.goto(address);
  return page;
}

export class Viewers {
  private readonly browsers: Browser[] = [];
  /** What the origin served each page: the bodies of its segment responses. */
  readonly served = new Map<Page, number>();

  /** Each viewer gets a browser of its own, as real viewers have: pages of one browser share its GPU and
   *  media processes, and three players there starve each other on two cores (startups of 20 s). */
  constructor(
    private readonly browserType: BrowserType,
    private readonly launchOptions: LaunchOptions,
  ) {}

  /** A viewer of the demo page for `key`, with `query` (e.g. `stream=live`). */
  async open(key: string, query: string): Promise<Page> {
    const page = await this.newViewer();
    await page.goto(`${PLAYER_PATHS.demo}?key=${key}&${query}`);
    return page;
  }

  /**
   * A viewer of a page made of `player`'s Add domain snippet exactly as the dashboard shows it, with
   * `stream` (a path of the server; the demo HLS stream by default) put in SRC as a customer puts
   * theirs. The page is served from the server's origin; the provider's CDN files come from the
   * project's own npm packages (no request leaves the machine).
   */
  async openSnippet(
    key: string,
    player: keyof typeof PROVIDER_FILES,
    origin: string,
    added?: AddedPlayer,
    stream: string = PLAYER_PATHS.demoStream,
  ): Promise<Page> {
    // Chromium takes a page the test fulfils for a public one (it has no address), and refuses it the
    // tracker's socket on loopback (Local Network Access); a customer's page and tracker are both public.
    const page = await this.newViewer(['LocalNetworkAccessChecks']);
    const context = page.context();
    // A bundle the customer serves from their own site (Uppod's) has a path: it is on the page's origin.
    const local = (url: string, file: string) =>
      context.route(new URL(url, origin).href, (route) =>
        route.fulfill({
          ...(file === UPPOD_STAND_IN ? { body: standInBody() } : { path: packageFile(file) }),
          contentType: url.endsWith('.css') ? 'text/css' : 'text/javascript',
        }),
      );
    const bundle = PLAYER_TABLE[player].snippet;
    const files = PROVIDER_FILES[player];
    for (const [i, url] of [...bundle.scripts, ...bundle.styles].entries()) {
      const file = files[i];
      if (!file) throw new Error(`no local copy of ${url}`);
      await local(url, file);
    }
    for (const [url, file] of Object.entries(added?.files ?? {})) await local(url, file);
    const addedTags = Object.keys(added?.files ?? {}).map((url) =>
      url.endsWith('.css') ? `<link rel="stylesheet" href="${url}">` : `<script src="${url}"></script>`,
    );
    const snippet = [
      playerSnippet(player, key, `${origin}${PLAYER_PATHS.bundle}`).replace(
        STREAM_PLACEHOLDER,
        `${origin}${stream}`,
      ),
      ...(added ? [...addedTags, `<script>${added.start}</script>`] : []),
    ].join('\n');
    return showPage(page, `${origin}/snippet-page`, player, snippet);
  }

  /**
   * A viewer of a page made of one of the guide's More players recipes exactly as the guide shows it,
   * the demo stream in SRC. Every file the recipe takes from the npm CDN (and whatever those files load
   * from it, Vidstack's chunks and icons among them) is served from the project's own npm packages.
   */
  async openRecipe(key: string, player: TMorePlayer, origin: string): Promise<Page> {
    const page = await this.newViewer(['LocalNetworkAccessChecks']);
    const context = page.context();
    await context.route(NPM_CDN_FILE, async (route) => {
      const url = route.request().url();
      const [, pkg = '', file = ''] = NPM_CDN_FILE.exec(url) ?? [];
      // ES modules are fetched with CORS.
      const headers = { 'Access-Control-Allow-Origin': '*' };
      if (file.endsWith('/+esm')) {
        // The CDN's ES module of a file: the file itself, its relative imports made absolute (the
        // module's address ends in /+esm, which they would otherwise resolve against).
        const plain = file.slice(0, -'/+esm'.length);
        const dir = url.slice(0, url.lastIndexOf('/', url.length - '/+esm'.length - 1) + 1);
        const body = readFileSync(packageFile(`${pkg}/${plain}`), 'utf8').replace(
          /((?:\bimport|\bfrom)\s*\(?\s*)(["'`])\.\//g,
          `$1$2${dir}`,
        );
        return route.fulfill({ body, contentType: 'text/javascript', headers });
      }
      await route.fulfill({ path: packageFile(`${pkg}/${file}`), contentType: contentTypeOf(file), headers });
    });
    const recipe = playerSnippet(player, key, `${origin}${PLAYER_PATHS.bundle}`).replace(
      STREAM_PLACEHOLDER,
      `${origin}${PLAYER_PATHS.demoStream}`,
    );
    return showPage(page, `${origin}/recipe-page`, player, recipe);
  }

  private async newViewer(extraDisabledFeatures: string[] = []): Promise<Page> {
    const args = (this.launchOptions.args ?? []).map((a) =>
      a.startsWith('--disable-features=') ? [a, ...extraDisabledFeatures].join(',') : a,
    );
    const browser = await this.browserType.launch({ ...this.launchOptions, args });
    this.browsers.push(browser);
    const context = await browser.newContext({ viewport: { width: 640, height: 480 } });
    await context.addInitScript(watchStalls);
    // Only this machine's server is reachable; anything else a page asks for fails at once.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    const page = await context.newPage();
    this.served.set(page, 0);
    // Every body byte of a segment response that reached the browser, counted as it arrives (the
    // network's dataReceived): a request the player or the plugin aborts after its bytes came counts
    // too, as the origin's access log would count what it sent. Finished requests alone missed such a
    // segment now and then, and the plugin, which counts what it read, was one segment "over".
    const cdp = await context.newCDPSession(page);
    const segments = new Set<string>();
    cdp.on('Network.requestWillBeSent', (e) => {
      if (SEGMENT.test(e.request.url)) segments.add(e.requestId);
    });
    cdp.on('Network.dataReceived', (e) => {
      if (segments.has(e.requestId)) this.served.set(page, (this.served.get(page) ?? 0) + e.dataLength);
    });
    await cdp.send('Network.enable');
    return page;
  }

  /** Every byte counted: what a viewer reports from the CDN is what the origin served it, within 1%
   *  (read until they agree for up to 5 s: a segment may be between the origin's answer and the player). */
  async expectCdnBytesCounted(pages: Page[], what: string) {
    for (const page of pages) {
      const gap = async () => {
        const reported = (await watched(page)).cdnBytes;
        const origin = this.served.get(page) ?? 0;
        console.log(`${what}: CDN bytes reported ${reported}, served by the origin ${origin}`);
        return relativeGap(reported, origin);
      };
      await expect.poll(gap, { timeout: 5000, intervals: [500] }).toBeLessThanOrEqual(0.01);
    }
  }

  /**
   * Every counted byte reaches the statistics: the viewers leave their pages (their plugins send what
   * is left), and the statistics API's CDN bytes of the key, summed over the Live range, match
   * what the origin served all of them, within 1%. `pages` are every viewer of the key.
   */
  async expectStatisticsCount(
    request: APIRequestContext,
    team: { teamId: number; keyHash: string; auth: Record<string, string> },
    pages: Page[],
  ) {
    // The viewers leave their pages: the plugin sends what is left on pagehide, and nothing loads after
    // (a detached plugin would leave a player such as Flowplayer loading on, unreported).
    for (const page of pages) await page.close();
    const gap = async () => {
      const served = pages.reduce((n, p) => n + (this.served.get(p) ?? 0), 0);
      const counted = (await livePoints(request, team)).reduce((n, p) => n + p.cdnDwSize, 0);
      console.log(`statistics API: CDN bytes ${counted}; served by the origin ${served}`);
      return relativeGap(counted, served);
    };
    // A report every 10 s at most, the last one sent on detach; the ingest writes every second here.
    await expect.poll(gap, { timeout: 30_000, intervals: [2000] }).toBeLessThanOrEqual(0.01);
  }

  async close() {
    for (const b of this.browsers) await b.close();
  }
}

/** How far a count is from what the origin served, as a share of it. A viewer that took every
 *  segment from peers was served nothing: then only a count of 0 agrees. */
function relativeGap(counted: number, served: number): number {
  if (served === 0) return counted === 0 ? 0 : 1;
  return Math.abs(counted - served) / served;
}

/** The P2P share of some viewers' bytes so far. */
export function shareOf(watches: Watch[]) {
  const cdn = watches.reduce((n, w) => n + w.cdnBytes, 0);
  const p2p = watches.reduce((n, w) => n + w.p2pBytes, 0);
  return { cdn, p2p, share: cdn + p2p > 0 ? p2p / (cdn + p2p) : 0 };
}

/** Reads the viewers' counters and logs their share against the ceiling 1 − 1/N, each viewer's CDN and
 *  P2P bytes and its stalls: the line a failed run is diagnosed from. */
export async function measuredShare(pages: Page[], label: string, since?: Watch[]) {
  const now = await Promise.all(pages.map(watched));
  // Since an earlier reading: the bytes of that stretch only (stalls stay the whole run's).
  const watches = since
    ? now.map((w, i) => {
        const s = since[i] ?? { cdnBytes: 0, p2pBytes: 0, stalls: 0, played: 0 };
        return { ...w, cdnBytes: w.cdnBytes - s.cdnBytes, p2pBytes: w.p2pBytes - s.p2pBytes };
      })
    : now;
  const measured = shareOf(watches);
  const ceiling = 1 - 1 / pages.length;
  console.log(
    `${label}, ${pages.length} viewers: P2P share ${(measured.share * 100).toFixed(1)}% (ceiling ${(ceiling * 100).toFixed(1)}%; CDN ${measured.cdn} B, P2P ${measured.p2p} B); per viewer CDN/P2P ${watches.map((w) => `${w.cdnBytes}/${w.p2pBytes}`).join(', ')}; stalls ${watches.map((w) => w.stalls).join(', ')}`,
  );
  return { ...measured, ceiling, watches };
}

/** Waits until the page's plugin has attached with its key usable and peering drawn, then presses play
 *  (a snippet's player waits for its viewer). */
export async function playWhenPeering(page: Page) {
  const peering = () =>
    page.evaluate(() => (window as { demoP2P?: { peering: boolean } }).demoP2P?.peering ?? false);
  await expect.poll(peering, { timeout: 30_000 }).toBe(true);
  // A player may start a load of its own after that (Vidstack, MediaElement.js), which interrupts a
  // play() already asked for ("AbortError", seen in CI): press play again until the video plays.
  const playing = () =>
    page.evaluate(async () => {
      const video = document.querySelector('video');
      if (!video) return false;
      if (video.paused) await video.play().catch(() => {});
      return !video.paused;
    });
  await expect.poll(playing, { timeout: 30_000, intervals: [500] }).toBe(true);
}

/** Polls until every page has played at least `seconds`. */
export async function untilPlayed(pages: Page[], seconds: number, timeout = 60_000) {
  await expect
    .poll(async () => Math.min(...(await Promise.all(pages.map(async (p) => (await watched(p)).played)))), {
      timeout,
      intervals: [1000],
    })
    .toBeGreaterThanOrEqual(seconds);
}
