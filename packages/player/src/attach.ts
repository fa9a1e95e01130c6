import {
  isPlayerSettingsBody,
  PLAYER_INTEGRATION,
  PLAYER_PATHS,
  PLAYER_REPORT_INTERVAL_MS,
  type TPlayerName,
} from '@tlprt/contract';
import { HlsJsP2PEngine } from 'p2p-media-loader-hlsjs';
import { ShakaP2PEngine } from 'p2p-media-loader-shaka';
import { keepByteRangeLengths } from './byte-range-fix.js';
import { countResourceBytes } from './cdn-only.js';
import { Experience, isMediaLike } from './experience.js';
import { followFlowplayer, isFlowplayer } from './flowplayer.js';
import { hlsConfigFor } from './hls.js';
import { IntegrityReferences, SegmentGuard } from './integrity.js';
import { type HlsLiveConfig, liveWindows, readLivePlaylist, startLiveLag } from './live.js';
import { OpeningWait, openingCore } from './opening.js';
import { OwnNetworkFirst } from './own-network.js';
import { dropPeer } from './peer-drop.js';
import { NO_VERDICT, newSessionId, Reporter, streamName } from './reporter.js';
import {
  coreSettings,
  failoverPlanFor,
  openingWaitMs,
  opensPeering,
  type PlayerSettings,
  readSettings,
  swarmNodeFor,
  trackerUrlFor,
} from './settings.js';
import { fillShakaSegmentIndexes } from './shaka-index.js';
import { countOutsideEngine } from './shaka-outside.js';
import { followTrackers, TrackerFailover } from './tracker-failover.js';

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

export interface Counters {
  cdnBytes: number;
  /** Bytes from peers that matched the origin's hash (only those reach the player). */
  p2pBytes: number;
  /** Of p2pBytes, those from peers not known to be of this viewer's network. */
  p2pCrossBytes: number;
  /** Bytes from peers that did not match the origin's hash: thrown away, fetched again. */
  rejectedBytes: number;
  /** Segments from peers the server could not vouch for: thrown away, fetched from the CDN. */
  unverifiableSegments: number;
  uploadedBytes: number;
  peers: number;
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

/** What the plugin uses of either engine (hls.js's and Shaka's have the same events and config calls). */
type P2PEngine = Pick<HlsJsP2PEngine, 'addEventListener' | 'applyDynamicConfig'>;

type HlsClass = new (
  config?: Record<string, unknown>,
) => {
  loadSource(src: string): void;
  attachMedia(media: HTMLMediaElement): void;
  destroy(): void;
};

type HlsListener = (event: string, data: { media?: unknown; fatal?: boolean } | undefined) => void;
/** What the plugin follows of an hls.js instance for the viewer's experience. */
interface HlsEvents {
  media?: unknown;
  on(event: string, listener: HlsListener): void;
  off?(event: string, listener: HlsListener): void;
}
const hasHlsEvents = (h: unknown): h is HlsEvents =>
  typeof h === 'object' && h !== null && typeof (h as { on?: unknown }).on === 'function';

/** shaka.util.Error: CRITICAL ends playback; LOAD_INTERRUPTED and OPERATION_ABORTED are the player's own
 *  doing (another load, a destroy), no failure the viewer saw. */
const SHAKA_CRITICAL = 2;
const SHAKA_NOT_FAILURES = new Set([7000, 7001]);
const isShakaFailure = (e: unknown): boolean => {
  const err = e as { severity?: unknown; code?: unknown } | null;
  return (
    typeof err === 'object' &&
    err !== null &&
    err.severity === SHAKA_CRITICAL &&
    !SHAKA_NOT_FAILURES.has(err.code as number)
  );
};

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

function requireSrc(o: AttachOptions): string {
  if (!o.src) throw new TypeError(`TlprtP2P.attach: "src" (the stream's URL) is needed for ${o.player}`);
  return o.src;
}

export async function attach(options: AttachOptions): Promise<Handle> {
  const integration = PLAYER_INTEGRATION[options.player];
  if (!integration) throw new TypeError(`TlprtP2P.attach: unknown player "${String(options.player)}"`);
  if (typeof options.key !== 'string' || options.key === '')
    throw new TypeError('TlprtP2P.attach: "key" is needed');
  const server = (options.server ?? loadedFrom ?? location.origin).replace(/\/+$/, '');
  const settings = await fetchSettings(server, options.key);
  const peering = settings !== null && integration !== 'cdn-only' && opensPeering(settings.peeringQuota);

  const counters: Counters = {
    cdnBytes: 0,
    p2pBytes: 0,
    p2pCrossBytes: 0,
    rejectedBytes: 0,
    unverifiableSegments: 0,
    uploadedBytes: 0,
    peers: 0,
  };
  const listeners = new Set<(c: Counters) => void>();
  // Connections per peer: the library connects to a peer once per stream it shares (video, audio).
  const peers = new Map<string, number>();
  const changed = () => {
    counters.peers = peers.size;
    for (const l of listeners) l({ ...counters });
  };
  const sessionId = newSessionId();
  // Measured only where it is reported: a key that is not usable reports nothing.
  const experience = settings ? new Experience(isMediaLike(options.video) ? options.video : null) : null;
  const reporter =
    settings && experience
      ? new Reporter(
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
            peers: () => peers.size,
            stream: streamName(options.src, location.href),
          },
        )
      : null;
  const cdnDownloaded = (bytes: number) => {
    counters.cdnBytes += bytes;
    reporter?.add(bytes, 0, 0);
    changed();
  };

