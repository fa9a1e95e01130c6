import type { HlsJsP2PEngine } from 'p2p-media-loader-hlsjs';
import { describe, expect, it, vi } from 'vitest';
import { followFlowplayer, isFlowplayer } from '../src/flowplayer.js';

const loaders = { fLoader: class P2PFragments {}, pLoader: class P2PPlaylists {} };

/** An hls.js as Flowplayer's HLS plugin makes it: its own loaders, the source already loading. */
function flowplayerHls(url: string) {
  return {
    config: { fLoader: class Failover {}, pLoader: class Failover {} } as Record<string, unknown>,
    url,
    loadSource: vi.fn(),
  };
}

function fakePlayer(hls?: unknown) {
  const handlers = new Map<string, (e: { detail?: { hls?: unknown } }) => void>();
  return {
    hls,
    handlers,
    on: (event: string, h: (e: { detail?: { hls?: unknown } }) => void) => handlers.set(event, h),
    off: (event: string) => handlers.delete(event),
  };
}

describe("Flowplayer's hls.js", () => {
  it('gets the P2P loaders back and loads its source again through them, once per hls.js', () => {
    const engine = { bindHls: vi.fn() };
    const player = fakePlayer();
    const stop = followFlowplayer(player, engine as unknown as HlsJsP2PEngine, loaders);

    const first = flowplayerHls('https://cdn.example/a.m3u8');
    player.handlers.get('hls:attached')?.({ detail: { hls: first } });
    expect(first.config.fLoader).toBe(loaders.fLoader);
    expect(first.config.pLoader).toBe(loaders.pLoader);
    expect(first.loadSource).toHaveBeenCalledExactlyOnceWith('https://cdn.example/a.m3u8');
    expect(engine.bindHls).toHaveBeenCalledWith(first);

    // The same hls.js again (a second event) is left alone; the next source's hls.js is taken over.
    player.handlers.get('hls:attached')?.({ detail: { hls: first } });
    expect(first.loadSource).toHaveBeenCalledTimes(1);
    const second = flowplayerHls('https://cdn.example/b.m3u8');
    player.handlers.get('hls:attached')?.({ detail: { hls: second } });
    expect(second.loadSource).toHaveBeenCalledExactlyOnceWith('https://cdn.example/b.m3u8');

    stop();
    expect(player.handlers.has('hls:attached')).toBe(false);
  });

  it('takes over an hls.js Flowplayer made before it was bound', () => {
    const hls = flowplayerHls('https://cdn.example/a.m3u8');
    const seen = vi.fn();
    followFlowplayer(fakePlayer(hls), { bindHls: vi.fn() } as unknown as HlsJsP2PEngine, loaders, seen);
    expect(hls.config.fLoader).toBe(loaders.fLoader);
    expect(hls.loadSource).toHaveBeenCalledTimes(1);
    // Each hls.js is handed on (the plugin follows the element it plays in).
    expect(seen).toHaveBeenCalledExactlyOnceWith(hls);
  });

  it('tells a Flowplayer player from an hls.js or a function returning one', () => {
    expect(isFlowplayer(fakePlayer())).toBe(true);
    expect(isFlowplayer(flowplayerHls('x'))).toBe(false);
    expect(isFlowplayer(() => undefined)).toBe(false);
  });
});
