import { networkTagOfPeerId, PLAYER_OWN_NETWORK_WAIT_MS, sameNetwork } from '@tlprt/contract';
import { enginePeers } from './peer-drop.js';

/** What p2p-media-loader-core 2.3.1's loader asks a peer before downloading a segment from it. */
interface SegmentHolder {
  getSegmentStatus(segment: unknown): string | undefined;
}
const isSegmentHolder = (p: unknown): p is SegmentHolder =>
  typeof p === 'object' && p !== null && typeof (p as SegmentHolder).getSegmentStatus === 'function';

/**
 * Peers of the viewer's own network first (issue 40), the plugin's half of the tracker's matching. The
 * tracker offers a viewer the peers of other networks only while its own network has too few in the
 * swarm; those connections stay when peers of its own network come later. From then on this viewer
 * takes nothing from the others: the library's loader sees a peer of another network as holding no
 * segment, so each network fetches its own copy from the CDN rather than over ISPs' transit links.
 * It still serves them: a viewer alone in its network lives on that fallback, after a short wait
 * (PLAYER_OWN_NETWORK_WAIT_MS) in which its neighbours arriving at the same moment can connect.
 *
 * Peers are told apart by the network tag in their peer id (contract player.ts networkTagOf), which
 * the tracker holds to each connection's network.
 */
export class OwnNetworkFirst {
  /** Connections per peer of the viewer's own network (one per stream it shares: video, audio). */
  private readonly own = new Map<string, number>();
  private readonly patched = new WeakSet<object>();
  private readonly since: number;

  constructor(
    /** The viewer's network tag from the settings answer; undefined from an older server. */
    private readonly tag: string | undefined,
    /** Peers of its own network from which those of others are left aside (0: never, matching is off). */
    private readonly enough: number,
    private readonly engine: () => unknown,
    private readonly now: () => number = Date.now,
  ) {
    this.since = now();
  }

  /** Whether bytes from this peer crossed networks: everything not known to be of this viewer's. */
  isCross(peerId: string): boolean {
    return !sameNetwork(this.tag, networkTagOfPeerId(peerId));
  }

  connected(peerId: string): void {
    if (!this.isCross(peerId)) this.own.set(peerId, (this.own.get(peerId) ?? 0) + 1);
    else if (this.enough > 0)
      // The library announces a peer from inside its constructor, before it can be found: patch it next.
      setTimeout(() => this.leaveAside(peerId), 0);
  }

  closed(peerId: string): void {
    const left = (this.own.get(peerId) ?? 0) - 1;
    if (left > 0) this.own.set(peerId, left);
    else this.own.delete(peerId);
  }

  /** Whether peers of other networks are left aside now. */
  get othersAside(): boolean {
    if (this.enough <= 0) return false;
    return this.own.size >= this.enough || this.now() - this.since < PLAYER_OWN_NETWORK_WAIT_MS;
  }

  private leaveAside(peerId: string): void {
    for (const peers of enginePeers(this.engine())) {
      const peer: unknown = peers.get(peerId)?.peer;
      if (!isSegmentHolder(peer) || this.patched.has(peer)) continue;
      this.patched.add(peer);
      const status = peer.getSegmentStatus.bind(peer);
      peer.getSegmentStatus = (segment) => (this.othersAside ? undefined : status(segment));
    }
  }
}
