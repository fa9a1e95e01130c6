import {
  KEY_PLACEHOLDER,
  PLAYER_TABLE,
  STREAM_PLACEHOLDER,
  type TShownPlayer,
  type TSnippetParts,
} from '@tlprt/contract';

/** The comment every CDN-only snippet opens with: the customer reads it in their own page too. */
function cdnOnlyComment(player: TShownPlayer): string[] {
  return [
    `// CDN only: ${player} has no P2P integration, so every viewer loads the whole stream from your CDN.`,
    "// The plugin reports the CDN bytes of this page's segment requests to your statistics; segments",
    '// from another origin count only when their server sends Timing-Allow-Origin.',
  ];
}

/**
 * A snippet as the dashboard and the guide show it: the provider's CDN files, our plugin from
 * `pluginSrc`, the page element and the set-up that hands the key and the stream to `TlprtP2P.attach`.
 */
function snippetText(parts: TSnippetParts, keyHash: string | null, pluginSrc: string): string {
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
 * The copy-to-clipboard snippet of one player of the players table (Add domain step 2's tabs, the
 * guide's sections and More players): the player's CDN bundle, our plugin from `pluginSrc` (this
 * dashboard's own origin, see config.pluginUrl) and the set-up that hands the team's service key and
 * the stream to `TlprtP2P.attach`.
 */
export function playerSnippet(player: TShownPlayer, keyHash: string | null, pluginSrc: string): string {
  const { kind, snippet } = PLAYER_TABLE[player];
  const init = kind === 'cdn-only' ? [...cdnOnlyComment(player), ...snippet.init] : snippet.init;
  return snippetText({ ...snippet, init }, keyHash, pluginSrc);
}