  // One engine per attach; the guard reaches it once it exists (its validators go into its config).
  let engine: P2PEngine | undefined;
  let p2pOff = false;
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
  const guard = new SegmentGuard(references, {
    accepted(bytes, crossBytes) {
      counters.p2pBytes += bytes;
      counters.p2pCrossBytes += crossBytes;
      reporter?.add(0, bytes, 0, crossBytes);
      changed();
    },
    otherNetwork: (peerId) => ownNetwork.isCross(peerId),
    rejected(bytes) {
      counters.rejectedBytes += bytes;
      reporter?.add(0, 0, bytes);
      changed();
    },
    unverifiable() {
      counters.unverifiableSegments += 1;
      changed();
    },
    streamRefused() {
      // Nothing of this stream can be verified: peers would only cost the viewer time.
      if (p2pOff || !engine) return;
      p2pOff = true;
      opening.stop();
      engine.applyDynamicConfig({ core: { isP2PDisabled: true, isP2PUploadDisabled: true } });
    },
    dropPeer(peerId) {
      // The library announces a peer from inside its constructor, before it can be found: drop it next.
      setTimeout(() => {
        if (engine) dropPeer(engine, peerId);
      }, 0);
    },
  });

  const core = (src: string) => {
    if (!settings) return undefined;
    const streamUrl = new URL(src, location.href).href;
    return {
      ...coreSettings(
        settings,
        {
          // The tracker keeps each key's swarms apart: it must know the key of the connection.
          trackerUrl: trackerUrlFor(server, settings, options.key, streamUrl),
          key: options.key,
          streamUrl,
        },
        peering,
      ),
      validateP2PSegment: guard.validateP2P,
      validateHTTPSegment: guard.validateHttp,
      // The wait is applied per stream once its first download has begun (opening.ts).
      ...openingCore(openingMs),
    };
  };
  // A live stream's windows and lag come from the stream itself, at its first playlist (live.ts).
  let liveSeen = false;
  const watchPlaylist = (text: string, hlsConfig: HlsLiveConfig) => {
    if (liveSeen || !settings || !engine) return;
    const live = readLivePlaylist(text);
    if (!live) return;
    liveSeen = true;
    const windows = liveWindows(settings, live);
    if (!windows) return;
    engine.applyDynamicConfig({ core: windows });
    startLiveLag(hlsConfig, live);
  };

