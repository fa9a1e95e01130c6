import { KeySettingId } from './constants.js';

/**
 * Help texts of the key settings (spec §5: "Help text for settings"), shown in the key settings modals
 * and in the integration guide, with their units. The ids are spec §3's; what the plugin does with each
 * value is the guide's "Key settings" table.
 */
export const KEY_SETTING_HELP: Record<number, string> = {
  [KeySettingId.DownloadTimeout]:
    'Download timeout, in seconds: how long the player waits for a segment from a peer before it takes the segment from the CDN instead.',
  [KeySettingId.MinBufferSize]:
    'Min buffer size, in seconds of video: what the player keeps loaded ahead of the playhead. Segments needed within this time come from the CDN at once; those further ahead are asked from peers first.',
  [KeySettingId.PeeringOpeningQuota]:
    'Peering opening quota, in percent (0 to 100): the share of viewers of this key that open peer-to-peer connections. 0 turns peering off: every byte comes from the CDN.',
  [KeySettingId.PeerMatching]:
    'Peer matching (2, 1 or 0): whom the tracker introduces a viewer to. 2, network first (default): viewers of its own network (its ISP, or an operator’s own ranges), others only when none of its network watches the stream, same country before the rest. 1, country first: viewers of its own country or network, others only when there are none. 0, anyone: any viewer of the stream.',
};

/** Spec §5's help items that are not per-key settings: what decides them. */
export const PLAYER_HELP = {
  segmentDuration:
    'Segment duration, in seconds: set by the stream itself (its packager), not by a key setting. Shorter segments reach peers sooner; 2 to 6 seconds work well.',
  downloadUpload:
    'Download and upload on/off: a viewer both downloads from and uploads to peers while peering is on for its key; a peering opening quota of 0 turns both off.',
} as const;

/**
 * What the plugin does with each key setting (the guide's "Key settings" table). The numbers are
 * those of coreSettings() in packages/player/src/settings.ts: change one, change both.
 */
export const KEY_SETTING_LOADER: Record<number, string> = {
  [KeySettingId.DownloadTimeout]:
    'Becomes the P2P loader’s p2pNotReceivingBytesTimeoutMs (the value × 1000): a peer that sends nothing for that long loses the segment to the CDN. The segments right after the first also wait that long, at most 2 s, for a peer before they are taken over HTTP; the segment the player needs to start never waits, nor does a viewer without peering.',
  [KeySettingId.MinBufferSize]:
    'Becomes highDemandTimeWindow: what plays within this many seconds is fetched at once, from the CDN when no peer has it, and players built on hls.js keep about this much buffered. HTTP prefetch reaches twice as far (httpDownloadTimeWindow); peers are asked for segments up to six times as far, at least 60 s (p2pDownloadTimeWindow). A larger value leaves more time for peers and raises the P2P share. Live streams: while this setting keeps its default, players built on hls.js set their own windows from the live playlist: high demand is one and a half segments, HTTP prefetch and peers reach the live edge, and the player plays all listed segments but one behind the edge, so each new segment reaches peers before anyone needs it. Set a value to keep this mapping for live streams too.',
  [KeySettingId.PeeringOpeningQuota]:
    'Each viewer draws once, at attach, whether it opens peering: with 30, about 30 % of viewers download from and upload to peers, the others use only the CDN (isP2PDisabled and isP2PUploadDisabled). 0 turns P2P off for the key; every viewer is still counted as CDN traffic.',
  [KeySettingId.PeerMatching]:
    'The tracker applies it to the peers it answers each announce with; with 2, the plugin also leaves peers of other networks aside (it takes nothing from them, still serves them) once it has TRACKER_MATCH_MIN_PEERS peers of its own network. A network is the autonomous system of the viewer’s address, or a range of the server’s NETWORKS_FILE; matching within networks keeps P2P traffic off the ISPs’ transit links, but each network then takes its own copy of every segment from the CDN. A changed value applies to viewers who start after it.',
};

/** Which pages may use a key (the Origin rule of the ingest, the settings read, the tracker and the
 *  integrity service): the guide says it where it speaks of keys and of reports. */
export const PAGE_ORIGIN_RULE =
  'A key works on https:// pages of its verified, active domain and of that domain’s subdomains (a key of every domain: of any of the team’s), on the standard port only: a page such as https://example.com:8443 is refused. http:// pages (port 80 only) are accepted when the domain’s “Plain HTTP pages” option is on (My domains, in the domain’s panel); it is off for a new domain. Pages of this dashboard itself (the demo page) are accepted too.';

/** What a viewer's cdnBytes and p2pBytes count (the guide's report format). */
export const PLAYER_BYTES_COUNTED =
  'Counted: the bodies of media segments, init segments included, as an origin’s access log counts body bytes; not playlists, manifests or HTTP headers. With hls.js, Shaka (HLS and DASH) and players built on hls.js every segment is counted, also one the player loads outside the P2P engine; with CDN-only players, what the page’s resource timing shows (a cross-origin segment only when its server sends Timing-Allow-Origin).';

/** A key the plugin cannot use: what the guide and the modals say about it. */
export const KEY_NOT_USABLE_HELP =
  'A key that is inactive, suspended or deleted, or whose domain or team is, answers 404 to the plugin: the player then plays from the CDN only and the plugin reports nothing for it.';
