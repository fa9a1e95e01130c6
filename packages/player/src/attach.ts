import {
  isPlayerSettingsBody,
  PLAYER_INTEGRATION,
  PLAYER_PATHS,
  PLAYER_REPORT_INTERVAL_MS,
  type TPlayerName,
} from '@tlprt/contract';
import { HlsJsP2PEngine } from 'p2p-media-loader-hlsjs';
import { ShakaP2PEngine } from 'p2p-media-loader-shaka';
import { countResourceBytes } from './cdn-only.js';
import { hlsConfigFor } from './hls.js';
import { newSessionId, Reporter } from './reporter.js';
import {
  type CoreSettings,
  coreSettings,
  opensPeering,
  type PlayerSettings,
  readSettings,
} from './settings.js';

export interface AttachOptions {
  /** The key hash of the Add domain / My domains screens. */
  key: string;
  player: TPlayerName;
  /** hls.js: the Hls class; shaka: the shaka.Player; clappr, flowplayer: their player (see `bindHls`). */
  instance?: unknown;
  /** The stream's URL (players with P2P: the swarm is the key and this stream). */
  src?: string;
  /** hls.js: the element the stream plays in. */
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
  p2pBytes: number;
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
  /** Players built on hls.js: their hls.js instance (or a function returning it) once it exists. */
  bindHls(hls: unknown): void;
  /** Bytes not seen by the plugin (a player without integration): counted as CDN bytes. */
  addCdnBytes(bytes: number): void;
  counters(): Counters;
  onUpdate(listener: (c: Counters) => void): () => void;
  /** Sends what is left, stops reporting and sharing; hls.js: destroys the player it made. */
  detach(): void;
}

type HlsClass = new (
  config?: Record<string, unknown>,
) => {
  loadSource(src: string): void;
  attachMedia(media: HTMLMediaElement): void;
  destroy(): void;
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
    return readSettings(body.data.settings, body.data.iceServers);
  } catch {
    // Our server unreachable or answering nonsense: play from the CDN, like a key that is not usable.
    return null;
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

  const counters: Counters = { cdnBytes: 0, p2pBytes: 0, uploadedBytes: 0, peers: 0 };
  const listeners = new Set<(c: Counters) => void>();
  const peers = new Set<string>();
  const changed = () => {
    counters.peers = peers.size;
    for (const l of listeners) l({ ...counters });
  };
  const sessionId = newSessionId();
  const reporter = settings
    ? new Reporter(options.key, sessionId, (body, keepalive) =>
        fetch(server + PLAYER_PATHS.ingest, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
          keepalive,
          credentials: 'omit',
        }).then((r) => r.ok),
      )
    : null;
  const downloaded = (bytes: number, source: 'http' | 'p2p') => {
    if (source === 'p2p') counters.p2pBytes += bytes;
    else counters.cdnBytes += bytes;
    reporter?.add(source === 'http' ? bytes : 0, source === 'p2p' ? bytes : 0);
    changed();
  };

  const core = (src: string): Partial<CoreSettings> | undefined =>
    settings
      ? coreSettings(
          settings,
          {
            trackerUrl: server.replace(/^http/, 'ws') + PLAYER_PATHS.tracker,
            key: options.key,
            streamUrl: new URL(src, location.href).href,
          },
          peering,
        )
      : undefined;
  type Engine = Pick<HlsJsP2PEngine, 'addEventListener'>;
  const listen = (engine: Engine) => {
    engine.addEventListener('onChunkDownloaded', (bytes, source) => downloaded(bytes, source));
    engine.addEventListener('onChunkUploaded', (bytes) => {
      counters.uploadedBytes += bytes;
      changed();
    });
    engine.addEventListener('onPeerConnect', ({ peerId }) => {
      peers.add(peerId);
      changed();
    });
    engine.addEventListener('onPeerClose', ({ peerId }) => {
      peers.delete(peerId);
      changed();
    });
  };

  const cleanups: Array<() => void> = [];
  let hls: unknown;
  let hlsConfig: Record<string, unknown> = {};
  let hostedEngine: HlsJsP2PEngine | undefined;

  if (options.player === 'hls.js') {
    const Hls = options.instance as HlsClass;
    if (typeof Hls !== 'function')
      throw new TypeError('TlprtP2P.attach: "instance" must be the Hls class for hls.js');
    const src = requireSrc(options);
    const coreConfig = core(src);
    let player: InstanceType<HlsClass>;
    if (coreConfig) {
      const engine = new HlsJsP2PEngine({ core: coreConfig });
      listen(engine);
      player = new Hls({ ...options.hlsConfig, ...hlsConfigFor(engine) });
      engine.bindHls(player);
      cleanups.push(() => engine.destroy());
    } else {
      player = new Hls({ ...options.hlsConfig });
    }
    hls = player;
    if (options.video) {
      player.loadSource(src);
      player.attachMedia(options.video);
    }
    cleanups.push(() => player.destroy());
  } else if (options.player === 'shaka') {
    const shaka = (options.shaka ?? (globalThis as { shaka?: unknown }).shaka) as never;
    const player = options.instance as { load(src: string): Promise<void> };
    if (!shaka || !player || typeof player.load !== 'function')
      throw new TypeError('TlprtP2P.attach: "instance" must be a shaka.Player (and shaka loaded)');
    const src = requireSrc(options);
    const coreConfig = core(src);
    if (coreConfig) {
      ShakaP2PEngine.registerPlugins(shaka);
      const engine = new ShakaP2PEngine({ core: coreConfig }, shaka);
      listen(engine as unknown as Engine);
      engine.bindShakaPlayer(player as never);
      cleanups.push(() => engine.destroy());
    }
    await player.load(src);
  } else if (integration === 'hosted-hlsjs') {
    const coreConfig = core(requireSrc(options));
    if (coreConfig) {
      hostedEngine = new HlsJsP2PEngine({ core: coreConfig });
      listen(hostedEngine);
      hlsConfig = hlsConfigFor(hostedEngine);
      const engine = hostedEngine;
      cleanups.push(() => engine.destroy());
    }
  } else if (reporter) {
    cleanups.push(countResourceBytes((bytes) => downloaded(bytes, 'http')));
  }

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
      hostedEngine?.bindHls(h);
    },
    addCdnBytes(bytes: number) {
      if (Number.isSafeInteger(bytes) && bytes > 0) downloaded(bytes, 'http');
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