  const listen = (e: P2PEngine) => {
    engine = e;
    if (failover) cleanups.push(followTrackers(e, failover));
    e.addEventListener('onChunkDownloaded', (bytes, source, peerId) => {
      if (source === 'http') cdnDownloaded(bytes);
      else guard.chunk(bytes, source, peerId);
    });
    let rangesKept = false;
    e.addEventListener('onSegmentStart', ({ segment, downloadSource, peerId }) => {
      // The first download is the first moment a request of the library exists to reach its class.
      if (!rangesKept && segment.byteRange) rangesKept = keepByteRangeLengths(e);
      opening.segmentStarted(segment.runtimeId);
      guard.segmentStarted(segment.url, segment.byteRange, downloadSource, peerId);
    });
    e.addEventListener('onSegmentError', ({ segment, error, peerId }) =>
      guard.segmentFailed(segment.url, segment.byteRange, error.type, peerId),
    );
    e.addEventListener('onChunkUploaded', (bytes) => {
      counters.uploadedBytes += bytes;
      changed();
    });
    e.addEventListener('onPeerConnect', ({ peerId }) => {
      peers.set(peerId, (peers.get(peerId) ?? 0) + 1);
      guard.peerConnected(peerId);
      ownNetwork.connected(peerId);
      changed();
    });
    e.addEventListener('onPeerClose', ({ peerId }) => {
      const left = (peers.get(peerId) ?? 0) - 1;
      if (left > 0) peers.set(peerId, left);
      else peers.delete(peerId);
      guard.peerClosed(peerId);
      ownNetwork.closed(peerId);
      changed();
    });
  };

  const cleanups: Array<() => void> = [];
  // Each hls.js once: the element it plays in (now and whenever it attaches another) and its fatal errors.
  const followed = new WeakSet<object>();
  const followHls = (h: unknown) => {
    if (!experience || !hasHlsEvents(h) || followed.has(h)) return;
    followed.add(h);
    if (isMediaLike(h.media)) experience.observe(h.media);
    const attaching: HlsListener = (_event, data) => {
      if (isMediaLike(data?.media)) experience.observe(data.media);
    };
    const error: HlsListener = (_event, data) => {
      if (data?.fatal) experience.failure();
    };
    h.on('hlsMediaAttaching', attaching);
    h.on('hlsError', error);
    cleanups.push(() => {
      h.off?.('hlsMediaAttaching', attaching);
      h.off?.('hlsError', error);
    });
  };
  // Players built on hls.js may hand over a function returning theirs, which exists only once it loads:
  // asked again whenever an hls.js makes a playlist loader (before it loads, so before play is asked).
  let hostedHls: unknown;
  const followHostedHls = () => {
    try {
      followHls(typeof hostedHls === 'function' ? hostedHls() : hostedHls);
    } catch {
      // The player's getter failed: it runs inside hls.js's loading, which must go on regardless.
    }
  };
  let hls: unknown;
  let hlsConfig: Record<string, unknown> = {};
  let hostedEngine: HlsJsP2PEngine | undefined;

