import { ShakaP2PEngine } from 'p2p-media-loader-shaka';
import { isMediaLike } from '../experience.js';
import { fillShakaSegmentIndexes } from '../shaka-index.js';
import { countOutsideEngine } from '../shaka-outside.js';
import { type Integration, requireSrc } from './integration.js';

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

type ShakaPlayer = {
  load(src: string): Promise<void>;
  getMediaElement?: () => unknown;
  addEventListener?: (type: string, listener: (e: { detail?: unknown }) => void) => void;
  removeEventListener?: (type: string, listener: (e: { detail?: unknown }) => void) => void;
};

/** Shaka: the plugin binds the P2P engine to the page's shaka.Player (when the key is usable), counts
 *  the segments Shaka loads outside it, and loads `src`: attach resolves once the load has. */
export const shakaIntegration: Integration = {
  peers: true,
  async attach({ options, core, listen, experience, reporter, cdnDownloaded, cleanups }) {
    const shaka = (options.shaka ?? (globalThis as { shaka?: unknown }).shaka) as never;
    const player = options.instance as ShakaPlayer;
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
    return {};
  },
};
