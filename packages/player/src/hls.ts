import type { HlsJsP2PEngine } from 'p2p-media-loader-hlsjs';
import type { HlsLiveConfig } from './live.js';

type LoaderCallbacks = { onSuccess: (response: { data: unknown }, ...rest: unknown[]) => void };
type LoaderClass = new (
  config: HlsLiveConfig,
) => { load(context: unknown, config: unknown, callbacks: LoaderCallbacks): void };

/**
 * hls.js settings that route its segment and playlist loads through the P2P engine. The engine hands
 * hls.js the very ArrayBuffer it keeps for other peers; hls.js transfers it to its demuxing worker,
 * which detaches it, and what peers then receive is empty ("Found no media", a fatal "already detached"
 * on retries: seen in the two-player test). So hls.js gets a copy. Every playlist hls.js loads is shown
 * to `onPlaylist` on its way, with the settings of the hls.js loading it, before hls.js reads it (a live
 * one sets the engine's windows and the player's lag: live.ts). `onLoader` hears of each playlist
 * loader hls.js makes: the first moment a player's own hls.js is sure to exist (the engine binds to it
 * then too).
 */
export function hlsConfigFor(
  engine: HlsJsP2PEngine,
  onPlaylist: (text: string, hlsConfig: HlsLiveConfig) => void = () => {},
  onLoader: () => void = () => {},
): Record<string, unknown> {
  const { fLoader, pLoader } = engine.getConfigForHlsJs() as { fLoader: LoaderClass; pLoader: LoaderClass };
  class CopyingFragmentLoader extends fLoader {
    override load(context: unknown, config: unknown, callbacks: LoaderCallbacks): void {
      super.load(context, config, {
        ...callbacks,
        onSuccess: (response, ...rest) => {
          const data = response.data instanceof ArrayBuffer ? response.data.slice(0) : response.data;
          callbacks.onSuccess({ ...response, data }, ...rest);
        },
      });
    }
  }
  class WatchingPlaylistLoader extends pLoader {
    private readonly hlsConfig: HlsLiveConfig;
    constructor(config: HlsLiveConfig) {
      super(config);
      this.hlsConfig = config;
      onLoader();
    }
    override load(context: unknown, config: unknown, callbacks: LoaderCallbacks): void {
      super.load(context, config, {
        ...callbacks,
        onSuccess: (response, ...rest) => {
          if (typeof response.data === 'string') onPlaylist(response.data, this.hlsConfig);
          callbacks.onSuccess(response, ...rest);
        },
      });
    }
  }
  return { fLoader: CopyingFragmentLoader, pLoader: WatchingPlaylistLoader };
}
