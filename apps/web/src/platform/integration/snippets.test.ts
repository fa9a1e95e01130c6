import {
  KEY_PLACEHOLDER,
  PLAYER_INTEGRATION,
  PLAYER_PATHS,
  PLAYER_TABLE,
  PLAYERS,
  STREAM_PLACEHOLDER,
  type TPlayer,
  UPPOD_BUNDLE,
} from '@tlprt/contract';
import { describe, expect, it, vi } from 'vitest';
import { pluginUrl } from '../config';
import { playerSnippet } from './snippets';

const PLAYER_BUNDLES = Object.fromEntries(PLAYERS.map((p) => [p, PLAYER_TABLE[p].snippet])) as {
  [P in TPlayer]: (typeof PLAYER_TABLE)[P]['snippet'];
};
const isCdnOnly = (p: TPlayer) => PLAYER_TABLE[p].kind === 'cdn-only';

const KEY = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCd';
const PLUGIN = `https://dashboard.example${PLAYER_PATHS.bundle}`;

/** The `src` of every external script, in page order. */
const scriptSources = (s: string) => [...s.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1]);
/** The body of the inline script (the one the customer's page runs). */
const inlineScript = (s: string) => /<script>\n([\s\S]*?)<\/script>/.exec(s)?.[1] ?? '';

/** What a fake Handle hands back, so a test can see what the snippet does with it. */
const HLS_CONFIG = { fLoader: 'p2p-fragment-loader', pLoader: 'p2p-playlist-loader' };

/** A Video.js source handler (Tech.registerSourceHandler). */
interface VideojsSourceHandler {
  canPlayType(type: string): string;
  canHandleSource(source: { type: string }): string;
  handleSource(source: { src: string }, tech: { el(): unknown }): { dispose(): void };
}

/**
 * Runs a snippet's inline script against fake players and a fake `TlprtP2P`, like a browser would after
 * loading the scripts, and records every attach call, player made and hls.js bound.
 */
async function run(player: TPlayer) {
  const video = { tagName: 'VIDEO' };
  const element = { tagName: 'DIV' };
  const document = { getElementById: (id: string) => (id === 'video' ? video : element) };
  const bound: unknown[] = [];
  const handle = { hlsConfig: HLS_CONFIG, bindHls: (h: unknown) => bound.push(h), detach: vi.fn() };
  const attach = vi.fn(async (_options: Record<string, unknown>) => handle);
  const made: Record<string, unknown> = {};

  // The Hls class a snippet hands over (never constructed by a snippet), with its support check.
  const Hls = Object.assign(function Hls() {}, { isSupported: () => true });
  const clapprHls = { clappr: 'hls.js' };
  const Clappr = {
    Player: vi.fn(function (this: Record<string, unknown>, options: unknown) {
      made.clappr = options;
      this.core = { getCurrentPlayback: () => ({ _hls: clapprHls }) };
    }),
  };
  const flowplayerPlayer = { flowplayer: 'player' };
  const flowplayer = vi.fn((selector: string, options: unknown) => {
    made.flowplayer = { selector, options };
    return flowplayerPlayer;
  });
  const shakaPlayer = {
    attach: vi.fn(async (el: unknown) => {
      made.shakaAttached = el;
    }),
    load: vi.fn(),
  };
  // Declarations, not arrows: the snippets call these players with `new`.
  function ShakaPlayer() {
    return shakaPlayer;
  }
  function BitmovinPlayer() {
    return { load: (s: unknown) => (made.bitmovinSrc = s) };
  }
  function Uppod(options: unknown) {
    made.uppod = options;
  }
  const shaka = { polyfill: { installAll: vi.fn() }, Player: ShakaPlayer };
  const sourceHandlers: Array<{ handler: VideojsSourceHandler; index: number }> = [];
  const videojs = Object.assign(
    // Like Video.js's Html5 tech: a source goes to the first handler that can handle it.
    vi.fn(() => ({
      src: (source: { src: string; type: string }) => {
        made.videojsSrc = source;
        const found = sourceHandlers.find((s) => s.handler.canHandleSource(source));
        made.videojsHandled = found?.handler.handleSource(source, { el: () => video });
      },
    })),
    {
      getTech: (name: string) =>
        name === 'Html5'
          ? {
              registerSourceHandler: (handler: VideojsSourceHandler, index: number) =>
                sourceHandlers.push({ handler, index }),
            }
          : undefined,
    },
  );
  const bitmovin = { player: { Player: BitmovinPlayer } };

  const globals = {
    document,
    TlprtP2P: { attach },
    Hls,
    Clappr,
    flowplayer,
    shaka,
    videojs,
    bitmovin,
    Uppod,
  };
  const body = inlineScript(playerSnippet(player, KEY, PLUGIN));
  new Function(...Object.keys(globals), body)(...Object.values(globals));
  // Let the promise chains of the snippet (attach → player) run.
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  return {
    attach,
    bound,
    made,
    video,
    element,
    Hls,
    shakaPlayer,
    clapprHls,
    flowplayerPlayer,
    sourceHandlers,
    handle,
  };
}

