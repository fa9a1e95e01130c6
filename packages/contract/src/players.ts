/**
 * The players, one row each: everything the dashboard, the guide and the plugin say or do about one.
 * Add domain step 2's tabs, the guide's player sections and More players, the badges beside them and
 * the `player` names TlprtP2P.attach accepts are all read from this table.
 *
 * A row: `attach`, the `player` name its snippet hands to TlprtP2P.attach; `kind`, how the plugin
 * works with it; `shown`, where the dashboard shows it; `snippet`, what its snippet loads (the
 * provider's files on its CDN) and runs (the page element, the set-up script); `note`, the guide's text
 * on what the snippet relies on (`code` and [links](#section) marked as in Markdown).
 *
 * The plugin's bundle includes this file (attach checks its `player` names against it): no zod here.
 */

/**
 * How the plugin works with a player: `hls.js` and `shaka`, it loads the stream into the player with
 * P2P itself; `hosted-hls.js`, the player is built on hls.js and makes its own: the plugin hands out an
 * hls.js config and binds to that hls.js; `cdn-only`, no P2P integration: the CDN bytes the page can
 * see are reported, nothing is shared.
 */
export type TPlayerKind = 'hls.js' | 'shaka' | 'hosted-hls.js' | 'cdn-only';

const P2P_LABEL = 'P2P';
const P2P_HELP =
  'The plugin loads the stream into this player itself: segments come from other viewers when they have them and from your CDN otherwise, and both are reported.';

/** The badge beside each snippet (Add domain step 2 and the guide). */
export const PLAYER_KIND_LABEL: Record<TPlayerKind, string> = {
  'hls.js': P2P_LABEL,
  shaka: P2P_LABEL,
  'hosted-hls.js': 'P2P via the player’s hls.js',
  'cdn-only': 'CDN only',
};

/** The line of text beside each snippet (Add domain step 2 and the guide). */
export const PLAYER_KIND_HELP: Record<TPlayerKind, string> = {
  'hls.js': P2P_HELP,
  shaka: P2P_HELP,
  'hosted-hls.js':
    'The player keeps its own hls.js: the plugin follows that hls.js and puts its P2P loaders into it, so segments come from other viewers when they have them.',
  'cdn-only':
    'This player has no P2P integration: every viewer loads the whole stream from your CDN, and the plugin only reports those CDN bytes to your statistics.',
};

/** What a snippet loads and runs: the provider's files, the page element, and its set-up script. */
export interface TSnippetParts {
  scripts: readonly string[];
  styles: readonly string[];
  /** Scripts loaded as ES modules (a player published only as one). */
  modules?: readonly string[];
  /** An HTML comment printed above the scripts. */
  note?: string;
  html: string;
  init: readonly string[];
}

type TPlayerRow =
  | {
      attach: string;
      kind: TPlayerKind;
      /** `add-domain`: a tab of Add domain step 2 and a section of the guide; `more-players`: a recipe of
       *  the guide's More players only. */
      shown: 'add-domain' | 'more-players';
      snippet: TSnippetParts;
      note: string;
    }
  | {
      attach: string;
      kind: TPlayerKind;
      /** A `player` name attach accepts that no snippet uses (the guide's notes speak of it). */
      shown: 'attach-only';
    };

/** The key placeholder of every snippet while the domain has no active key (and in the public guide). */
export const KEY_PLACEHOLDER = 'YOUR_SERVICE_KEY';
/** The stream placeholder of every snippet. */
export const STREAM_PLACEHOLDER = 'https://example.com/stream/master.m3u8';

/** hls.js 1.x on its CDN: the snippets of players that play with it load this copy. */
export const HLS_JS_BUNDLE = 'https://cdn.jsdelivr.net/npm/hls.js@1/dist/hls.min.js';
/** Where the Uppod snippet loads uppod.js: Uppod publishes no CDN copy, it builds uppod.js for each
 *  site, which serves it itself. */
export const UPPOD_BUNDLE = '/uppod.js';
const BITMOVIN_LICENSE = 'BITMOVIN_LICENSE_KEY';

/** A file of an npm package on the CDN, at the version its recipe was tested with. */
const npm = (pkg: string, file: string) => `https://cdn.jsdelivr.net/npm/${pkg}/${file}`;
const VIDSTACK = 'vidstack@1.15.6';
const DPLAYER = 'dplayer@1.27.1';
const MEDIAELEMENT = 'mediaelement@7.1.0';

const VIDEO = '<video id="video" controls playsinline></video>';
const DIV = '<div id="player"></div>';

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

