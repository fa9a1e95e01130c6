import { endpointPath } from './endpoint.js';

/**
 * The path patterns of the plugin's two calls, the `path` of KEY_SETTING_ENDPOINTS.publicRead and
 * STATISTICS_ENDPOINTS.ingest. They live here, not in those descriptors, because the plugin's bundle
 * includes this file: importing a descriptor would pull zod and the schemas in (174 kB → 640 kB).
 */
export const PLAYER_API_PATHS = {
  settings: '/api/v1/public/key_settings/:keyHash',
  ingest: '/stats/v1/ingest',
} as const;

/**
 * The player plugin and what the server serves for it (docs/DESIGN.md §11). The plugin's server is the origin
 * the plugin was loaded from, so every other path here is taken relative to it.
 */
export const PLAYER_PATHS = {
  /** The plugin bundle (global `TlprtP2P`). */
  bundle: '/player/v1/tlprt-p2p.min.js',
  /** WebTorrent tracker (WebSocket upgrade on the server's own port). */
  tracker: '/tracker',
  /** A tracker node's liveness (TRACKER_NODES): 204 while it takes connections; `?shard=<n>`: 503 while
   *  that shard's worker process restarts. Polled by the other nodes and by a plugin waiting to move
   *  back to its swarm's first node. */
  alive: '/player/v1/alive',
  /** Demo page (not in production): `?key=<keyHash>`. */
  demo: '/demo/player',
  /** The demo HLS stream. */
  demoStream: '/demo/stream/index.m3u8',
  /** The same segments as EXT-X-BYTERANGE ranges (the demo page's `?stream=byterange`). */
  demoByteRangeStream: '/demo/stream/byterange.m3u8',
  /** A live stream made of the same segments, looped by the clock (the demo page's `?stream=live`). */
  demoLiveStream: '/demo/stream/live.m3u8',
  /** The same picture and tone as DASH (the demo page's `?stream=dash`). */
  demoDashStream: '/demo/stream/dash/manifest.mpd',
  /** The integration guide (the "Documentation" links). */
  guide: '/docs',
  /** What the plugin reads at attach (404: the key is not usable here). */
  settings: (keyHash: string) => endpointPath({ path: PLAYER_API_PATHS.settings }, { keyHash }),
  /** Where it reports (docs/DESIGN.md §7). */
  ingest: PLAYER_API_PATHS.ingest,
  /** The origin's SHA-256 of a segment, the reference every peer's copy is held to (docs/DESIGN.md §11
   *  Integrity): `?key=<keyHash>&url=<absolute segment URL>[&range=<start>-<end>]`, `end` included. */
  integrity: '/player/v1/integrity',
  /** Where a team's packager publishes its segments' SHA-256 (POST, an API token of scope `hashes`). */
  hashes: '/player/v1/hashes',
} as const;

/** How often the plugin reports (and on page hide). */
export const PLAYER_REPORT_INTERVAL_MS = 10_000;
/** Unacknowledged reports a plugin keeps for its next send (older ones are dropped with their bytes). */
export const PLAYER_MAX_PENDING_REPORTS = 30;

/** One ICE server handed to the plugins (ICE_SERVERS; turn: ones with per-viewer credentials signed with TURN_SECRET). */
export interface TIceServer {
  urls: string;
  username?: string;
  credential?: string;
}

/** What the plugin reads of `GET /api/v1/public/key_settings/{keyHash}` (ZPublicKeySettingsResponse). */
export interface TPlayerSettingsBody {
  data: {
    keyHash: string;
    settings: Record<string, number>;
    iceServers: TIceServer[];
    /** TRACKER_NODES: the servers whose trackers share the swarms (absent: the answering server's). */
    trackerNodes?: string[];
    /** Every TRACKER_NODES node, answering or not (trackerNodes holds the live ones). */
    trackerNodesAll?: string[];
    /** The viewer's network as the tracker sees it (networkTagOf); absent from an older server. */
    networkTag?: string;
    /** TRACKER_MATCH_MIN_PEERS: with this many peers of its own network, a viewer leaves the others'
     *  aside (the tracker offers them only while its network has fewer). */
    matchMinPeers?: number;
  };
}