describe('player snippets (Add-domain step 2)', () => {
  it('the plugin comes from this dashboard: its origin and PLAYER_PATHS.bundle', () => {
    expect(pluginUrl()).toBe(`${window.location.origin}${PLAYER_PATHS.bundle}`);
  });

  it.each(PLAYERS)('%s: player bundle(s), then the plugin from the given URL, then the key', (p) => {
    const s = playerSnippet(p, KEY, PLUGIN);
    const sources = scriptSources(s);
    expect(sources).toEqual([...PLAYER_BUNDLES[p].scripts, PLUGIN]);
    // From the provider's CDN; Uppod has none, so its own build on the customer's site.
    for (const src of PLAYER_BUNDLES[p].scripts)
      expect(src).toMatch(p === 'Uppod' ? /^\/uppod\.js$/ : /^https:\/\//);
    expect(s.indexOf(PLUGIN)).toBeLessThan(s.indexOf('<script>\n'));
    expect(s).toContain(`var KEY = '${KEY}';`);
    expect(s).toContain(`var SRC = '${STREAM_PLACEHOLDER}';`);
  });

  it.each(PLAYERS)('%s calls TlprtP2P.attach once with its key and its player name', async (p) => {
    const { attach } = await run(p);
    expect(attach).toHaveBeenCalledTimes(1);
    const options = attach.mock.calls[0]?.[0] ?? {};
    expect(options.key).toBe(KEY);
    expect(options.player).toBe(PLAYER_TABLE[p].attach);
    expect(Object.keys(PLAYER_INTEGRATION)).toContain(options.player);
  });

  it('HLS.js hands the plugin the Hls class, the stream and the video element, and loads nothing itself', async () => {
    const { attach, Hls, video } = await run('HLS.js');
    expect(attach.mock.calls[0]?.[0]).toEqual({
      key: KEY,
      player: 'hls.js',
      instance: Hls,
      src: STREAM_PLACEHOLDER,
      video,
    });
    expect(playerSnippet('HLS.js', KEY, PLUGIN)).not.toMatch(/new Hls\(|loadSource|attachMedia/);
  });

  it('Shaka attaches the player to the video, then hands it and the stream to the plugin, which loads it', async () => {
    const { attach, shakaPlayer, made, video } = await run('Shaka');
    expect(made.shakaAttached).toBe(video);
    expect(attach.mock.calls[0]?.[0]).toEqual({
      key: KEY,
      player: 'shaka',
      instance: shakaPlayer,
      src: STREAM_PLACEHOLDER,
    });
    expect(shakaPlayer.load).not.toHaveBeenCalled();
  });

  it("Clappr gets the handle's hlsConfig as its hls.js config, and the plugin binds Clappr's hls.js", async () => {
    const { attach, made, bound, clapprHls } = await run('Clappr');
    expect(attach.mock.calls[0]?.[0]).toEqual({ key: KEY, player: 'clappr', src: STREAM_PLACEHOLDER });
    expect(made.clappr).toMatchObject({ source: STREAM_PLACEHOLDER, playback: { hlsjsConfig: HLS_CONFIG } });
    expect(bound).toHaveLength(1);
    expect((bound[0] as () => unknown)()).toBe(clapprHls);
  });

  it('Flowplayer plays SRC as pasted (no placeholder token) and the plugin is bound to the Flowplayer player', async () => {
    const { attach, made, bound, flowplayerPlayer } = await run('Flowplayer');
    expect(attach.mock.calls[0]?.[0]).toEqual({ key: KEY, player: 'flowplayer', src: STREAM_PLACEHOLDER });
    // A placeholder token fails in Flowplayer ("Invalid token provided"): the token line is commented out.
    expect(made.flowplayer).toEqual({ selector: '#player', options: { src: STREAM_PLACEHOLDER } });
    expect(bound).toEqual([flowplayerPlayer]);
    expect(scriptSources(playerSnippet('Flowplayer', KEY, PLUGIN))).toContain(
      'https://cdn.flowplayer.com/releases/native/3/stable/plugins/hls.min.js',
    );
  });

  it('Video.js: a source handler put ahead of VHS has the plugin play HLS with hls.js in Video.js’s element', async () => {
    const { attach, made, sourceHandlers, video, Hls, handle } = await run('Video.js');
    expect(sourceHandlers).toHaveLength(1);
    const { handler, index } = sourceHandlers[0] as (typeof sourceHandlers)[number];
    expect(index).toBe(0);
    expect(made.videojsSrc).toEqual({ src: STREAM_PLACEHOLDER, type: 'application/x-mpegURL' });
    expect(handler.canHandleSource({ type: 'application/x-mpegURL' })).toBe('probably');
    expect(handler.canPlayType('video/mp4')).toBe('');
    expect(attach.mock.calls[0]?.[0]).toEqual({
      key: KEY,
      player: 'hls.js',
      instance: Hls,
      src: STREAM_PLACEHOLDER,
      video,
    });
    (made.videojsHandled as { dispose(): void }).dispose();
    await Promise.resolve();
    await Promise.resolve();
    expect(handle.detach).toHaveBeenCalledOnce();
    expect(scriptSources(playerSnippet('Video.js', KEY, PLUGIN))).toEqual([
      ...PLAYER_BUNDLES['Video.js'].scripts,
      PLUGIN,
    ]);
    expect(PLAYER_BUNDLES['Video.js'].scripts).toContain(PLAYER_BUNDLES['HLS.js'].scripts[0]);
  });

  it('Other: the plugin plays SRC with hls.js in the page’s video element, for any player to put controls on', async () => {
    const { attach, video, Hls } = await run('Other');
    expect(attach.mock.calls[0]?.[0]).toEqual({
      key: KEY,
      player: 'hls.js',
      instance: Hls,
      src: STREAM_PLACEHOLDER,
      video,
    });
    expect(scriptSources(playerSnippet('Other', KEY, PLUGIN))).toEqual([
      ...PLAYER_BUNDLES['HLS.js'].scripts,
      PLUGIN,
    ]);
  });

  it.each(['Bitmovin', 'Uppod'] as const)(
    '%s is CDN only and its snippet says so; the player still plays the stream',
    async (p) => {
      expect(isCdnOnly(p)).toBe(true);
      const s = playerSnippet(p, KEY, PLUGIN);
      expect(s).toMatch(/\/\/ CDN only: .* has no P2P integration/);
      const { attach, made } = await run(p);
      expect(attach.mock.calls[0]?.[0]).toEqual({ key: KEY, player: PLAYER_TABLE[p].attach });
      if (p === 'Bitmovin') expect(made.bitmovinSrc).toEqual({ hls: STREAM_PLACEHOLDER });
      if (p === 'Uppod') expect(made.uppod).toMatchObject({ file: STREAM_PLACEHOLDER });
    },
  );

  it.each(['HLS.js', 'Shaka', 'Clappr', 'Flowplayer', 'Video.js', 'Other'] as const)(
    '%s is not CDN only',
    (p) => {
      expect(isCdnOnly(p)).toBe(false);
      expect(playerSnippet(p, KEY, PLUGIN)).not.toContain('CDN only');
    },
  );

  it('Video.js and Flowplayer also link their stylesheets; Uppod says where its own script goes', () => {
    expect(playerSnippet('Video.js', KEY, PLUGIN)).toContain(
      '<link rel="stylesheet" href="https://vjs.zencdn.net/',
    );
    expect(playerSnippet('Flowplayer', KEY, PLUGIN)).toContain(
      '<link rel="stylesheet" href="https://cdn.flowplayer.com/',
    );
    expect(playerSnippet('Uppod', KEY, PLUGIN)).toContain('<!-- Uppod has no public CDN');
  });

  it("every player's snippet loads the player's own bundle before the plugin (Other: hls.js)", () => {
    for (const p of PLAYERS) {
      const sources = scriptSources(playerSnippet(p, KEY, PLUGIN));
      expect(sources.at(-1)).toBe(PLUGIN);
      expect(sources.length).toBeGreaterThan(1);
    }
    expect(scriptSources(playerSnippet('Uppod', KEY, PLUGIN))).toEqual([UPPOD_BUNDLE, PLUGIN]);
  });

  it('without a key the placeholder is used', () => {
    expect(playerSnippet('Shaka', null, PLUGIN)).toContain(`var KEY = '${KEY_PLACEHOLDER}';`);
  });

  it('is stable (snapshot of the HLS.js snippet)', () => {
    expect(playerSnippet('HLS.js', 'k', PLUGIN)).toMatchInlineSnapshot(`
      "<script src="https://cdn.jsdelivr.net/npm/hls.js@1/dist/hls.min.js"></script>
      <script src="https://dashboard.example/player/v1/tlprt-p2p.min.js"></script>

      <video id="video" controls playsinline></video>
      <script>
        var KEY = 'k';
        var SRC = 'https://example.com/stream/master.m3u8'; // your stream
        // The plugin makes the hls.js player itself, with P2P wired in, and plays SRC in the video.
        TlprtP2P.attach({
          key: KEY,
          player: 'hls.js',
          instance: Hls,
          src: SRC,
          video: document.getElementById('video'),
        });
      </script>"
    `);
  });
});