export const PLAYER_TABLE = {
  'HLS.js': {
    attach: 'hls.js',
    kind: 'hls.js',
    shown: 'add-domain',
    snippet: {
      scripts: [HLS_JS_BUNDLE],
      styles: [],
      html: VIDEO,
      init: [
        '// The plugin makes the hls.js player itself, with P2P wired in, and plays SRC in the video.',
        ...PLAY_IN_VIDEO_WITH_HLS_JS,
      ],
    },
    note: 'Pass the `Hls` class, not an instance: the plugin creates the hls.js player with its P2P loaders, loads `src` and attaches it to `video`. The promise resolves to a handle whose `hls` is that player, for your own event listeners; your own hls.js settings go in `hlsConfig`.',
  },
  Shaka: {
    attach: 'shaka',
    kind: 'shaka',
    shown: 'add-domain',
    snippet: {
      scripts: ['https://cdn.jsdelivr.net/npm/shaka-player@4/dist/shaka-player.compiled.js'],
      styles: [],
      html: VIDEO,
      init: [
        'shaka.polyfill.installAll();',
        'var player = new shaka.Player();',
        "player.attach(document.getElementById('video')).then(function () {",
        '  // The plugin loads SRC itself, once its P2P engine is bound to the player.',
        "  return TlprtP2P.attach({ key: KEY, player: 'shaka', instance: player, src: SRC });",
        '});',
      ],
    },
    note: 'Create the `shaka.Player` and attach it to the video element, then hand it to the plugin with `src`: the plugin binds its P2P engine to the player and calls `player.load(src)` itself, so do not load the stream before it. When shaka is not the global `shaka`, pass its namespace as `shaka`.',
  },
  Clappr: {
    attach: 'clappr',
    kind: 'hosted-hls.js',
    shown: 'add-domain',
    snippet: {
      scripts: ['https://cdn.jsdelivr.net/npm/@clappr/player@0/dist/clappr.min.js'],
      styles: [],
      html: DIV,
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
    note: "Clappr creates its hls.js when it starts, so the snippet waits for `attach` and passes the handle's `hlsConfig` as Clappr's `playback.hlsjsConfig`. Then `bindHls` gets a function that returns the hls.js of Clappr's current playback (`_hls`): the plugin asks for it when the first segment loads.",
  },
  Bitmovin: {
    attach: 'bitmovin',
    kind: 'cdn-only',
    shown: 'add-domain',
    snippet: {
      scripts: ['https://cdn.bitmovin.com/player/web/8/bitmovinplayer.js'],
      styles: [],
      html: DIV,
      init: [
        "TlprtP2P.attach({ key: KEY, player: 'bitmovin' });",
        "var player = new bitmovin.player.Player(document.getElementById('player'), {",
        `  key: '${BITMOVIN_LICENSE}',`,
        '});',
        'player.load({ hls: SRC });',
      ],
    },
    note: `The plugin counts the bytes of the page's segment requests with the browser's resource timing. Segments served from another origin than the page count only when their server sends a \`Timing-Allow-Origin\` header that names your site (or \`*\`); without it the browser hides their size and they count as 0. Replace \`${BITMOVIN_LICENSE}\` with your Bitmovin key.`,
  },
  'Video.js': {
    attach: 'hls.js',
    kind: 'hls.js',
    shown: 'add-domain',
    snippet: {
      // hls.js beside Video.js: the snippet's source handler plays HLS with it, through the P2P engine.
      scripts: ['https://vjs.zencdn.net/8.10.0/video.min.js', HLS_JS_BUNDLE],
      styles: ['https://vjs.zencdn.net/8.10.0/video-js.css'],
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
    note: "Video.js plays HLS with an engine of its own (VHS), which the P2P engine cannot reach. The snippet loads hls.js beside it and registers a source handler ahead of VHS: for an HLS source, the plugin plays it with hls.js in Video.js's own video element, and Video.js keeps its controls, events and API. Where hls.js cannot run (an iPhone without Media Source Extensions), the handler declines and Video.js plays as before. Without the handler, `player: 'videojs'` only reports the page's segment requests as CDN bytes.",
  },
  Uppod: {
    attach: 'uppod',
    kind: 'cdn-only',
    shown: 'add-domain',
    snippet: {
      scripts: [UPPOD_BUNDLE],
      styles: [],
      note: '<!-- Uppod has no public CDN: it builds uppod.js for your site. Serve your copy at this address. -->',
      html: DIV,
      init: [
        "TlprtP2P.attach({ key: KEY, player: 'uppod' });",
        "var player = new Uppod({ m: 'video', uid: 'player', file: SRC });",
      ],
    },
    note: `Uppod publishes no CDN copy: it builds \`uppod.js\` for each site, and the snippet loads yours from \`${UPPOD_BUNDLE}\` on your own site (change the address if you serve it elsewhere). Its segment requests are counted like those of Bitmovin (mind \`Timing-Allow-Origin\`).`,
  },
  Flowplayer: {
    attach: 'flowplayer',
    kind: 'hosted-hls.js',
    shown: 'add-domain',
    snippet: {
      // Flowplayer plays HLS through hls.js only with its HLS plugin.
      scripts: [
        'https://cdn.flowplayer.com/releases/native/3/stable/flowplayer.min.js',
        'https://cdn.flowplayer.com/releases/native/3/stable/plugins/hls.min.js',
      ],
      styles: ['https://cdn.flowplayer.com/releases/native/3/stable/style/flowplayer.css'],
      html: DIV,
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
    note: "Flowplayer plays HLS through hls.js with its HLS plugin (loaded in the snippet), which puts loaders of its own into the hls.js it makes for each source, so settings handed to it never reach the P2P engine. The snippet therefore gives `bindHls` the Flowplayer player itself: on Flowplayer's `hls:attached` event the plugin puts its loaders back into that hls.js and loads the source through them before the first segment. Flowplayer plays without a token on `localhost` only; on your site, uncomment the `token` line and put your Flowplayer account's player token in it.",
  },
  Other: {
    attach: 'hls.js',
    kind: 'hls.js',
    shown: 'add-domain',
    snippet: {
      // Any player that plays in a <video> element gets hls.js and P2P from the plugin under its controls.
      scripts: [HLS_JS_BUNDLE],
      styles: [],
      html: VIDEO,
      init: [
        '// Any player that plays in a <video> element of the page (Plyr, for one): the plugin plays SRC',
        '// in it with hls.js and P2P, and your player puts its controls on that same element.',
        ...PLAY_IN_VIDEO_WITH_HLS_JS,
        "// Start your player on the element here, e.g. new Plyr('#video');",
      ],
    },
    note: "A player that plays in a `<video>` element of the page (Plyr, for one: tested with two viewers sharing segments) gets P2P the way hls.js does: the plugin plays the stream in that element with hls.js, and the player puts its controls on it. A player that loads segments itself and is not built on hls.js or Shaka takes `player: 'generic'`: CDN only, the page's segment requests counted (mind `Timing-Allow-Origin`); bytes the plugin cannot see can be added with `handle.addCdnBytes(n)`. A player with its own reporting can also post reports itself: see [Reports from custom players](#reports).",
  },
  // The guide's More players: each player built on hls.js has a `player` name of its own, as Clappr and
  // Flowplayer do: one may need the plugin's help later, as Flowplayer did, without a change to the
  // pages that already use it. e2e/p2p/players-more.spec.ts plays these very recipes.
  Vidstack: {
    attach: 'vidstack',
    kind: 'hosted-hls.js',
    shown: 'more-players',
    snippet: {
      styles: [
        npm(VIDSTACK, 'player/styles/default/theme.css'),
        npm(VIDSTACK, 'player/styles/default/layouts/video.css'),
      ],
      scripts: [HLS_JS_BUNDLE],
      modules: [npm(VIDSTACK, 'cdn/with-layouts/vidstack.js')],
      html: [
        '<media-player id="player" playsinline>',
        '  <media-provider></media-provider>',
        '  <media-video-layout></media-video-layout>',
        '</media-player>',
      ].join('\n'),
      init: [
        '// Vidstack makes its hls.js once it has a source: the P2P settings must be in place first.',
        "TlprtP2P.attach({ key: KEY, player: 'vidstack', src: SRC }).then(function (p2p) {",
        "  var player = document.getElementById('player');",
        "  player.addEventListener('provider-change', function (event) {",
        '    var provider = event.detail;',
        "    if (provider && provider.type === 'hls') {",
        '      // The hls.js this page loaded (Vidstack would fetch one of its own), with the P2P loaders.',
        '      provider.library = Hls;',
        '      provider.config = p2p.hlsConfig;',
        '    }',
        '  });',
        "  player.addEventListener('hls-instance', function (event) {",
        '    p2p.bindHls(event.detail);',
        '  });',
        "  player.setAttribute('src', SRC);",
        '});',
      ],
    },
    note: "Vidstack's HLS provider makes its hls.js when the player gets a source, so the recipe waits for `attach` and only then sets `src`. On `provider-change` it gives the HLS provider the page's `Hls` class as its `library` (Vidstack would otherwise load hls.js from a CDN of its own) and the handle's `hlsConfig` as its `config`. The `hls-instance` event hands the new hls.js to `bindHls` before it loads anything. The player keeps its default layout.",
  },
  DPlayer: {
    attach: 'hls.js',
    kind: 'hls.js',
    shown: 'more-players',
    snippet: {
      styles: [],
      scripts: [HLS_JS_BUNDLE, npm(DPLAYER, 'dist/DPlayer.min.js')],
      html: DIV,
      init: [
        'new DPlayer({',
        "  container: document.getElementById('player'),",
        '  video: {',
        '    url: SRC,',
        "    type: 'p2pHls',",
        '    customType: {',
        '      // DPlayer hands a custom type its video element: the plugin plays SRC in it with hls.js and P2P.',
        '      p2pHls: function (video, dp) {',
        '        var attached = TlprtP2P.attach({',
        '          key: KEY,',
        "          player: 'hls.js',",
        '          instance: Hls,',
        '          src: SRC,',
        '          video: video,',
        '        });',
        "        dp.on('destroy', function () {",
        '          attached.then(function (p2p) {',
        '            p2p.detach();',
        '          });',
        '        });',
        '      },',
        '    },',
        '  },',
        '});',
      ],
    },
    note: "A custom `type` of DPlayer gets DPlayer's own video element: the recipe's `p2pHls` has the plugin play the stream in it with hls.js, as the HLS.js snippet does, and DPlayer keeps its controls. When DPlayer is destroyed, the plugin detaches.",
  },
  'MediaElement.js': {
    attach: 'mediaelement',
    kind: 'hosted-hls.js',
    shown: 'more-players',
    snippet: {
      styles: [npm(MEDIAELEMENT, 'build/mediaelementplayer.min.css')],
      scripts: [HLS_JS_BUNDLE, npm(MEDIAELEMENT, 'build/mediaelement-and-player.min.js')],
      html: '<video id="video" preload="none" playsinline width="640" height="360"></video>',
      init: [
        "TlprtP2P.attach({ key: KEY, player: 'mediaelement', src: SRC }).then(function (p2p) {",
        "  // MediaElement.js makes its hls.js with the page's Hls class when it loads a source: this Hls",
        '  // gives each one it makes the P2P settings and hands it to the plugin.',
        '  var PageHls = Hls;',
        '  window.Hls = class extends PageHls {',
        '    constructor(config) {',
        '      super(Object.assign({}, config, p2p.hlsConfig));',
        '      p2p.bindHls(this);',
        '    }',
        '  };',
        "  var player = new MediaElementPlayer('video', { renderers: ['native_hls', 'html5'] });",
        '  player.setSrc(SRC);',
        '});',
      ],
    },
    note: "MediaElement.js plays HLS with its `native_hls` renderer, which makes an hls.js with the page's global `Hls` class (it loads hls.js from a CDN only when there is none). The recipe puts a class of its own in `window.Hls` once `attach` has answered: each hls.js it makes gets the handle's `hlsConfig` and is handed to `bindHls`. Its control icons come from `mejs-controls.svg` beside your page (or the player's `iconSprite` option).",
  },
  // Names attach accepts without a snippet of their own (the Video.js and Other notes speak of them).
  videojs: { attach: 'videojs', kind: 'cdn-only', shown: 'attach-only' },
  generic: { attach: 'generic', kind: 'cdn-only', shown: 'attach-only' },
} as const satisfies Record<string, TPlayerRow>;

type TTable = typeof PLAYER_TABLE;
type TNamesShown<Where> = {
  [P in keyof TTable]: TTable[P]['shown'] extends Where ? P : never;
}[keyof TTable];

/** A player of Add domain step 2 (its tabs, in screen order) and of the guide's player sections. */
export type TPlayer = TNamesShown<'add-domain'>;
/** A player of the guide's More players. */
export type TMorePlayer = TNamesShown<'more-players'>;
/** A player with a snippet: of Add domain or of the More players. */
export type TShownPlayer = TPlayer | TMorePlayer;
/** The `player` names of TlprtP2P.attach. */
export type TPlayerName = TTable[keyof TTable]['attach'];

const namesShown = <P extends TShownPlayer>(where: TTable[P]['shown']) =>
  (Object.keys(PLAYER_TABLE) as (keyof TTable)[]).filter((p) => PLAYER_TABLE[p].shown === where) as P[];

/** Add domain step 2's tabs, in screen order. */
export const PLAYERS: readonly TPlayer[] = namesShown<TPlayer>('add-domain');
/** The guide's More players, in page order. */
export const MORE_PLAYERS: readonly TMorePlayer[] = namesShown<TMorePlayer>('more-players');

/** How the plugin works with each `player` name of attach (players sharing a name share a kind). */
export const PLAYER_INTEGRATION = Object.fromEntries(
  Object.values(PLAYER_TABLE).map((row) => [row.attach, row.kind]),
) as Record<TPlayerName, TPlayerKind>;
