import {
  ALERT_METRIC_INFO,
  ALERT_METRICS,
  BREAKDOWN_DIMENSIONS,
  INGEST_ANONYMOUS_MAX_REPORTS,
  INGEST_ERRORS,
  INGEST_MAX_BYTES,
  INGEST_MAX_ERRORS,
  INGEST_MAX_SKEW_S,
  KEY_NOT_USABLE_HELP,
  KEY_PLACEHOLDER,
  KEY_SETTING_RANGES,
  KeySettingId,
  LIMITS,
  MSG_HASHES,
  MSG_STATS,
  MSG_STATS_EXPORT,
  MSG_TOKENS,
  PAGE_ORIGIN_RULE,
  PLAYER_BYTES_COUNTED,
  PLAYER_HELP,
  PLAYER_INTEGRATION,
  PLAYER_KIND_LABEL,
  PLAYER_OWN_NETWORK_WAIT_MS,
  PLAYER_PATHS,
  PLAYER_REPORT_INTERVAL_MS,
  POINT_FIELDS,
  PRODUCT_NAME,
  SERIES,
  SERIES_NAMES,
  type SeriesDef,
  type SeriesUnit,
  STATS_EXPORTS_PER_MINUTE,
  STATS_RANGES,
  type TPlayerKind,
  type TWebhookPayload,
  WEB_PATHS,
  WEBHOOK_HEADERS,
} from '@tlprt/contract';
import { STATS_EXPORT, statsExportCurl } from '../../platform/integration/export-example';
import { SCOPE_CHOICE } from '../../platform/integration/scopes';

/**
 * The integration guide's words, kept apart from its layout (IntegrationGuide.tsx renders them). Text
 * marks code with `backquotes` and links as [text](#section), as Markdown does; the players' own
 * sections come from the contract's players table, the key settings and the glossary from their tables.
 */

/** A block of a section, in page order. */
export type GuideBlock =
  | { p: string }
  | { list: string[] }
  | { table: { label: string; head: string[]; rows: string[][] } }
  | { copy: { label: string; value: string; multiline?: boolean } }
  | { alert: string }
  /** The section of each player of the players table shown there, with its badge, note and snippet. */
  | { players: 'add-domain' | 'more-players' }
  | { keySettings: true }
  | { glossary: true }
  | { apiReference: string };

/** The in-page table of contents: each id is the id of its section's heading. */
export const GUIDE_SECTIONS = [
  { id: 'how-it-works', title: 'How it works' },
  { id: 'players', title: 'Add the plugin to your player' },
  { id: 'more-players', title: 'More players' },
  { id: 'attach', title: 'TlprtP2P.attach' },
  { id: 'settings', title: 'Key settings' },
  { id: 'ice-servers', title: 'ICE servers' },
  { id: 'networks', title: 'Peers of the same network first' },
  { id: 'verification', title: 'Verification of peers’ segments' },
  { id: 'reports', title: 'Reports from custom players' },
  { id: 'statistics', title: 'The statistics screen' },
  { id: 'glossary', title: 'Statistics glossary' },
  { id: 'export', title: 'Statistics export API' },
  { id: 'alerts', title: 'Alerts and webhooks' },
  { id: 'api', title: 'API reference' },
] as const;
type GuideSectionId = (typeof GUIDE_SECTIONS)[number]['id'];

export const GUIDE_HEAD = {
  kicker: 'Documentation',
  title: 'Integration guide',
  intro: `How to add the ${PRODUCT_NAME} P2P plugin to your player, what each key setting does, how reports reach the statistics, and what the statistics screen shows.`,
};

/** The key settings in the guide's order. */
export const ORDERED_SETTINGS = [
  KeySettingId.DownloadTimeout,
  KeySettingId.MinBufferSize,
  KeySettingId.PeeringOpeningQuota,
  KeySettingId.PeerMatching,
] as const;

/** The verification bytes' name, as the glossary and the statistics name them. */
const VERIFICATION_LABEL = SERIES.verifyBytes.label;

/** The glossary's words for the series table's units and merges (a new unit or merge fails to compile
 *  here until it has its words). */
