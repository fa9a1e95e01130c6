import { PLAYER_ATTACH_NAME, PLAYER_INTEGRATION, type TPlayer } from '@tlprt/contract';

/** Where the Uppod snippet loads uppod.js: the customer's own copy, served by their site. */
export const UPPOD_BUNDLE = '/uppod.js';

/** hls.js 1.x on its CDN: the snippets and the guide's More players that play with it load this copy. */
export const HLS_JS_BUNDLE = 'https://cdn.jsdelivr.net/npm/hls.js@1/dist/hls.min.js';

/**
 * Each player's bundle on its provider's CDN (Add-domain step 2). Uppod publishes no CDN copy: it
 * builds uppod.js for each site, which serves it itself; its snippet loads it from the page's own
 * site like the others load theirs, and says so.
 */
export const PLAYER_BUNDLES: Record<TPlayer, { scripts: string[]; styles: string[]; note?: string }> = {
  'HLS.js': { scripts: [HLS_JS_BUNDLE], styles: [] },
  Shaka: {
    scripts: ['https://cdn.jsdelivr.net/npm/shaka-player@4/dist/shaka-player.compiled.js'],
    styles: [],
  },
  Clappr: { scripts: ['https://cdn.jsdelivr.net/npm/@clappr/player@0/dist/clappr.min.js'], styles: [] },
  Bitmovin: { scripts: ['https://cdn.bitmovin.com/player/web/8/bitmovinplayer.js'], styles: [] },
  'Video.js': {
    // hls.js beside Video.js: the snippet's source handler plays HLS with it, through the P2P engine.
    scripts: ['https://vjs.zencdn.net/8.10.0/video.min.js', HLS_JS_BUNDLE],
    styles: ['https://vjs.zencdn.net/8.10.0/video-js.css'],
  },
  Uppod: {
    scripts: [UPPOD_BUNDLE],
    styles: [],
    note: '<!-- Uppod has no public CDN: it builds uppod.js for your site. Serve your copy at this address. -->',
  },
  Flowplayer: {
    // Flowplayer plays HLS through hls.js only with its HLS plugin.
    scripts: [
      'https://cdn.flowplayer.com/releases/native/3/stable/flowplayer.min.js',
      'https://cdn.flowplayer.com/releases/native/3/stable/plugins/hls.min.js',
    ],
    styles: ['https://cdn.flowplayer.com/releases/native/3/stable/style/flowplayer.css'],
  },
  // Any player that plays in a <video> element gets hls.js and P2P from the plugin under its controls.
  Other: { scripts: [HLS_JS_BUNDLE], styles: [] },
};

/** The key placeholder shown while the domain has no active key (and in the public guide). */
export const KEY_PLACEHOLDER = 'YOUR_SERVICE_KEY';
/** The stream placeholder of every snippet. */
export const STREAM_PLACEHOLDER = 'https://example.com/stream/master.m3u8';

/** How the plugin works with a player tab: `p2p`, `hosted-hlsjs` or `cdn-only`. */
export function integrationOf(player: TPlayer) {
  return PLAYER_INTEGRATION[PLAYER_ATTACH_NAME[player]];
}
export const isCdnOnly = (player: TPlayer) => integrationOf(player) === 'cdn-only';

/** The comment every CDN-only snippet opens with: the customer reads it in their own page too. */
function cdnOnlyComment(player: TPlayer): string[] {
  return [
    `// CDN only: ${player} has no P2P integration, so every viewer loads the whole stream from your CDN.`,
    "// The plugin reports the CDN bytes of this page's segment requests to your statistics; segments",
    '// from another origin count only when their server sends Timing-Allow-Origin.',
  ];
}

/** The plugin makes an hls.js with P2P and plays SRC in the page's video element (HLS.js and Other). */
const PLAY_IN_VIDEO_WITH_HLS_JS = [
  'TlprtP2P.attach({',
  '  key: KEY,',
  "  player: 'hls.js',",
  '  instance: Hls,',
  '  src: SRC,',
  "  video: document.getElementById('video'),",
  '});',
];