  if (integration === 'hls.js') {
    const Hls = options.instance as HlsClass;
    if (typeof Hls !== 'function')
      throw new TypeError('TlprtP2P.attach: "instance" must be the Hls class for hls.js');
    const src = requireSrc(options);
    const coreConfig = core(src);
    let player: InstanceType<HlsClass>;
    if (coreConfig) {
      const hlsEngine = new HlsJsP2PEngine({ core: coreConfig });
      listen(hlsEngine);
      player = new Hls({ ...options.hlsConfig, ...hlsConfigFor(hlsEngine, watchPlaylist) });
      followHls(player);
      hlsEngine.bindHls(player);
      cleanups.push(() => hlsEngine.destroy());
    } else {
      player = new Hls({ ...options.hlsConfig });
    }
    hls = player;
    if (options.video) {
      player.loadSource(src);
      player.attachMedia(options.video);
    }
    cleanups.push(() => player.destroy());
  } else if (integration === 'shaka') {
    const shaka = (options.shaka ?? (globalThis as { shaka?: unknown }).shaka) as never;
    const player = options.instance as {
      load(src: string): Promise<void>;
      getMediaElement?: () => unknown;
      addEventListener?: (type: string, listener: (e: { detail?: unknown }) => void) => void;
      removeEventListener?: (type: string, listener: (e: { detail?: unknown }) => void) => void;
    };
    if (!shaka || !player || typeof player.load !== 'function')
      throw new TypeError('TlprtP2P.attach: "instance" must be a shaka.Player (and shaka loaded)');
    const src = requireSrc(options);
    const coreConfig = core(src);
    if (coreConfig) {
      ShakaP2PEngine.registerPlugins(shaka);
      const shakaEngine = new ShakaP2PEngine({ core: coreConfig }, shaka);
      listen(shakaEngine);
      shakaEngine.bindShakaPlayer(player as never);
      cleanups.push(() => shakaEngine.destroy());
    }
    if (reporter) cleanups.push(countOutsideEngine(shaka, cdnDownloaded));
    if (experience) {
      const media = player.getMediaElement?.();
      if (isMediaLike(media)) experience.observe(media);
      const error = (e: { detail?: unknown }) => {
        if (isShakaFailure(e.detail)) experience.failure();
      };
      player.addEventListener?.('error', error);
      cleanups.push(() => player.removeEventListener?.('error', error));
    }
    try {
      await player.load(src);
    } catch (e) {
      // Shaka rejects the load without an error event: the viewer saw it fail all the same, and the
      // caller, without a handle, cannot detach: the failure goes out now.
      if (isShakaFailure(e)) experience?.failure();
      void reporter?.flush();
      throw e;
    }
    if (coreConfig) cleanups.push(fillShakaSegmentIndexes(player));
  } else if (integration === 'hosted-hls.js') {
    const coreConfig = core(requireSrc(options));
    if (coreConfig) {
      hostedEngine = new HlsJsP2PEngine({ core: coreConfig });
      listen(hostedEngine);
      hlsConfig = hlsConfigFor(hostedEngine, watchPlaylist, followHostedHls);
      const hosted = hostedEngine;
      cleanups.push(() => hosted.destroy());
    }
  } else if (reporter) {
    cleanups.push(countResourceBytes(cdnDownloaded));
  }

  cleanups.push(() => opening.stop());
  if (experience) cleanups.push(() => experience.destroy());
  if (reporter) {
    const timer = setInterval(() => void reporter.flush(), PLAYER_REPORT_INTERVAL_MS);
    const onHide = () => {
      if (document.visibilityState === 'hidden') void reporter.flush(true);
    };
    const onPageHide = () => void reporter.flush(true);
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', onPageHide);
    cleanups.push(() => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', onPageHide);
      void reporter.flush(true);
    });
  }

  let detached = false;
  return {
    active: settings !== null,
    peering,
    sessionId,
    hls,
    hlsConfig,
    bindHls(h: unknown) {
      if (!hostedEngine) return;
      if (options.player === 'flowplayer' && isFlowplayer(h))
        cleanups.push(followFlowplayer(h, hostedEngine, hlsConfig, followHls));
      else {
        hostedEngine.bindHls(h);
        hostedHls = h;
        followHostedHls();
      }
    },
    addCdnBytes(bytes: number) {
      if (Number.isSafeInteger(bytes) && bytes > 0) cdnDownloaded(bytes);
    },
    counters: () => ({ ...counters }),
    onUpdate(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    detach() {
      if (detached) return;
      detached = true;
      listeners.clear();
      for (const c of cleanups.reverse()) c();
    },
  };
}
