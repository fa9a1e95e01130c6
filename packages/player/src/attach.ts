import {
  isPlayerSettingsBody,
  PLAYER_INTEGRATION,
  PLAYER_PATHS,
  PLAYER_REPORT_INTERVAL_MS,
  type TPlayerName,
} from '@tlprt/contract';
import { type Counters, Tally } from './counts.js';
import { countEvents, engineCore, type P2PEngine, playlistWatcher, segmentGuard } from './engine.js';
import { Experience, isMediaLike } from './experience.js';
import { INTEGRATIONS } from './integrations/index.js';
import { IntegrityReferences } from './integrity.js';
import { OpeningWait } from './opening.js';
import { OwnNetworkFirst } from './own-network.js';
import { NO_VERDICT, newSessionId, Reporter, streamName } from './reporter.js';
import {
  failoverPlanFor,
  openingWaitMs,
  opensPeering,
  type PlayerSettings,
  readSettings,
  swarmNodeFor,
} from './settings.js';
import { followTrackers, TrackerFailover } from './tracker-failover.js';

export type { Counters };

export interface AttachOptions {
  /** The key hash of the Add domain / My domains screens. */
  key: string;
  player: TPlayerName;
  /** hls.js: the Hls class; shaka: the shaka.Player; clappr, flowplayer: their player (see `bindHls`). */
  instance?: unknown;
  /** The stream's URL (players with P2P: the swarm is the key and this stream). */
  src?: string;
  /** hls.js: the element the stream plays in. Any player: the element whose playing, stalls and startup
   *  are reported (hls.js and Shaka find theirs; a CDN-only player has none without it). */
  video?: HTMLMediaElement;
  /** hls.js: your own hls.js settings, kept. */
  hlsConfig?: Record<string, unknown>;
  /** shaka: the shaka namespace, when it is not the global `shaka`. */
  shaka?: unknown;
  /** Our server, when the plugin is not loaded from it. */
  server?: string;
}

export interface Handle {
  /** The key is usable: its settings apply and bytes are reported. */
  readonly active: boolean;
  /** This viewer shares segments with others (the key's peering quota drew it). */
  readonly peering: boolean;
  readonly sessionId: string;
  /** hls.js: the player the plugin made (already loading `src` into `video` when both were given). */
  readonly hls: unknown;
  /** Players built on hls.js: settings to pass to their hls.js (empty when the key is not usable). */
  readonly hlsConfig: Record<string, unknown>;
  /** Players built on hls.js: their hls.js instance (or a function returning it) once it exists;
   *  Flowplayer: its player (the plugin follows the hls.js its HLS plugin makes for each source). */
  bindHls(hls: unknown): void;
  /** Bytes not seen by the plugin (a player without integration): counted as CDN bytes. */
  addCdnBytes(bytes: number): void;
  counters(): Counters;
  onUpdate(listener: (c: Counters) => void): () => void;
  /** Sends what is left, stops reporting and sharing; hls.js: destroys the player it made. */
  detach(): void;
}

/** The origin the plugin was loaded from (read while the bundle runs; `currentScript` is gone later). */
const loadedFrom: string | undefined = (() => {
  const s = typeof document !== 'undefined' ? document.currentScript : null;
  const src = s && 'src' in s ? (s as HTMLScriptElement).src : '';
  try {
    return src ? new URL(src).origin : undefined;
  } catch {
    return undefined;
  }
})();

async function fetchSettings(server: string, key: string): Promise<PlayerSettings | null> {
  try {
    const res = await fetch(server + PLAYER_PATHS.settings(key), { credentials: 'omit' });
    if (!res.ok) return null;
    const body: unknown = await res.json();
    if (!isPlayerSettingsBody(body)) return null;
    const d = body.data;
    return readSettings(d.settings, d.iceServers, d.trackerNodes, d.trackerNodesAll, d);
  } catch {
    // Our server unreachable or answering nonsense: play from the CDN, like a key that is not usable.
    return null;
  }
}

function absoluteUrl(src: string | undefined): string | undefined {
  try {
    return src ? new URL(src, location.href).href : undefined;
  } catch {
    return undefined;
  }
}

/** The reporter of a usable key: its reports go to our server's ingest. */
function newReporter(
  server: string,
  options: AttachOptions,
  sessionId: string,
  experience: Experience,
  tally: Tally,
): Reporter {
  return new Reporter(
    options.key,
    sessionId,
    (body, keepalive) =>
      fetch(server + PLAYER_PATHS.ingest, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
        keepalive,
        credentials: 'omit',
      }).then((r) => (r.ok ? r.json().catch(() => NO_VERDICT) : null)),
    undefined,
    {
      experience: () => experience.take(),
      peers: () => tally.peerCount,
      stream: streamName(options.src, location.href),
    },
  );
}

