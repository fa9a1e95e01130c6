import type { HlsJsP2PEngine } from 'p2p-media-loader-hlsjs';

type LoaderCallbacks = { onSuccess: (response: { data: unknown }, ...rest: unknown[]) => void };
type LoaderClass = new (
  config: unknown,
) => { load(context: unknown, config: unknown, callbacks: LoaderCallbacks): void };

/**
 * hls.js settings that route its segment and playlist loads through the P2P engine. The engine hands
 * hls.js the very ArrayBuffer it keeps for other peers; hls.js transfers it to its demuxing worker,
 * which detaches it, and what peers then receive is empty ("Found no media", a fatal "already detached"
 * on retries: seen in the two-player test). So hls.js gets a copy.
 */
export function hlsConfigFor(engine: HlsJsP2PEngine): Record<string, unknown> {
  const { fLoader, pLoader } = engine.getConfigForHlsJs() as { fLoader: LoaderClass; pLoader: unknown };
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
  return { fLoader: CopyingFragmentLoader, pLoader };
}
