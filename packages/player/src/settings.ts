import {
  KEY_SETTING_RANGES,
  KeySettingId,
  PeerMatching,
  PLAYER_PATHS,
  peerIdPrefixOf,
  swarmIdOf,
  type TIceServer,
  trackerNodeFor,
  trackerNodeOrder,
  trackerShardOf,
  UNKNOWN_NETWORK_TAG,
} from '@tlprt/contract';
import type { FailoverPlan } from './tracker-failover.js';

/** A key's effective settings as the plugin uses them (the guide's "Key settings" table). */
export interface PlayerSettings {
  /** 12, seconds. */
  downloadTimeoutS: number;
  /** 13, seconds. */
  minBufferS: number;
  /** 13 differs from its default (someone set it): it holds for live streams too (live.ts). */
  minBufferSet: boolean;
  /** 101, percent of viewers that open peering (0: none). */
  peeringQuota: number;
  iceServers: TIceServer[];
  /** The TRACKER_NODES that answer (empty: the tracker of the server that answered). */
  trackerNodes: string[];
  /** Every TRACKER_NODES node, answering or not (an older server: the same as trackerNodes). */
  trackerNodesAll: string[];
  /** The viewer's network tag (its peer id carries it); undefined from an older server. */
  networkTag: string | undefined;
  /** With this many peers of its own network the viewer leaves the others aside (own-network.ts);
   *  0 when the key's matching (102) is not by network. */
  ownNetworkFirst: number;
}

/** What the settings answer says of the viewer's network. */
export interface NetworkAnswer {
  networkTag?: string | undefined;
  matchMinPeers?: number | undefined;
}

function setting(values: Record<string, number>, id: number): number {
  const range = KEY_SETTING_RANGES[id];
  if (!range) throw new Error(`unknown setting ${id}`);
  const v = values[String(id)];
  // A value outside its range (an older server, a hand-edited row) falls back to the default.
  return typeof v === 'number' && Number.isFinite(v) && v >= range.min && v <= range.max ? v : range.default;
}

export function readSettings(
  values: Record<string, number>,
  iceServers: TIceServer[],
  trackerNodes: string[] = [],
  trackerNodesAll: string[] = trackerNodes,
  network: NetworkAnswer = {},
): PlayerSettings {
  const minBufferS = setting(values, KeySettingId.MinBufferSize);
  const byNetwork = setting(values, KeySettingId.PeerMatching) === PeerMatching.Network;
  return {
    downloadTimeoutS: setting(values, KeySettingId.DownloadTimeout),
    minBufferS,
    minBufferSet: minBufferS !== KEY_SETTING_RANGES[KeySettingId.MinBufferSize]?.default,
    peeringQuota: setting(values, KeySettingId.PeeringOpeningQuota),
    iceServers,
    trackerNodes,
    trackerNodesAll: trackerNodesAll.length > 0 ? trackerNodesAll : trackerNodes,
    networkTag: network.networkTag,
    // A viewer of no known network has no own peers to wait for: the tracker matches it with anyone.
    ownNetworkFirst:
      byNetwork && network.networkTag !== undefined && network.networkTag !== UNKNOWN_NETWORK_TAG
        ? (network.matchMinPeers ?? 1)
        : 0,
  };
}

/** Whether this viewer opens peering: the quota is the share of viewers that do (drawn once per attach). */
export function opensPeering(quota: number, random: () => number = Math.random): boolean {
  return quota > 0 && random() * 100 < quota;
}

/** The part of p2p-media-loader's core configuration the plugin sets (the rest keeps its defaults). */
export interface CoreSettings {
  announceTrackers: string[];
  rtcConfig: { iceServers: TIceServer[] };
  swarmId: string;
  isP2PDisabled: boolean;
  isP2PUploadDisabled: boolean;
  highDemandTimeWindow: number;
  httpDownloadTimeWindow: number;
  p2pDownloadTimeWindow: number;
  p2pNotReceivingBytesTimeoutMs: number;
  httpDownloadInitialTimeoutMs: number;
  simultaneousP2PDownloads: number;
  /** The peer id's start: the viewer's network tag, which the tracker checks (contract player.ts). */
  trackerClientVersionPrefix?: string;
}

