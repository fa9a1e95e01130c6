import { HLS_JS_BUNDLE, type SnippetParts, snippetText } from '../../platform/integration/snippets';

/**
 * The guide's More players (issue 21): players beyond Add domain's eight tabs, each with P2P through
 * the plugin. e2e/p2p/players-more.spec.ts builds its viewers' pages from these very recipes.
 */
export const MORE_PLAYERS = ['Vidstack', 'DPlayer', 'MediaElement.js'] as const;
export type TMorePlayer = (typeof MORE_PLAYERS)[number];

/** Where each player's files are: its npm package on the CDN, at the version the recipe was tested with. */
const npm = (pkg: string, file: string) => `https://cdn.jsdelivr.net/npm/${pkg}/${file}`;
const VIDSTACK = 'vidstack@1.15.6';
const DPLAYER = 'dplayer@1.27.1';
const MEDIAELEMENT = 'mediaelement@7.1.0';

export const RECIPES: Record<TMorePlayer, SnippetParts> = {
  Vidstack: {
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
  DPlayer: {
    styles: [],
    scripts: [HLS_JS_BUNDLE, npm(DPLAYER, 'dist/DPlayer.min.js')],
    html: '<div id="player"></div>',
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
  'MediaElement.js': {
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
};

/** The copyable code of one of the guide's More players (the plugin from `pluginSrc`). */
export function recipeSnippet(player: TMorePlayer, keyHash: string | null, pluginSrc: string): string {
  return snippetText(RECIPES[player], keyHash, pluginSrc);
}