/** Reports every 10 s and when the page is hidden; returns what stops it (sending what is left). */
function reportEvery(reporter: Reporter): () => void {
  const timer = setInterval(() => void reporter.flush(), PLAYER_REPORT_INTERVAL_MS);
  const onHide = () => {
    if (document.visibilityState === 'hidden') void reporter.flush(true);
  };
  const onPageHide = () => void reporter.flush(true);
  document.addEventListener('visibilitychange', onHide);
  window.addEventListener('pagehide', onPageHide);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onHide);
    window.removeEventListener('pagehide', onPageHide);
    void reporter.flush(true);
  };
}

/**
 * The common path of every player: the key's settings, the counts and their reports, the guard of
 * peers' segments, the engine's config and events; the player's own part is its kind's integration
 * (integrations/), which makes the engine and binds the player.
 */
export async function attach(options: AttachOptions): Promise<Handle> {
  const kind = PLAYER_INTEGRATION[options.player];
  if (!kind) throw new TypeError(`TlprtP2P.attach: unknown player "${String(options.player)}"`);
  const integration = INTEGRATIONS[kind];
  if (typeof options.key !== 'string' || options.key === '')
    throw new TypeError('TlprtP2P.attach: "key" is needed');
  const server = (options.server ?? loadedFrom ?? location.origin).replace(/\/+$/, '');
  const settings = await fetchSettings(server, options.key);
  const peering = settings !== null && integration.peers && opensPeering(settings.peeringQuota);

  const tally = new Tally();
  const sessionId = newSessionId();
  // Measured only where it is reported: a key that is not usable reports nothing.
  const experience = settings ? new Experience(isMediaLike(options.video) ? options.video : null) : null;
  const reporter = settings && experience ? newReporter(server, options, sessionId, experience, tally) : null;
  tally.reporter = reporter;
  const cdnDownloaded = (bytes: number) => tally.cdn(bytes);

  // One engine per attach; the guard reaches it once it exists (its validators go into its config).
  let engine: P2PEngine | undefined;
  // The wait for peers of the first segments (12, at most 2 s) holds the segments ahead of the first
  // download only, never the one the player needs to start (opening.ts); none without peering.
  const openingMs = settings && peering ? openingWaitMs(settings) : 0;
  const opening = new OpeningWait(() => engine, openingMs);
  // A stream's hashes are asked of its swarm's node, with the name its reports give it.
  const streamUrl = absoluteUrl(options.src);
  // The swarm's tracker moves to the next node when its node dies, and back (tracker-failover.ts); its
  // hashes are asked where it is.
  const failover =
    settings && streamUrl && peering
      ? new TrackerFailover(failoverPlanFor(server, settings, options.key, streamUrl))
      : undefined;
  const firstNode = settings && streamUrl ? swarmNodeFor(server, settings, options.key, streamUrl) : server;
  const references = new IntegrityReferences({
    get server() {
      return failover?.node() ?? firstNode;
    },
    key: options.key,
    stream: streamName(options.src, location.href),
  });
  const ownNetwork = new OwnNetworkFirst(settings?.networkTag, settings?.ownNetworkFirst ?? 0, () => engine);
  const guard = segmentGuard(references, { tally, ownNetwork, opening }, () => engine);
  const core = (src: string) =>
    settings ? engineCore(settings, { server, key: options.key, src, peering, openingMs }, guard) : undefined;
  const cleanups: Array<() => void> = [];
  const listen = (e: P2PEngine) => {
    engine = e;
    if (failover) cleanups.push(followTrackers(e, failover));
    countEvents(e, { tally, guard, opening, ownNetwork });
  };

  const wiring = integration.attach({
    options,
    core,
    listen,
    watchPlaylist: playlistWatcher(settings, () => engine),
    experience,
    reporter,
    cdnDownloaded,
    cleanups,
  });
  // Only Shaka's is a promise (it waits for the load); the others go on at once.
  const { hls, hlsConfig = {}, bindHls } = wiring instanceof Promise ? await wiring : wiring;

  cleanups.push(() => opening.stop());
  if (experience) cleanups.push(() => experience.destroy());
  if (reporter) cleanups.push(reportEvery(reporter));

  let detached = false;
  return {
    active: settings !== null,
    peering,
    sessionId,
    hls,
    hlsConfig,
    bindHls(h: unknown) {
      bindHls?.(h);
    },
    addCdnBytes(bytes: number) {
      if (Number.isSafeInteger(bytes) && bytes > 0) cdnDownloaded(bytes);
    },
    counters: () => tally.snapshot(),
    onUpdate: (listener) => tally.onUpdate(listener),
    detach() {
      if (detached) return;
      detached = true;
      tally.stopUpdates();
      for (const c of cleanups.reverse()) c();
    },
  };
}