/** A stream's tracker URL on `node`: the key (the tracker keeps each key's swarms apart) and the swarm's
 *  shard, for a node whose tracker runs in several processes. */
export function trackerUrlOn(node: string, key: string, streamUrl: string): string {
  const shard = trackerShardOf(swarmIdOf(key, streamUrl));
  return `${node.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}?key=${encodeURIComponent(key)}&shard=${shard}`;
}

/**
 * The tracker a stream's viewers meet on: with TRACKER_NODES, the first live node of the swarm's
 * rendezvous order, the same for every viewer whichever server answered its settings; else the
 * server's own.
 */
export function trackerUrlFor(server: string, s: PlayerSettings, key: string, streamUrl: string): string {
  return trackerUrlOn(swarmNodeFor(server, s, key, streamUrl), key, streamUrl);
}

/**
 * The server a stream's viewers meet on and ask their segments' hashes of: every viewer of a swarm
 * asks the same node, so one node's memory serves the whole swarm and the origin is read once per
 * segment for the cluster, not once per node.
 */
export function swarmNodeFor(server: string, s: PlayerSettings, key: string, streamUrl: string): string {
  return trackerNodeFor(swarmIdOf(key, streamUrl), s.trackerNodes) ?? server;
}

/**
 * Where a stream's tracker goes when its node dies (tracker-failover.ts): every node in the swarm's
 * rendezvous order, starting at the first live one (swarmNodeFor). A node the settings left out as dead
 * stays in the order, so viewers move back to it once it answers again.
 */
export function failoverPlanFor(
  server: string,
  s: PlayerSettings,
  key: string,
  streamUrl: string,
): FailoverPlan {
  const swarm = swarmIdOf(key, streamUrl);
  const first = swarmNodeFor(server, s, key, streamUrl);
  const all = trackerNodeOrder(swarm, s.trackerNodesAll);
  const order = all.includes(first) ? all : [first, ...all];
  return {
    order,
    start: order.indexOf(first),
    shard: trackerShardOf(swarm),
    urlOn: (node) => trackerUrlOn(node, key, streamUrl),
  };
}

/** How long the first segments of a stream wait for peers before the CDN (12, at most 2 s). */
export const openingWaitMs = (s: PlayerSettings): number => Math.min(2000, s.downloadTimeoutS * 1000);

/**
 * The mapping of docs/DESIGN.md §11 and the guide:
 * - 13 min buffer size → `highDemandTimeWindow`: what plays within it is fetched at once (from the CDN
 *   when no peer has it); the engine also caps hls.js's forward buffer to it.
 * - HTTP prefetch beyond that window is limited to the same window, so segments further ahead are left
 *   to peers (the library's default lets HTTP prefetch 3000 s ahead, which is why its share was ~30%).
 * - 12 download timeout → `p2pNotReceivingBytesTimeoutMs`: a peer that sends nothing for that long loses
 *   the segment to the CDN; the first segments also wait up to that long (at most 2 s) for peers
 *   (`openingWaitMs`), except the one the player needs to start: attach applies the wait per stream once
 *   its first download has begun (opening.ts), and not at all to a viewer without peering.
 * - 101 peering quota → `isP2PDisabled` (and no upload) for viewers outside the quota.
 * The swarm is the key and the stream together: two customers' viewers never meet, nor two streams.
 */
export function coreSettings(
  s: PlayerSettings,
  where: { trackerUrl: string; key: string; streamUrl: string },
  peering: boolean,
): CoreSettings {
  return {
    announceTrackers: [where.trackerUrl],
    rtcConfig: { iceServers: s.iceServers },
    swarmId: swarmIdOf(where.key, where.streamUrl),
    isP2PDisabled: !peering,
    isP2PUploadDisabled: !peering,
    highDemandTimeWindow: s.minBufferS,
    httpDownloadTimeWindow: s.minBufferS * 2,
    p2pDownloadTimeWindow: Math.max(60, s.minBufferS * 6),
    p2pNotReceivingBytesTimeoutMs: s.downloadTimeoutS * 1000,
    httpDownloadInitialTimeoutMs: openingWaitMs(s),
    simultaneousP2PDownloads: 3,
    ...(s.networkTag === undefined ? {} : { trackerClientVersionPrefix: peerIdPrefixOf(s.networkTag) }),
  };
}
