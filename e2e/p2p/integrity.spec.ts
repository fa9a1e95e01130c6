import { createHash } from 'node:crypto';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { PLAYER_PATHS } from '@tlprt/contract';
import { uniqueEmail } from '../support/mail';
import { teamWithKey } from '../support/session';
import { livePoints } from './live-points';

interface Counters {
  cdnBytes: number;
  p2pBytes: number;
  rejectedBytes: number;
  uploadedBytes: number;
  peers: number;
}

interface Watch {
  /** sn → SHA-256 (hex) of every fragment handed to hls.js's demuxer. */
  fragments: Array<[number, string]>;
  /** Seconds the video actually advanced (across the demo's loop). */
  played: number;
  fatal: string | null;
}

/**
 * An attacker in the swarm (docs/DESIGN.md §11 Integrity): its page changes the segment bytes it uploads over
 * WebRTC, same lengths, leaving p2p-media-loader's commands (framed by "cstr"/"dstr" … "cend"/"dend")
 * intact so the honest viewers still take segments from it. A page the attacker controls can do
 * anything; this is the strongest cheap thing it can do to honest players.
 */
function corruptUploads() {
  const ascii = (b: Uint8Array, at: number) =>
    String.fromCharCode(b[at] ?? 0, b[at + 1] ?? 0, b[at + 2] ?? 0, b[at + 3] ?? 0);
  const send = RTCDataChannel.prototype.send as (this: RTCDataChannel, data: unknown) => void;
  RTCDataChannel.prototype.send = function (this: RTCDataChannel, data: unknown) {
    const view =
      data instanceof ArrayBuffer
        ? new Uint8Array(data)
        : ArrayBuffer.isView(data)
          ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
          : null;
    if (view && view.byteLength > 8) {
      const head = ascii(view, 0);
      const isCommand = head === 'cstr' || head === 'dstr';
      if (!isCommand) {
        const altered = new Uint8Array(view);
        for (let i = 16; i < altered.length; i += 97) altered[i] = (altered[i] ?? 0) ^ 0x5a;
        (window as unknown as { corrupted: number }).corrupted =
          ((window as unknown as { corrupted?: number }).corrupted ?? 0) + altered.length;
        return send.call(this, altered);
      }
    }
    return send.call(this, data);
  } as RTCDataChannel['send'];
}

/**
 * What an honest player's demuxer receives: hls.js hands every fragment to its transmuxing worker with
 * `postMessage({cmd: 'demux', data, chunkMeta})`. WebCrypto copies the bytes when digest() is called,
 * before the buffer is transferred to the worker. Also counts the seconds played and a fatal error.
 */
function watchPlayer() {
  const w = window as unknown as { watch: Watch };
  w.watch = { fragments: [], played: 0, fatal: null };
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
    const m = message as { cmd?: string; data?: ArrayBuffer; chunkMeta?: { sn?: number } };
    if (m?.cmd === 'demux' && m.data instanceof ArrayBuffer && m.data.byteLength > 0) {
      const sn = Number(m.chunkMeta?.sn);
      void crypto.subtle.digest('SHA-256', m.data).then((d) => {
        w.watch.fragments.push([
          sn,
          Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, '0')).join(''),
        ]);
      });
    }
    return (post as (...a: unknown[]) => void).call(this, message, ...rest);
  } as Worker['postMessage'];
  document.addEventListener('DOMContentLoaded', () => {
    const video = document.getElementById('video') as HTMLVideoElement;
    let last = 0;
    video.addEventListener('timeupdate', () => {
      const d = video.currentTime - last;
      if (d > 0 && d < 1.5) w.watch.played += d;
      last = video.currentTime;
    });
    const state = document.getElementById('state') as HTMLElement;
    new MutationObserver(() => {
      if (state.textContent?.startsWith('Playback stopped')) w.watch.fatal = state.textContent;
    }).observe(state, { childList: true, characterData: true, subtree: true });
  });
}

const counters = (page: Page): Promise<Counters> =>
  page.evaluate(() => {
    const p = (window as unknown as { demoP2P?: { counters(): Counters } }).demoP2P;
    return p?.counters() ?? { cdnBytes: 0, p2pBytes: 0, rejectedBytes: 0, uploadedBytes: 0, peers: 0 };
  });
const watched = (page: Page): Promise<Watch> =>
  page.evaluate(() => (window as unknown as { watch: Watch }).watch);

const CASES = [
  { stream: 'index', playlist: PLAYER_PATHS.demoStream, supervisor: 'supervisor2@e2e.test' },
  // Byte-range segments: hls.js asks ranges, the plugin keys and verifies each segment with its range
  // (and a refused one is loaded again: p2p-media-loader 2.3.1 stalled on it, byte-range-fix.ts).
  { stream: 'byterange', playlist: PLAYER_PATHS.demoByteRangeStream, supervisor: 'supervisor5@e2e.test' },
] as const;