/** The page element, then the script that starts the player and the plugin. */
const SETUP: Record<TPlayer, { html: string; init: string[] }> = {
  'HLS.js': {
    html: '<video id="video" controls playsinline></video>',
    init: [
      '// The plugin makes the hls.js player itself, with P2P wired in, and plays SRC in the video.',
      ...PLAY_IN_VIDEO_WITH_HLS_JS,
    ],
  },
  Shaka: {
    html: '<video id="video" controls playsinline></video>',
    init: [
      'shaka.polyfill.installAll();',
      'var player = new shaka.Player();',
      "player.attach(document.getElementById('video')).then(function () {",
      '  // The plugin loads SRC itself, once its P2P engine is bound to the player.',
      "  return TlprtP2P.attach({ key: KEY, player: 'shaka', instance: player, src: SRC });",
      '});',
    ],
  },
  Clappr: {
    html: '<div id="player"></div>',
    init: [
      '// Clappr makes its hls.js when it starts, so it needs the P2P settings for it first.',
      "TlprtP2P.attach({ key: KEY, player: 'clappr', src: SRC }).then(function (p2p) {",
      '  var player = new Clappr.Player({',
      '    source: SRC,',
      "    parentId: '#player',",
      '    playback: { hlsjsConfig: p2p.hlsConfig },',
      '  });',
      "  // Clappr's HLS playback keeps its hls.js as _hls.",
      '  p2p.bindHls(function () {',
      '    var playback = player.core.getCurrentPlayback();',
      '    return playback && playback._hls;',
      '  });',
      '});',
    ],
  },
  Bitmovin: {
    html: '<div id="player"></div>',
    init: [
      ...cdnOnlyComment('Bitmovin'),
      "TlprtP2P.attach({ key: KEY, player: 'bitmovin' });",
      "var player = new bitmovin.player.Player(document.getElementById('player'), {",
      "  key: 'BITMOVIN_LICENSE_KEY',",
      '});',
      'player.load({ hls: SRC });',
    ],
  },
  'Video.js': {
    html: '<video id="video" class="video-js" controls playsinline></video>',
    init: [
      '// Video.js plays HLS with an engine of its own; this source handler, put first, has the plugin',
      "// play it with hls.js and P2P in Video.js's video element (where hls.js cannot run, Video.js",
      '// keeps its own engine).',
      "videojs.getTech('Html5').registerSourceHandler(",
      '  {',
      '    canPlayType: function (type) {',
      "      return /mpegurl/i.test(type) && Hls.isSupported() ? 'probably' : '';",
      '    },',
      '    canHandleSource: function (source) {',
      '      return this.canPlayType(source.type);',
      '    },',
      '    handleSource: function (source, tech) {',
      '      var attached = TlprtP2P.attach({',
      '        key: KEY,',
      "        player: 'hls.js',",
      '        instance: Hls,',
      '        src: source.src,',
      '        video: tech.el(),',
      '      });',
      '      return {',
      '        dispose: function () {',
      '          attached.then(function (p2p) {',
      '            p2p.detach();',
      '          });',
      '        },',
      '      };',
      '    },',
      '  },',
      '  0,',
      ');',
      "var player = videojs('video');",
      "player.src({ src: SRC, type: 'application/x-mpegURL' });",
    ],
  },
  Uppod: {
    html: '<div id="player"></div>',
    init: [
      ...cdnOnlyComment('Uppod'),
      "TlprtP2P.attach({ key: KEY, player: 'uppod' });",
      "var player = new Uppod({ m: 'video', uid: 'player', file: SRC });",
    ],
  },
  Flowplayer: {
    html: '<div id="player"></div>',
    init: [
      "// The plugin starts first: it takes over the hls.js Flowplayer's HLS plugin makes for SRC.",
      "TlprtP2P.attach({ key: KEY, player: 'flowplayer', src: SRC }).then(function (p2p) {",
      "  var player = flowplayer('#player', {",
      '    src: SRC,',
      '    // Flowplayer plays without a token on localhost only: on your site, remove the // below',
      '    // and put the player token of your Flowplayer account in its place.',
      "    // token: 'YOUR_FLOWPLAYER_TOKEN',",
      '  });',
      "  // Flowplayer's HLS plugin puts loaders of its own into its hls.js; the plugin puts P2P back.",
      '  p2p.bindHls(player);',
      '});',
    ],
  },
  Other: {
    html: '<video id="video" controls playsinline></video>',
    init: [
      '// Any player that plays in a <video> element of the page (Plyr, for one): the plugin plays SRC',
      '// in it with hls.js and P2P, and your player puts its controls on that same element.',
      ...PLAY_IN_VIDEO_WITH_HLS_JS,
      "// Start your player on the element here, e.g. new Plyr('#video');",
    ],
  },
};

/** What a snippet loads and runs: the provider's files, the page element, and its set-up script. */
export interface SnippetParts {
  scripts: string[];
  styles: string[];
  /** Scripts loaded as ES modules (a player published only as one). */
  modules?: string[];
  note?: string;
  html: string;
  init: string[];
}

/**
 * A snippet as the dashboard and the guide show it: the provider's CDN files, our plugin from
 * `pluginSrc`, the page element and the set-up that hands the key and the stream to `TlprtP2P.attach`.
 */
export function snippetText(parts: SnippetParts, keyHash: string | null, pluginSrc: string): string {
  const quote = (s: string) => JSON.stringify(s).replace(/"/g, "'");
  return [
    ...parts.styles.map((href) => `<link rel="stylesheet" href="${href}">`),
    ...(parts.note ? [parts.note] : []),
    ...parts.scripts.map((src) => `<script src="${src}"></script>`),
    ...(parts.modules ?? []).map((src) => `<script type="module" src="${src}"></script>`),
    `<script src="${pluginSrc}"></script>`,
    '',
    parts.html,
    '<script>',
    `  var KEY = ${quote(keyHash || KEY_PLACEHOLDER)};`,
    `  var SRC = ${quote(STREAM_PLACEHOLDER)}; // your stream`,
    ...parts.init.map((l) => `  ${l}`),
    '</script>',
  ].join('\n');
}

/**
 * The copy-to-clipboard snippet of one player tab: the player's CDN bundle, our plugin from
 * `pluginSrc` (this dashboard's own origin, see config.pluginUrl) and the set-up that hands the team's
 * service key and the stream to `TlprtP2P.attach`.
 */
export function playerSnippet(player: TPlayer, keyHash: string | null, pluginSrc: string): string {
  return snippetText({ ...PLAYER_BUNDLES[player], ...SETUP[player] }, keyHash, pluginSrc);
}
