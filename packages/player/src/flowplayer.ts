import type { HlsJsP2PEngine } from 'p2p-media-loader-hlsjs';

/** What the plugin uses of a Flowplayer player (its HLS plugin emits `hls:attached` with its hls.js). */
export interface FlowplayerLike {
  hls?: unknown;
  on(event: string, handler: (e: { detail?: { hls?: unknown } }) => void): unknown;
  off?(event: string, handler: (e: { detail?: { hls?: unknown } }) => void): unknown;
}

interface HlsLike {
  config: { fLoader?: unknown; pLoader?: unknown };
  url: string | null;
  loadSource(src: string): void;
}

export function isFlowplayer(value: unknown): value is FlowplayerLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { on?: unknown }).on === 'function' &&
    typeof (value as { loadSource?: unknown }).loadSource !== 'function'
  );
}

function isHls(value: unknown): value is HlsLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { loadSource?: unknown }).loadSource === 'function' &&
    typeof (value as { config?: unknown }).config === 'object'
  );
}

/**
 * Flowplayer's HLS plugin makes an hls.js for each source and writes its own loaders (failover and
 * CMCD) over the `fLoader` and `pLoader` of the options it was given, so the P2P loaders never reach it:
 * nothing went through the engine and nothing was counted. The plugin puts its loaders into that
 * hls.js (hls.js reads them from its config at every load) and loads the source again through them, so
 * the engine learns the playlist. Flowplayer emits `hls:attached` right after it starts the manifest
 * load and before any segment load (its hls.js waits for play), so no segment escapes the engine.
 * `onHls` hears of each hls.js it makes (the plugin follows the element it plays in).
 */
export function followFlowplayer(
  player: FlowplayerLike,
  engine: HlsJsP2PEngine,
  loaders: Record<string, unknown>,
  onHls: (hls: unknown) => void = () => {},
): () => void {
  const adopt = (hls: unknown) => {
    if (!isHls(hls)) return;
    onHls(hls);
    if (hls.config.fLoader === loaders.fLoader) return;
    engine.bindHls(hls as never);
    hls.config.fLoader = loaders.fLoader;
    hls.config.pLoader = loaders.pLoader;
    if (hls.url) hls.loadSource(hls.url);
  };
  const attached = (e: { detail?: { hls?: unknown } }) => adopt(e.detail?.hls);
  adopt(player.hls);
  player.on('hls:attached', attached);
  return () => player.off?.('hls:attached', attached);
}