/** A 53-bit hash of a string (the cyrb53 mixing of two 32-bit lanes): the same in every browser and in
 *  the server, with no crypto API to wait for. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A swarm: a key and a stream together (the stream's URL without its query), so two customers' viewers
 *  never meet, nor two streams; also what places the swarm on a tracker node. */
export const swarmIdOf = (key: string, streamUrl: string): string => `${key}:${streamUrl.split('?')[0]}`;

/**
 * TRACKER_NODES in a swarm's rendezvous order: by the hash of each node with the swarm id, highest
 * first (ties by name). Every viewer of a stream computes the same order whichever server answered its
 * settings, so when a node dies they all move to the same next one (the plugin's tracker failover), and
 * a node added or removed moves only the swarms it wins or held. Of a subset of the nodes (the live
 * ones), the order is the full order with the others left out.
 */
export function trackerNodeOrder(swarmId: string, nodes: readonly string[]): string[] {
  return [...new Set(nodes)]
    .map((node) => ({ node, h: hash53(`${node}\n${swarmId}`) }))
    .sort((a, b) => b.h - a.h || (a.node < b.node ? -1 : a.node > b.node ? 1 : 0))
    .map((x) => x.node);
}

/** The tracker node of a swarm: the first of `nodes` in its rendezvous order (trackerNodeOrder). */
export const trackerNodeFor = (swarmId: string, nodes: readonly string[]): string | undefined =>
  trackerNodeOrder(swarmId, nodes)[0];

/**
 * The shards a tracker node may spread its swarms over. The plugin names its swarm's shard in the
 * tracker URL (`shard`), so a node whose tracker runs in several processes (TRACKER_WORKERS) hands the
 * connection to the process holding the swarm before any message is read: every viewer of a stream
 * meets in one process.
 */
export const TRACKER_SHARDS = 4096;

/** The shard of a swarm (0 ≤ shard < TRACKER_SHARDS); a hash apart from the node's, so the shards of one
 *  node's swarms are spread as evenly as those of all swarms. */
export const trackerShardOf = (swarmId: string): number => hash53(`shard\n${swarmId}`) % TRACKER_SHARDS;

/**
 * The peer-id convention that tells a viewer which peers are of its own network (issue 40). The public
 * settings read answers the viewer's network tag, the plugin puts it in its peer id
 * (`-TL` + tag + `-` + random), and the tracker refuses a `-TL` peer id whose tag is not its
 * connection's: a copied key hash cannot make its bytes count as within a network it is not in. The
 * receiving plugin reads the tag of the peer each byte came from. Peer ids are 20 ASCII characters
 * (p2p-media-loader, BitTorrent); a tag takes 4 of them, leaving 12 random ones (62^12).
 */
export const PEER_ID_PREFIX = '-TL';
/** The tag of an address no table names: such a viewer is in no known network, its own neither. */
export const UNKNOWN_NETWORK_TAG = '0000';
export const NETWORK_TAG_PATTERN = /^[0-9A-Za-z]{4}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A network's tag: 4 base-62 characters of a hash of its name (`AS15169`); '' (unknown) is
 *  UNKNOWN_NETWORK_TAG, which no known network's tag equals. */
export function networkTagOf(network: string): string {
  if (network === '') return UNKNOWN_NETWORK_TAG;
  let h = hash53(`network\n${network}`);
  let tag = '';
  for (let i = 0; i < 4; i++) {
    tag += BASE62[h % 62];
    h = Math.floor(h / 62);
  }
  return tag === UNKNOWN_NETWORK_TAG ? '0001' : tag;
}

