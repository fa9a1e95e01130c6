import { PLAYER_PLUGIN_URL, PLAYERS, type TPlayer } from '@tlprt/contract';

/** Each player's bundle on its provider's CDN (Add-domain step 2). */
export const PLAYER_BUNDLES: Record<TPlayer, { scripts: string[]; styles: string[] }> = {
  'HLS.js': { scripts: ['https://cdn.jsdelivr.net/npm/hls.js@1/dist/hls.min.js'], styles: [] },
  Shaka: {
    scripts: ['https://cdn.jsdelivr.net/npm/shaka-player@4/dist/shaka-player.compiled.js'],
    styles: [],
  },
  Clappr: { scripts: ['https://cdn.jsdelivr.net/npm/@clappr/player@0/dist/clappr.min.js'], styles: [] },
  Bitmovin: { scripts: ['https://cdn.bitmovin.com/player/web/8/bitmovinplayer.js'], styles: [] },
  'Video.js': {
    scripts: ['https://vjs.zencdn.net/8.10.0/video.min.js'],
    styles: ['https://vjs.zencdn.net/8.10.0/video-js.css'],
  },
  Uppod: { scripts: ['https://uppod.ru/player/html5/uppod.js'], styles: [] },
  Flowplayer: {
    scripts: ['https://cdn.flowplayer.com/releases/native/3/stable/flowplayer.min.js'],
    styles: ['https://cdn.flowplayer.com/releases/native/3/stable/style/flowplayer.css'],
  },
  Other: { scripts: [], styles: [] },
};

/** The key placeholder shown while the domain has no active key. */
export const KEY_PLACEHOLDER = 'YOUR_SERVICE_KEY';
const STREAM = 'https://example.com/stream/master.m3u8';

/** Player set-up lines, then the plugin call on that player instance. */
const SETUP: Record<TPlayer, { html: string; init: string[] }> = {
  'HLS.js': {
    html: '<video id="video" controls playsinline></video>',
    init: [
      "var video = document.getElementById('video');",
      'var hls = new Hls();',
      "TlprtP2P.attach({ key: KEY, player: 'hls.js', instance: hls });",
      `hls.loadSource('${STREAM}');`,
      'hls.attachMedia(video);',
    ],
  },
  Shaka: {
    html: '<video id="video" controls playsinline></video>',
    init: [
      "var player = new shaka.Player(document.getElementById('video'));",
      "TlprtP2P.attach({ key: KEY, player: 'shaka', instance: player });",
      `player.load('${STREAM}');`,
    ],
  },
  Clappr: {
    html: '<div id="player"></div>',
    init: [
      `var player = new Clappr.Player({ source: '${STREAM}', parentId: '#player' });`,
      "TlprtP2P.attach({ key: KEY, player: 'clappr', instance: player });",
    ],
  },
  Bitmovin: {
    html: '<div id="player"></div>',
    init: [
      "var player = new bitmovin.player.Player(document.getElementById('player'), { key: 'BITMOVIN_LICENSE_KEY' });",
      "TlprtP2P.attach({ key: KEY, player: 'bitmovin', instance: player });",
      `player.load({ hls: '${STREAM}' });`,
    ],
  },
  'Video.js': {
    html: '<video id="video" class="video-js" controls playsinline></video>',
    init: [
      "var player = videojs('video');",
      "TlprtP2P.attach({ key: KEY, player: 'videojs', instance: player });",
      `player.src({ src: '${STREAM}', type: 'application/x-mpegURL' });`,
    ],
  },
  Uppod: {
    html: '<div id="player"></div>',
    init: [
      `var player = new Uppod({ m: 'video', uid: 'player', file: '${STREAM}' });`,
      "TlprtP2P.attach({ key: KEY, player: 'uppod', instance: player });",
    ],
  },
  Flowplayer: {
    html: '<div id="player"></div>',
    init: [
      `var player = flowplayer('#player', { src: '${STREAM}' });`,
      "TlprtP2P.attach({ key: KEY, player: 'flowplayer', instance: player });",
    ],
  },
  Other: {
    html: '<!-- your player -->',
    init: [
      '// Call attach() with your player instance once it is created.',
      "TlprtP2P.attach({ key: KEY, player: 'generic', instance: yourPlayer });",
    ],
  },
};

/**
 * The copy-to-clipboard snippet of one player tab: the player's CDN bundle, our P2P plugin
 * (PLAYER_PLUGIN_URL) and the set-up that hands the team's service key to the plugin.
 */
export function playerSnippet(player: TPlayer, keyHash: string | null): string {
  const bundle = PLAYER_BUNDLES[player];
  const setup = SETUP[player];
  const key = JSON.stringify(keyHash || KEY_PLACEHOLDER).replace(/"/g, "'");
  return [
    ...bundle.styles.map((href) => `<link rel="stylesheet" href="${href}">`),
    ...bundle.scripts.map((src) => `<script src="${src}"></script>`),
    `<script src="${PLAYER_PLUGIN_URL}"></script>`,
    '',
    setup.html,
    '<script>',
    `  var KEY = ${key};`,
    ...setup.init.map((l) => `  ${l}`),
    '</script>',
  ].join('\n');
}

export { PLAYERS };