for (const { stream, playlist: playlistPath, supervisor } of CASES)
  test(`${stream}: an attacker page in the swarm that alters what it uploads changes nothing the honest players play: its bytes are refused and counted, the honest viewers play on and still share verified segments`, async ({
    browser,
    request,
    baseURL,
  }) => {
    const team = await teamWithKey(request, baseURL as string, uniqueEmail('integrity'), supervisor);
    const demo = `${PLAYER_PATHS.demo}?key=${team.keyHash}&stream=${stream}`;

    // The origin's bytes of every segment, by media sequence number (the demo stream starts at 0; the
    // byte ranges of its second playlist are whole files).
    const streamUrl = `${baseURL}${playlistPath}`;
    const playlist = await (await request.get(streamUrl)).text();
    const origin = new Map<number, string>();
    for (const [i, name] of playlist
      .split('\n')
      .filter((l) => l.endsWith('.ts'))
      .entries()) {
      const body = await (await request.get(new URL(name, streamUrl).href)).body();
      origin.set(i, createHash('sha256').update(body).digest('hex'));
    }

    const contexts: BrowserContext[] = [];
    const open = async (init: () => void) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      contexts.push(context);
      await context.addInitScript(init);
      const page = await context.newPage();
      await page.goto(demo);
      return page;
    };

    // The attacker comes first, so it holds segments the honest viewers do not have yet.
    const attacker = await open(corruptUploads);
    await expect(attacker.getByTestId('state')).toContainText('sharing segments');
    await expect
      .poll(async () => (await counters(attacker)).cdnBytes, { timeout: 30_000 })
      .toBeGreaterThan(400_000);

    const honest = [await open(watchPlayer), await open(watchPlayer)] as const;
    const asked: URL[] = [];
    for (const page of honest)
      page.on('request', (r) => {
        if (r.url().includes(PLAYER_PATHS.integrity)) asked.push(new URL(r.url()));
      });
    /** The smallest of a figure over both honest viewers, polled until it passes. */
    const leastOfHonest = (figure: (p: Page) => Promise<number>, timeout: number) =>
      expect.poll(async () => Math.min(...(await Promise.all(honest.map(figure)))), {
        timeout,
        intervals: [2000],
      });
    // Both honest viewers take segments from the attacker, refuse them, and play on for 20 s or more.
    await leastOfHonest(async (p) => (await counters(p)).rejectedBytes, 90_000).toBeGreaterThan(0);
    await leastOfHonest(async (p) => (await watched(p)).played, 90_000).toBeGreaterThanOrEqual(20);
    // And they still share verified segments (the attacker alters all it sends, so these come from the
    // other honest viewer). Which way they flow depends on which of the two reaches a segment first: the
    // one ahead may take none from the one behind, so the pair is asked, not each.
    await expect
      .poll(
        async () =>
          (await Promise.all(honest.map(async (p) => (await counters(p)).p2pBytes))).reduce((a, b) => a + b),
        {
          timeout: 60_000,
          intervals: [2000],
        },
      )
      .toBeGreaterThan(0);

    expect(
      await attacker.evaluate(() => (window as unknown as { corrupted?: number }).corrupted ?? 0),
    ).toBeGreaterThan(0);
    for (const page of honest) {
      const w = await watched(page);
      const c = await counters(page);
      console.log(
        `honest viewer: ${w.fragments.length} fragments demuxed, ${w.played.toFixed(1)} s played, CDN ${c.cdnBytes} B, verified P2P ${c.p2pBytes} B, refused ${c.rejectedBytes} B, peers ${c.peers}`,
      );
      expect(w.fatal).toBeNull();
      expect(w.fragments.length).toBeGreaterThanOrEqual(10);
      // Every fragment the demuxer got is the origin's, byte for byte.
      for (const [sn, hash] of w.fragments) expect({ sn, hash }).toEqual({ sn, hash: origin.get(sn) });
    }
    // The hashes asked are of this stream's segments, with their byte ranges when it has them.
    expect(asked.length).toBeGreaterThan(0);
    for (const u of asked) {
      expect(u.searchParams.get('key')).toBe(team.keyHash);
      expect(u.searchParams.get('url')).toMatch(/\/demo\/stream\/segment-\d+\.ts$/);
      expect(u.searchParams.get('range') !== null).toBe(stream === 'byterange');
    }
    await honest[0].screenshot({ path: `test-results/p2p-shots/integrity-${stream}-honest-1280x800.png` });

    // The statistics show the refused bytes beside the verified P2P bytes.
    await expect
      .poll(
        async () => {
          const points = await livePoints(request, team);
          return {
            p2p: points.some((p) => p.p2pDwSize > 0),
            rejected: points.some((p) => p.rejectedDwSize > 0),
          };
        },
        { timeout: 60_000, intervals: [3000] },
      )
      .toEqual({ p2p: true, rejected: true });
    for (const c of contexts) await c.close();
  });
