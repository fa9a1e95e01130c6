/**
 * The opening wait for peers without a slower start (docs/DESIGN.md §11, key setting 12).
 *
 * p2p-media-loader's `httpDownloadInitialTimeoutMs` holds every CDN download of a stream for that long
 * after the stream's first request, so that peers found by the tracker in the meantime can send the
 * first segments. It holds the segment the player is blocked on too: a viewer alone waited the whole
 * window for peers that did not exist before its first frame could come, and a viewer joining a swarm
 * waited for the WebRTC connection (~1 s here) instead of starting from the CDN. Measured on the demo
 * page (e2e, two cores): a viewer alone started in 3.0 s, 2.0 s of it idle between hls.js asking for
 * segment 0 and the library starting its download, against 0.8 s for the same page without P2P; a
 * viewer joining a swarm in 2.8 s. With the wait applied as below: 0.7 s and 0.8 s, the joiner still
 * getting all but its first two segments from its peer.
 *
 * So the engine is built without the wait and with one HTTP download at a time, and each stream gets
 * the wait (and its usual HTTP slots back) once its first download has begun: the segment the player
 * asked for comes at once, while the segments ahead still wait the rest of the window for peers (the
 * library counts the window from the stream's first request). The single slot matters because the
 * library reads its configuration once per pass: with its default two slots, the pass that started the
 * first segment also started the next one from the CDN, and every viewer joining a swarm took two
 * segments from the CDN instead of one (the three-player share fell below 55% on a slower machine).
 * When the window is over the wait is lifted again, so a stream loader the library makes later
 * (another source) starts at once as well.
 *
 * The library has no call telling which of its streams (main, or the secondary one: a separate audio
 * track, DASH audio) a download belongs to, so this finds it through the library's objects (core →
 * stream loaders → requests), as p2p-media-loader-core 2.3.1 names them; opening.test.ts holds the
 * names, and the library's way of counting the wait, to the bundled library. Where it cannot tell, no
 * wait is applied: the start is never held.
 */

import type { HlsJsP2PEngine } from 'p2p-media-loader-hlsjs';

/** What is used of an engine (hls.js's and Shaka's have the same call). */
export type DynamicConfigurable = Pick<HlsJsP2PEngine, 'applyDynamicConfig'>;

type StreamType = 'mainStream' | 'secondaryStream';
/** The library's default number of simultaneous CDN downloads per stream. */
export const HTTP_SLOTS = 2;
/** What the engine is built with, for an opening wait of `waitMs` (0: none). */
export const openingCore = (waitMs: number) => ({
  httpDownloadInitialTimeoutMs: 0,
  simultaneousHttpDownloads: waitMs > 0 ? 1 : HTTP_SLOTS,
});
/** The wait of one stream only (the other may be in its own opening, or not started yet). */
const waitOf = (type: StreamType, ms: number) => {
  const config = { httpDownloadInitialTimeoutMs: ms, simultaneousHttpDownloads: HTTP_SLOTS };
  return { core: type === 'mainStream' ? { mainStream: config } : { secondaryStream: config } };
};
const LOADERS: ReadonlyArray<[StreamType, string]> = [
  ['mainStream', 'mainStreamLoader'],
  ['secondaryStream', 'secondaryStreamLoader'],
];

const field = (o: unknown, name: string): unknown =>
  typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[name] : undefined;

/** The stream loader whose requests hold this segment, and the stream it loads. */
export function loaderOf(engine: unknown, runtimeId: string): { type: StreamType; loader: object } | null {
  const core = field(engine, 'core');
  for (const [type, name] of LOADERS) {
    const loader = field(core, name);
    const requests = field(field(loader, 'requests'), 'requests');
    if (!(requests instanceof Map) || typeof loader !== 'object' || loader === null) continue;
    for (const request of requests.values())
      if (field(field(request, 'segment'), 'runtimeId') === runtimeId) return { type, loader };
  }
  return null;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * Applies the opening wait (`waitMs`, 0: none) to each stream of the engine from its first download on.
 * The engine's own configuration must start with `openingCore(waitMs)`.
 */
export class OpeningWait {
  /** Stream loaders whose first download was seen. */
  private readonly seen = new WeakSet<object>();
  /** Streams waiting now, and the timer that lifts their wait. */
  private readonly lifts = new Map<StreamType, unknown>();
  private stopped: boolean;

  constructor(
    private readonly engine: () => DynamicConfigurable | undefined,
    private readonly waitMs: number,
    private readonly timers: Timers = realTimers,
  ) {
    this.stopped = !(waitMs > 0);
  }

  /** The library began downloading a segment (its onSegmentStart). */
  segmentStarted(runtimeId: string | undefined): void {
    if (this.stopped || typeof runtimeId !== 'string') return;
    const engine = this.engine();
    const found = engine ? loaderOf(engine, runtimeId) : null;
    if (!engine || !found || this.seen.has(found.loader)) return;
    this.seen.add(found.loader);
    const { type } = found;
    if (this.lifts.has(type)) return;
    engine.applyDynamicConfig(waitOf(type, this.waitMs));
    this.lifts.set(
      type,
      this.timers.setTimeout(() => {
        this.lifts.delete(type);
        this.engine()?.applyDynamicConfig(waitOf(type, 0));
      }, this.waitMs),
    );
  }

  /** No wait from now on (peers turned off, detached): a stream waiting now is let go at once. */
  stop(): void {
    this.stopped = true;
    const engine = this.engine();
    for (const [type, timer] of this.lifts) {
      this.timers.clearTimeout(timer);
      engine?.applyDynamicConfig(waitOf(type, 0));
    }
    this.lifts.clear();
  }
}
