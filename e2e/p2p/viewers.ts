import { type Browser, type BrowserType, expect, type LaunchOptions, type Page } from '@playwright/test';
import { PLAYER_PATHS } from '@tlprt/contract';

/**
 * Viewers of the demo page for the P2P share and byte-accounting tests (issue 21): each in a browser
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
function watchStalls() {
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
    const video = document.getElementById('video') as HTMLVideoElement;
    let played = 0;
    for (let i = 0; i < video.played.length; i++) played += video.played.end(i) - video.played.start(i);
    const c = w.demoP2P?.counters() ?? { cdnBytes: 0, p2pBytes: 0 };
    return { cdnBytes: c.cdnBytes, p2pBytes: c.p2pBytes, stalls: w.watch.stalls, played };
  });
}

const SEGMENT = /\/demo\/stream\/.+\.(ts|m4s)(\?.*)?$/;

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
    const browser = await this.browserType.launch(this.launchOptions);
    this.browsers.push(browser);
    const context = await browser.newContext({ viewport: { width: 640, height: 480 } });
    await context.addInitScript(watchStalls);
    const page = await context.newPage();
    this.served.set(page, 0);
    page.on('requestfinished', async (r) => {
      if (!SEGMENT.test(r.url())) return;
      const { responseBodySize } = await r.sizes();
      this.served.set(page, (this.served.get(page) ?? 0) + responseBodySize);
    });
    await page.goto(`${PLAYER_PATHS.demo}?key=${key}&${query}`);
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
        return origin > 0 ? Math.abs(reported - origin) / origin : 1;
      };
      await expect.poll(gap, { timeout: 5000, intervals: [500] }).toBeLessThanOrEqual(0.01);
    }
  }

  async close() {
    for (const b of this.browsers) await b.close();
  }
}

/** The P2P share of some viewers' bytes so far. */
export function shareOf(watches: Watch[]) {
  const cdn = watches.reduce((n, w) => n + w.cdnBytes, 0);
  const p2p = watches.reduce((n, w) => n + w.p2pBytes, 0);
  return { cdn, p2p, share: cdn + p2p > 0 ? p2p / (cdn + p2p) : 0 };
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