const UNIT_NAME: Record<SeriesUnit, string> = {
  bytes: 'bytes',
  viewers: 'viewers',
  ms: 'ms',
  count: 'count',
};
const percentile = (q: number) => `p${Math.round(q * 100)}`;
/** How a series adds up over the minutes of a point and over keys (SeriesMerge). */
function mergeText(s: SeriesDef): string {
  switch (s.merge) {
    case 'sum':
      return 'Summed, over keys and over time.';
    case 'peak':
      return 'Peak minute of the bucket (a 20-minute or hourly point holds its busiest minute); summed over keys.';
    case 'histogram':
      return `Quantiles of a histogram (${Object.values(s.quantiles).map(percentile).join(', ')}): the counts per bucket are summed, so the quantiles hold over any range and any keys.`;
  }
}
/** One row per series of the contract's SERIES: a new series shows up here by itself. */
export const GLOSSARY = SERIES_NAMES.map((name) => {
  const s: SeriesDef = SERIES[name];
  return {
    name,
    label: s.label,
    fields: POINT_FIELDS.filter((f) => f.series === name).map((f) => f.field),
    unit: UNIT_NAME[s.unit],
    description: s.description,
    version1Only: 'version1Only' in s && s.version1Only === true,
    merge: mergeText(s),
  };
});
export const GLOSSARY_VERSION1_ONLY = 'Teams of version 1 only';

/** The kinds of integration in the order the attach table names them: P2P first, CDN only last. */
const KIND_ORDER = Object.keys(PLAYER_KIND_LABEL) as TPlayerKind[];
const ATTACH_NAMES = (Object.keys(PLAYER_INTEGRATION) as (keyof typeof PLAYER_INTEGRATION)[])
  .map((name, i) => ({ name, i, kind: KIND_ORDER.indexOf(PLAYER_INTEGRATION[name]) }))
  .sort((a, b) => a.kind - b.kind || a.i - b.i)
  .map((n) => n.name);

/** The settings path with a readable placeholder (the real path encodes the key). */
const SETTINGS_PATH = `${PLAYER_PATHS.settings('')}{key}`;
const REPORT_EVERY_S = PLAYER_REPORT_INTERVAL_MS / 1000;

