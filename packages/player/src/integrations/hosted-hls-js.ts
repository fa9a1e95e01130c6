import { HlsJsP2PEngine } from 'p2p-media-loader-hlsjs';
import { followFlowplayer, isFlowplayer } from '../flowplayer.js';
import { hlsConfigFor } from '../hls.js';
import { hlsFollower } from './follow-hls.js';
import { type Integration, requireSrc } from './integration.js';

/**
 * Players built on hls.js that make their own: the plugin hands out an hls.js config with its P2P
 * loaders and binds the engine to their hls.js once the page hands it over (`bindHls`). Flowplayer's
 * HLS plugin overwrites those loaders: the plugin follows the hls.js it makes for each source instead
 * (flowplayer.ts). Nothing without a usable key.
 */
export const hostedHlsJsIntegration: Integration = {
  peers: true,
  attach({ options, core, listen, watchPlaylist, experience, cleanups }) {
    const coreConfig = core(requireSrc(options));
    if (!coreConfig) return {};
    const followHls = hlsFollower(experience, cleanups);
    // Players built on hls.js may hand over a function returning theirs, which exists only once it
    // loads: asked again whenever an hls.js makes a playlist loader (before it loads, so before play is
    // asked).
    let hostedHls: unknown;
    const followHostedHls = () => {
      try {
        followHls(typeof hostedHls === 'function' ? hostedHls() : hostedHls);
      } catch {
        // The player's getter failed: it runs inside hls.js's loading, which must go on regardless.
      }
    };
    const engine = new HlsJsP2PEngine({ core: coreConfig });
    listen(engine);
    const hlsConfig = hlsConfigFor(engine, watchPlaylist, followHostedHls);
    cleanups.push(() => engine.destroy());
    return {
      hlsConfig,
      bindHls(h) {
        if (options.player === 'flowplayer' && isFlowplayer(h))
          cleanups.push(followFlowplayer(h, engine, hlsConfig, followHls));
        else {
          engine.bindHls(h as never);
          hostedHls = h;
          followHostedHls();
        }
      },
    };
  },
};