/** How long a viewer that has no peer of its own network yet takes nothing from other networks' peers
 *  (the CDN serves it meanwhile): viewers of one network who arrive together find each other first,
 *  instead of the first of them pulling segments across while its neighbours connect. 8 s: with 3 s, a
 *  neighbour's WebRTC connection on a loaded machine sometimes came after it (7.8–16.6% of the bytes
 *  between viewers crossed in the browser test, against 1–5.8% when it came in time); with 5 s it still
 *  did on a loaded machine (14–15% crossed in two tries in a row). Waiting costs a lone viewer of a
 *  known network P2P in its first seconds, never a stall: the CDN serves it meanwhile. */
export const PLAYER_OWN_NETWORK_WAIT_MS = 8000;

/** The plugin's peer-id prefix for a network tag (p2p-media-loader's trackerClientVersionPrefix). */
export const peerIdPrefixOf = (tag: string): string => `${PEER_ID_PREFIX}${tag}-`;

/** The network tag a peer id carries; undefined for a peer id of another convention. */
export function networkTagOfPeerId(peerId: string): string | undefined {
  if (peerId.length !== 20 || !peerId.startsWith(PEER_ID_PREFIX) || peerId[7] !== '-') return undefined;
  const tag = peerId.slice(3, 7);
  return NETWORK_TAG_PATTERN.test(tag) ? tag : undefined;
}

/** Whether bytes between two peers of these tags stayed within one network: both known and equal. */
export const sameNetwork = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && a !== UNKNOWN_NETWORK_TAG && a === b;

const isIceServer = (v: unknown): v is TIceServer => {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.urls === 'string' &&
    (o.username === undefined || typeof o.username === 'string') &&
    (o.credential === undefined || typeof o.credential === 'string')
  );
};

/**
 * ZPublicKeySettingsResponse checked without zod: the plugin runs in customers' pages, where zod would
 * triple its size. player.test.ts holds this guard and the schema to the same answers.
 */
export function isPlayerSettingsBody(v: unknown): v is TPlayerSettingsBody {
  if (typeof v !== 'object' || v === null) return false;
  const d = (v as { data?: unknown }).data;
  if (typeof d !== 'object' || d === null) return false;
  const o = d as Record<string, unknown>;
  if (typeof o.keyHash !== 'string' || !Array.isArray(o.iceServers) || !o.iceServers.every(isIceServer))
    return false;
  if (
    o.networkTag !== undefined &&
    !(typeof o.networkTag === 'string' && NETWORK_TAG_PATTERN.test(o.networkTag))
  )
    return false;
  const min = o.matchMinPeers;
  if (min !== undefined && !(typeof min === 'number' && Number.isInteger(min) && min >= 1)) return false;
  for (const nodes of [o.trackerNodes, o.trackerNodesAll])
    if (nodes !== undefined && !(Array.isArray(nodes) && nodes.every((n) => typeof n === 'string')))
      return false;
  const s = o.settings;
  return (
    typeof s === 'object' &&
    s !== null &&
    !Array.isArray(s) &&
    Object.values(s).every((x) => typeof x === 'number')
  );
}

/** What the plugin reads of `GET /player/v1/integrity` (ZIntegrityResponse). */
export interface TIntegrityBody {
  /** 64 lower-case hex digits. */
  sha256: string;
}

/** ZIntegrityResponse checked without zod (the plugin's bundle stays small); player.test.ts holds the
 *  two to the same answers. */
export function isIntegrityBody(v: unknown): v is TIntegrityBody {
  if (typeof v !== 'object' || v === null) return false;
  const h = (v as { sha256?: unknown }).sha256;
  return typeof h === 'string' && /^[0-9a-f]{64}$/.test(h);
}

/** Messages of the plugin's routes. */
export const MSG_PLAYER = {
  notBuilt: 'The player plugin is not built on this server (npm run build)',
  noSuchDemoFile: 'No such file of the demo page',
} as const;