const json = (v: unknown) => JSON.stringify(v, null, 2);
const code = (s: string) => `\`${s}\``;
const seconds = (s: number) => (s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`);
const days = (s: number) => (s >= 86_400 ? `${s / 86_400} days` : seconds(s));

const ts = 1_767_225_600;
const ingestBody = {
  reports: [
    {
      apiKey: KEY_PLACEHOLDER,
      sessionId: '9f1c2a7e44b04d0c',
      ts,
      cdnBytes: 1_572_864,
      p2pBytes: 524_288,
      seq: 7,
    },
    {
      apiKey: KEY_PLACEHOLDER,
      sessionId: '51aa03e8d2c94e11',
      ts,
      cdnBytes: 2_097_152,
      p2pBytes: 0,
      seq: 3,
    },
  ],
};
const ingestAnswer = {
  accepted: 1,
  rejected: 1,
  errors: [{ index: 1, message: INGEST_ERRORS.skew }],
};
const settingsAnswer = {
  message: 'ok',
  data: {
    keyHash: KEY_PLACEHOLDER,
    settings: Object.fromEntries(ORDERED_SETTINGS.map((id) => [String(id), KEY_SETTING_RANGES[id]?.default])),
    iceServers: [{ urls: 'stun:stun.example.com:3478' }],
    networkTag: 'k3Qa',
    matchMinPeers: 1,
  },
};

/** What an alert's webhook POSTs (docs/DESIGN.md §13), as the guide shows it. */
const webhookExample: TWebhookPayload = {
  type: 'alert.opened',
  id: 'dlv_8b1f2c3d4e5f60718293a4b5',
  teamId: 42,
  alert: {
    id: 7,
    name: 'P2P share dropped',
    metric: 'p2pShare',
    op: 'below',
    threshold: 40,
    windowMinutes: 5,
  },
  value: 31.4,
  openedAt: '2026-11-22T14:05:00.000Z',
  resolvedAt: null,
};

/** A receiver in a few lines of Node: the signature over "<t>.<raw body>" compared in constant time,
 *  and a timestamp older than 5 minutes refused (a replayed delivery). */
const WEBHOOK_VERIFY_SNIPPET = `import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const SECRET = process.env.TLPRT_WEBHOOK_SECRET; // whsec_…, shown when the alert was saved
const TOLERANCE_S = 5 * 60;

/** True when ${WEBHOOK_HEADERS.signature} signs this raw body with SECRET, less than 5 minutes ago. */
function verify(rawBody, header = '') {
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=')));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > TOLERANCE_S) return false;
  const expected = createHmac('sha256', SECRET).update(parts.t + '.').update(rawBody).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const rawBody = Buffer.concat(chunks); // the bytes as sent: check before parsing
  if (!verify(rawBody, req.headers['${WEBHOOK_HEADERS.signature.toLowerCase()}'])) return res.writeHead(401).end();
  const event = JSON.parse(rawBody.toString('utf8'));
  // A retry repeats its ${WEBHOOK_HEADERS.delivery} id: act on each id once.
  console.log(event.type, event.alert.name, event.value);
  res.writeHead(204).end();
}).listen(3000);`;

/** The blocks of each section, for a guide served at `origin` with the plugin at `plugin`. */
export function guideBlocks(origin: string, plugin: string): Record<GuideSectionId, GuideBlock[]> {
  return {
    'how-it-works': [
      {
        p: `The plugin is one script, served by this dashboard at ${code(plugin)}. It defines the global \`TlprtP2P\`. Your page calls \`TlprtP2P.attach(options)\` with the service key of your domain (My domains, or step 2 of Add domain) and your player; the call returns a promise of a handle.`,
      },
      {
        list: [
          `At attach the plugin reads the key's settings from ${code(SETTINGS_PATH)} on the origin it was loaded from.`,
          `Viewers of the same key and the same stream find each other through the tracker at ${code(PLAYER_PATHS.tracker)} and exchange segments over WebRTC. Two keys never share a swarm, nor two streams.`,
          `Every ${REPORT_EVERY_S} s, and when the page is hidden, it reports the bytes each viewer got from your CDN and from peers to ${code(PLAYER_PATHS.ingest)}: they are the numbers of the statistics screen.`,
        ],
      },
      { p: PAGE_ORIGIN_RULE },
      {
        p: `Try it on the demo page: ${code(`${origin}${PLAYER_PATHS.demo}?key=${KEY_PLACEHOLDER}`)}. Two browser tabs on it exchange segments, and the Live chart shows both.`,
      },
    ],
    players: [
      {
        p: "Load your player's script, then the plugin, then start both. Each snippet below works as it is once you put your service key in `KEY` and your stream in `SRC` (step 2 of Add domain fills in the key for you). hls.js, Shaka, Video.js and any player on a video element get P2P from the plugin, Clappr and Flowplayer hand the plugin their own hls.js, and Bitmovin and Uppod get CDN-only reporting.",
      },
      { players: 'add-domain' },
    ],
    'more-players': [
      {
        p: 'Beyond the eight players of Add domain, these players get P2P from the plugin too. Each recipe works as it is once you put your service key in `KEY` and your stream in `SRC`, and each was tested as printed here: three viewers, one with each player, shared one stream and reported every byte they took from the CDN. Any other player built on hls.js gets P2P the same way: a player on a video element of the page as in the Other snippet, one that makes its own hls.js as Vidstack or Clappr do.',
      },
      { players: 'more-players' },
    ],
    attach: [
      {
        p: '`TlprtP2P.attach(options)` returns a promise of a handle. It never fails because of the network: when the settings cannot be read the player plays from the CDN and nothing is reported. It throws a `TypeError` when an option is missing or wrong.',
      },
      {
        table: {
          label: 'attach options',
          head: ['Option', 'Meaning'],
          rows: [
            ['`key`', 'The service key (key hash) of your domain.'],
            ['`player`', `One of ${ATTACH_NAMES.map(code).join(', ')}.`],
            ['`instance`', 'hls.js: the `Hls` class. Shaka: the `shaka.Player`. Not needed by the others.'],
            [
              '`src`',
              'The stream’s URL; needed by every player but the CDN-only ones (the swarm is the key and this stream).',
            ],
            ['`video`', 'hls.js: the video element to play in.'],
            ['`hlsConfig`', 'hls.js: your own hls.js settings, kept.'],
            ['`shaka`', 'Shaka: its namespace, when it is not the global shaka.'],
            [
              '`server`',
              'This dashboard’s origin, only when the plugin is not loaded from it (a copy on your own CDN).',
            ],
          ],
        },
      },
      {
        table: {
          label: 'attach handle',
          head: ['Handle', 'Meaning'],
          rows: [
            ['`active`', 'The key is usable: its settings apply and bytes are reported.'],
            ['`peering`', 'This viewer shares segments with others (the peering quota drew it).'],
            ['`sessionId`', 'The random id of this viewer session in the reports.'],
            ['`hls`', 'hls.js: the player the plugin made.'],
            ['`hlsConfig`', 'Clappr: settings for its hls.js (empty when the key is not usable).'],
            [
              '`bindHls(hls)`',
              'Clappr: its hls.js, or a function that returns it. Flowplayer: the Flowplayer player.',
            ],
            ['`addCdnBytes(n)`', 'Bytes the plugin cannot see, reported as CDN bytes.'],
            [
              '`counters(), onUpdate(fn)`',
              'CDN bytes, verified P2P bytes (p2pCrossBytes of them from other networks), refused peer bytes (rejectedBytes), segments taken from the CDN because they could not be verified (unverifiableSegments), uploaded bytes and connected peers of this viewer, now or on each change.',
            ],
            ['`detach()`', 'Sends what is left, stops reporting and sharing; hls.js: destroys its player.'],
          ],
        },
      },
    ],
    settings: [
      {
        p: "Settings are set per team, domain or key on My domains (a key's own value wins over its domain's, which wins over the team's). The plugin reads the key's effective settings once, at attach: a change applies to viewers who start after it.",
      },
      { keySettings: true },
      { p: PLAYER_HELP.segmentDuration },
      { p: PLAYER_HELP.downloadUpload },
      { alert: KEY_NOT_USABLE_HELP },
      {
        p: `What the plugin reads at attach, ${code(`GET ${SETTINGS_PATH}`)}: the settings by id, the ICE servers, and the viewer's network as the tracker sees it (see [Peers of the same network first](#networks)).`,
      },
      { copy: { label: 'Answer', value: json(settingsAnswer), multiline: true } },
    ],
    'ice-servers': [
      {
        p: "Viewers connect to each other over WebRTC. The STUN and TURN servers they use come only from the server's `ICE_SERVERS` setting, handed to the plugin with the key's settings as `iceServers`; no public STUN server or public tracker is ever used behind your back.",
      },
      {
        list: [
          "`ICE_SERVERS` is a comma list of `stun:`, `stuns:`, `turn:` and `turns:` URLs. A TURN URL carries no user or secret (the server refuses to start with one: every page holding a key hash could read it). Instead `TURN_SECRET` is the TURN server's shared secret, and each viewer gets credentials of its own with the key's settings, valid for `TURN_CREDENTIAL_TTL_S`.",
          'Empty (the default): peers connect only where a direct connection works, such as viewers on the same network. A STUN server lets most home connections meet; a TURN server relays the rest.',
          'What TURN costs: a relayed byte crosses the TURN server twice, in from the viewer who uploads it and out to the one who receives it, so relayed peer traffic costs about what the CDN would have. A relay keeps viewers behind strict NATs in the swarm; it does not save their bytes.',
        ],
      },
      {
        copy: {
          label: 'Example',
          value:
            'ICE_SERVERS=stun:turn.example.com:3478,turn:turn.example.com:3478 TURN_SECRET=your-shared-secret',
        },
      },
    ],
    networks: [
      {
        p: 'Viewers who exchange video across networks move its cost from your CDN to their ISPs’ transit links, which is why ISPs throttle peer-to-peer traffic. The tracker therefore introduces each viewer to viewers of its own network first: its ISP’s autonomous system, found from its address (the table the breakdown by network uses), or a range of the server’s `NETWORKS_FILE`.',
      },
      {
        list: [
          `A viewer alone in its network in a stream’s swarm is introduced to others, same country first, so it still gets peers; it takes segments from them after ${PLAYER_OWN_NETWORK_WAIT_MS / 1000} s, time for neighbours who started with it to connect (a viewer of no known network does not wait). Once viewers of its own network are there, it takes segments only from them, while still serving the others that have no one of their own.`,
          'What it costs: each network takes its own copy of every segment from your CDN. Two viewers in each of two networks can reach at most 50 % P2P instead of 75 %; a small swarm spread over many networks offloads less.',
          'Key setting 102 chooses: 2, network first (the default); 1, country first; 0, anyone (matching off: the most offload, on anyone’s transit links).',
          'Operators: `TRACKER_MATCH_MIN_PEERS` (1 by default) is how many peers of its own network a viewer needs before the others are left aside; raise it where networks hold few viewers each. `NETWORKS_FILE` names your own ranges (a campus, an ISP’s own deployment, private addresses) as networks.',
          `Counted: the plugin tells peers of its network by the tag in their peer id, which the tracker checks against each connection’s network, so a copied key hash cannot pass its bytes off as local. Verified P2P bytes from peers of other networks, or of no known network, are its \`p2pCrossBytes\` (in \`counters()\` and the reports); the statistics screen shows “${MSG_STATS.ownNetwork}” and the breakdown by network shows it per network.`,
        ],
      },
    ],
    verification: [
      {
        p: `Your service key stands in your pages, so anyone can copy it and join your viewers’ swarm with a page of their own. The plugin therefore hands your player no byte from a peer before it has checked the whole segment: its SHA-256 must equal the SHA-256 of the same segment as this server fetched it from your origin, at ${code(PLAYER_PATHS.integrity)}. Nothing a peer says about a segment is believed.`,
      },
      {
        list: [
          'A segment that does not match is thrown away, counted as refused peer bytes (the `rejectedBytes` of `counters()` and of the reports, and a red figure on the statistics screen), and loaded again from your CDN or another peer. The peer that sent it is disconnected and never used again by that viewer for that stream.',
          'The server fetches a segment only from your team’s hosts: its verified domains (and their subdomains) and the hosts named by its active Origins. When your streams come from a CDN host that is not one of your domains, add an Origin named with that host (for example `cdn.example.com`) on the Origins screen.',
          'A segment the server cannot vouch for is taken from your CDN only and counted in `unverifiableSegments`: on a host that is not yours, peers are switched off for the whole stream; when your origin fails or is slow, for that segment.',
          'Your viewers each ask the server for the hash of a segment a peer sends them, as the download begins, so verification adds a few milliseconds when the segment is complete.',
          'Not verified: what your CDN sends (it is your origin’s) and the playlists, which always come from your CDN.',
        ],
      },
      {
        p: `What verification costs your origin depends on where the server finds a segment’s SHA-256. It takes the cheapest source there is, in the order of the table, and remembers the hash once for all its nodes and every viewer of the stream. The bytes it had to fetch are counted per key and minute as ${VERIFICATION_LABEL} (\`verifyDwSize\`), and the statistics screen shows, beside the P2P share, the ${MSG_STATS.originSaving.toLowerCase()} they leave: push your hashes or send digests, and the two are equal.`,
      },
      {
        table: {
          label: 'What a segment’s hash costs your origin',
          head: ['Source', 'How', 'Your origin serves'],
          rows: [
            [
              'Pushed by your packager',
              `${code(`POST ${PLAYER_PATHS.hashes}`)} with an API token of scope “hashes” (Team settings, ${MSG_TOKENS.title}: “${MSG_HASHES.scopeLabel}”): \`{"hashes": [{"url", "sha256", "range"?}]}\`, at most ${LIMITS.hashesPerPush.toLocaleString('en-US')} a request, for URLs on your domains and Origins. A pushed hash wins over any other.`,
              'Nothing.',
            ],
            [
              'Stated by your origin',
              'A `HEAD` of the segment answered with `Repr-Digest: sha-256=:…:` (RFC 9530); or `Content-Digest` on a `GET`; or, from S3, `x-amz-checksum-sha256` of a single-part object (asked with `x-amz-checksum-mode: ENABLED`). A digest covers the whole file: a byte range inside a file is fetched.',
              'A `HEAD`: headers, no body.',
            ],
            [
              'Fetched',
              'When neither of the above: the segment (or its byte range) is read from your origin and hashed as it streams in.',
              `One copy of each segment peers share, per cluster (not per node or viewer), counted as ${VERIFICATION_LABEL}.`,
            ],
          ],
        },
      },
    ],
    reports: [
      {
        p: `A player of your own, or an edge server, can report without the plugin. Each report counts the bytes one viewer session received since its previous report. The plugin sends one every ${REPORT_EVERY_S} s and when the page is hidden (\`fetch\` with \`keepalive\`); do the same, and keep bytes whose report failed for the next one.`,
      },
      {
        p: `Send ${code(`POST ${origin}${PLAYER_PATHS.ingest}`)} with \`Content-Type: application/json\`:`,
      },
      { copy: { label: 'Request body', value: json(ingestBody), multiline: true } },
      {
        table: {
          label: 'Report fields',
          head: ['Field', 'Meaning'],
          rows: [
            ['`apiKey`', 'The service key (key hash).'],
            [
              '`sessionId`',
              'One viewer session: 1 to 200 characters, random (the plugin uses 128 random bits).',
            ],
            [
              '`ts`',
              `Unix time in seconds; at most ${INGEST_MAX_SKEW_S / 60} minutes from the server's clock.`,
            ],
            [
              '`cdnBytes, p2pBytes`',
              `Whole bytes since this session's previous report, from the CDN and from peers: 0 to ${INGEST_MAX_BYTES.toLocaleString('en-US')} (4 GiB) each. ${PLAYER_BYTES_COUNTED}`,
            ],
            [
              '`nodrBytes`',
              `Optional, the same range: bytes a third source delivered, neither your CDN nor peers (the NODR series). ${SERIES.nodrBytes.description}`,
            ],
            [
              '`rejectedBytes`',
              'Optional, the same range: bytes peers sent that failed verification and were thrown away (not in p2pBytes, not a viewer).',
            ],
            [
              '`p2pCrossBytes`',
              'Optional, at most p2pBytes: of the P2P bytes, those received from peers of another network than the viewer’s, or of no known one (see [Peers of the same network first](#networks)).',
            ],
            [
              '`seq`',
              'Optional whole number, increasing per session. A report whose key, session and seq were already counted is accepted but not counted again.',
            ],
          ],
        },
      },
      {
        p: 'The answer is 202, with one verdict per report (the rest of a batch is kept when one is rejected):',
      },
      { copy: { label: '202 Accepted', value: json(ingestAnswer), multiline: true } },
      {
        list: [
          `\`errors\` describes the first ${INGEST_MAX_ERRORS} rejected reports by index. Reasons: ${Object.values(
            INGEST_ERRORS,
          )
            .map((m) => `“${m}”`)
            .join('; ')}; and a field out of its range.`,
          'Retries: keep a report, with its `seq`, until a 202 answers it, and send it again with the next ones. The server counts it once, so a retry after a lost answer never counts twice.',
          `A body that is not \`{"reports": [...]}\` answers 400; a body over ${LIMITS.ingestBodyBytes / 1024 / 1024} MiB answers 413.`,
          "Origin: a browser's report is counted only when its page may use the key (https:// on the standard port; http:// only with the domain's “Plain HTTP pages” option: see How it works) or is on this dashboard (the demo page); others are rejected. The ingest answers CORS, preflight included, for exactly those origins, so players on your site can post to it. Reports without an `Origin` header (server-side reporters) are accepted.",
          `Without a token, as browsers send them, one request carries the reports of one session (at most ${INGEST_ANONYMOUS_MAX_REPORTS}); each client address (an IPv6 /64) and each key has a budget of reports per minute on every server, past which the answer is 429 with \`Retry-After\`: keep the reports and send them again later.`,
          "An edge server reporting many sessions at once sends `Authorization: Bearer <token>` with an API token of your team of scope “ingest” (Team settings): its batches may hold many sessions of your team's keys and are not held to the address budget. A token that is not valid answers 401.",
          `“${INGEST_ERRORS.sessionForgotten}”: under load the server may forget a session; its reports are then refused rather than risk counting one twice. Go on under a new \`sessionId\` and send the refused bytes again (the plugin does).`,
        ],
      },
      {
        copy: {
          label: 'From a server',
          value: `curl -X POST ${origin}${PLAYER_PATHS.ingest} \\\n  -H 'Content-Type: application/json' \\\n  -H 'Authorization: Bearer <API token>' \\\n  -d '${JSON.stringify({ reports: [{ ...ingestBody.reports[0], ts: 1767225600 }] })}'`,
          multiline: true,
        },
      },
    ],
    statistics: [
      {
        p: "The chart adds up the reports of the keys ticked in the list, per point of time: Bandwidth above, Viewers below. Times are shown in your profile's time zone.",
      },
      {
        table: {
          label: 'Statistics numbers',
          head: ['Number', 'What it is'],
          rows: [
            [
              'CDN (bandwidth)',
              'The cdnBytes of all reports in the point, shown as an average rate: bytes × 8 ÷ the step in seconds.',
            ],
            [
              'P2P (bandwidth)',
              'The same for p2pBytes: what viewers got from each other instead of your CDN.',
            ],
            ['NODR', SERIES.nodrBytes.description],
            [
              'P2P share',
              'P2P bytes ÷ all bytes over the visible range (zoom changes it). The higher, the less your CDN served.',
            ],
            ['Total traffic', 'All bytes over the visible range: CDN + P2P (+ NODR).'],
            [
              'Viewers per series',
              'CDN viewers: distinct sessions that got CDN bytes in the minute; P2P viewers: those that got bytes from peers. A session fed by both counts in both.',
            ],
            [
              'Distinct viewers',
              'Sessions with any bytes in the minute, each counted once: the audience, drawn as the Viewers line over the bars. It is never more than CDN viewers + P2P viewers, nor less than the larger of the two.',
            ],
            [
              'Peak viewers',
              'The most distinct viewers at one point of the visible range: the audience at its peak, each session counted once.',
            ],
            [MSG_STATS.originSaving, MSG_STATS.originSavingGuide],
            [MSG_STATS.ownNetwork, MSG_STATS.ownNetworkGuide],
            [MSG_STATS.refusedBytes, MSG_STATS.refusedGuide],
          ],
        },
      },
      {
        table: {
          label: 'Time ranges',
          head: ['Range', 'Window', 'Step', 'A point holds'],
          rows: (['live', 'day', 'week', 'month'] as const).map((r) => {
            const { step, window: w } = STATS_RANGES[r];
            return [
              `${r[0]?.toUpperCase()}${r.slice(1)}`,
              r === 'live' ? `last ${seconds(w)}, refreshed every 3 s` : `last ${days(w)}`,
              `${step} s`,
              step === 60
                ? r === 'live'
                  ? 'One minute; the current, still-open minute included.'
                  : 'One minute.'
                : `${seconds(step)}: bytes summed over its minutes; viewer counts are those of its peak minute.`,
            ];
          }),
        },
      },
      {
        p: `Bytes reach the chart with the next report (at most ${REPORT_EVERY_S} s after they were loaded). Reports of a key that is inactive, suspended or deleted are not counted.`,
      },
    ],
    glossary: [
      {
        p: 'Every series the statistics count, as the chart, the CSV exports and the export API name them. A point of a range holds each series over its step; how a series adds up over several minutes and several keys is in the last column.',
      },
      { glossary: true },
    ],
    export: [
      {
        p: `A program reads your team's statistics with an API token of scope “statistics” (Team settings, ${MSG_TOKENS.title}: “${SCOPE_CHOICE.statistics.label}”), sent as \`Authorization: Bearer <token>\` on ${code(`GET ${origin}${STATS_EXPORT.path}`)}. Parameters: \`range\` (${Object.keys(STATS_RANGES).join(', ')}), \`keys\` (key hashes of the token's team, separated by commas), optionally \`from\` and \`to\` (Unix seconds, within the range's window), \`by\` (${BREAKDOWN_DIMENSIONS.join(', ')}) for a breakdown instead of points, and \`format\` (\`json\`, the default, or \`csv\`). The answer is the chart's: points with the fields of the glossary, or breakdown rows. A token of another scope or a revoked one answers 401 (“${MSG_STATS_EXPORT.badToken}”), a key of another team 400, and more than ${STATS_EXPORTS_PER_MINUTE} exports a minute with one token 429.`,
      },
      { copy: { label: 'Export example', value: statsExportCurl(origin, '<API token>'), multiline: true } },
    ],
    alerts: [
      {
        p: `An alert (the Alerts screen, ${code(WEB_PATHS.alerts)}) watches one metric of your keys over a window of 1 to ${LIMITS.alertWindowMinutesMax} closed minutes, and only while the window had at least its minimum of viewers. When its condition starts to hold an incident opens; when it stops holding the incident resolves. Each is told once, never once a minute: by e-mail to the members of the roles you chose, and by a signed POST to your webhook URL. A team has at most ${LIMITS.alertsPerTeam} alerts; Admins and Key masters manage them, every member sees them.`,
      },
      {
        table: {
          label: 'Alert metrics',
          head: ['Metric', 'Name in the API', 'What it is'],
          rows: ALERT_METRICS.map((m) => [
            ALERT_METRIC_INFO[m].label,
            code(m),
            ALERT_METRIC_INFO[m].description,
          ]),
        },
      },
      {
        p: "Each delivery is a `POST` of JSON to your URL: `type` is `alert.opened`, `alert.resolved` or `alert.test` (the Send test button), `id` the delivery's id, `alert` the rule as it was, `value` the metric's value of the window (percentages from 0 to 100, bytes, milliseconds or viewers), `openedAt` and `resolvedAt` the incident's times (ISO 8601, UTC).",
      },
      { copy: { label: 'Webhook body', value: JSON.stringify(webhookExample, null, 2), multiline: true } },
      {
        table: {
          label: 'Webhook headers',
          head: ['Header', 'Value'],
          rows: [
            ['Content-Type', '`application/json`'],
            [WEBHOOK_HEADERS.delivery, "The delivery's id, the same on every retry: handle each id once."],
            [
              WEBHOOK_HEADERS.signature,
              '`t=<unix seconds>,v1=<hex>`: `v1` is the HMAC-SHA256, keyed with your webhook secret, of `t`, a dot and the raw body as sent.',
            ],
          ],
        },
      },
      {
        list: [
          'The secret (`whsec_…`) is shown once: when the alert gets its webhook URL, and each time you rotate it (Rotate secret); deliveries are signed with the new one at once.',
          "Answer with any 2xx within 10 s. Anything else, or no answer in time, is retried with the same delivery id and growing delays (the first retry within 30 s) until a 2xx comes, for 24 h; then the delivery is given up. Every attempt (time, status, duration, error) is in the alert's delivery log.",
          'Redirects are not followed, and a URL whose host resolves to a private, loopback or link-local address is refused.',
          'Check the signature first, over the raw bytes of the body (parsing and serializing the JSON again changes them); compare it in constant time, and refuse a `t` older than 5 minutes, so that a captured delivery cannot be replayed.',
        ],
      },
      { copy: { label: 'Verify a delivery (Node)', value: WEBHOOK_VERIFY_SNIPPET, multiline: true } },
    ],
    api: [
      {
        p: 'Every HTTP endpoint of the dashboard, with its request and answer schemas, is in the API reference.',
      },
      { apiReference: 'Open the API reference' },
    ],
  };
}
