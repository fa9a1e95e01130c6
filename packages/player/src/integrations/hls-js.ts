import { HlsJsP2PEngine } from 'p2p-media-loader-hlsjs';
import { hlsConfigFor } from '../hls.js';
import { hlsFollower } from './follow-hls.js';
import { type Integration, requireSrc } from './integration.js';

type HlsClass = new (
  config?: Record<string, unknown>,
) => {
  loadSource(src: string): void;
  attachMedia(media: HTMLMediaElement): void;
  destroy(): void;
};

/** hls.js: the plugin makes the player from the page's Hls class, with P2P (when the key is usable), and
 *  plays `src` in `video` when both are given. */
export const hlsJsIntegration: Integration = {
  peers: true,
  attach({ options, core, listen, watchPlaylist, experience, cleanups }) {
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
      hlsFollower(experience, cleanups)(player);
      hlsEngine.bindHls(player);
      cleanups.push(() => hlsEngine.destroy());
    } else {
      player = new Hls({ ...options.hlsConfig });
    }
    if (options.video) {
      player.loadSource(src);
      player.attachMedia(options.video);
    }
    cleanups.push(() => player.destroy());
    return { hls: player };
  },
};
