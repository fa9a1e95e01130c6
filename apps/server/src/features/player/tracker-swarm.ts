import { networkTagOf, networkTagOfPeerId, PeerMatching, type PeerMatchingValue } from '@tlprt/contract';
import { CLOSE_POLICY } from './tracker-limits.js';

/**
 * What the tracker knows of a connection's place (docs/DESIGN.md §14), found once at its upgrade in the
 * server's process (tracker-networks.ts) and carried with it into a tracker worker: the swarm that
 * matches peers may live in another process than the one that saw the address.
 */
export interface ConnectionPlace {
  /** `AS<number>`: NETWORKS_FILE's range holding the address, else the shipped ASN table's; '' unknown. */
  readonly network: string;
  /** ISO 3166 code of the address's country; '' unknown (private addresses, no database). */
  readonly country: string;
  /** The key's setting 102 when the connection opened. */
  readonly matching: PeerMatchingValue;
}

/** A peer as bittorrent-tracker's server reads it: it sends offers and answers to `socket`. */
export interface SwarmPeer {
  /** As the library gives it: hex. */
  readonly peerId: string;
  readonly socket: SwarmMember;
  /** The address group (http/client-address.ts addressGroup) of its connection. */
  readonly group: string;
  complete: boolean;
  /** When this peer last announced in this swarm (performance.now()). */
  seenAt: number;
}

/** A tracker connection as a swarm needs it (tracker-keyed-socket.ts). */
export interface SwarmMember {
  readonly group: string;
  readonly place: ConnectionPlace;
  /** How many swarms this connection holds a peer in. */
  readonly swarmCount: number;
  peerIn(swarm: Swarm): SwarmPeer | undefined;
  joined(swarm: Swarm, peer: SwarmPeer): void;
  left(swarm: Swarm): void;
  /** Ends the connection with a WebSocket close code; it leaves every swarm at once. */
  refuse(code: number, reason: string): void;
  send(data: string, cb?: (err?: Error) => void): void;
}

export interface SwarmLimits {
  peersPerSwarm: number;
  peersPerAddressPerSwarm: number;
  swarmsPerSocket: number;
  /** An announcer's own network (country, with matching by country) answers alone while it holds at
   *  least this many other peers of the swarm; with fewer, the others follow (TRACKER_MATCH_MIN_PEERS). */
  matchMinPeers: number;
}

/** An announce as the library parsed it (lib/server/parse-websocket.js). */
export interface AnnounceParams {
  type?: string;
  event?: string;
  peer_id?: string;
  left?: number;
  numwant?: number;
  socket?: SwarmMember;
}

type Callback = (
  err: Error | null,
  response?: { complete: number; incomplete: number; peers: SwarmPeer[] },
) => void;

const EVENTS = new Set(['started', 'stopped', 'completed', 'update', 'paused']);

/** The announce was refused by closing its connection: nothing is answered. */
const CLOSED = Symbol('closed');

/**
 * One swarm of the tracker, in place of bittorrent-tracker's own (lib/server/swarm.js, which the library
 * lets a server replace through createSwarm/getSwarm). Theirs let one client push out or
 * impersonate others:
 * - its peers were an LRU of 1,000 keyed by peer id alone: one socket announcing 1,000 made-up ids
 *   pushed every real viewer out, and any socket naming a viewer's id (ids travel in every offer) could
 *   announce `stopped` for it;
 * - a swarm was never deleted, even empty;
 * - the peers an offer went to were drawn at random, so whoever held most entries got most offers.
 * Here a peer id belongs to the connection that announced it first; a connection has one peer per
 * swarm; an address holds at most `peersPerAddressPerSwarm`; a full swarm makes room only by taking a
 * peer from the address holding most, and only when that address holds more than the newcomer's would
 * (a lone viewer is never pushed out); offers go round the addresses, one peer of each in turn, so an
 * address gets its share of the offers however many peers it holds; the last peer leaving deletes the
 * swarm.
 */
export class Swarm {
  /** peer id (hex) → peer. The library reads `peers.get(to_peer_id)` to route an answer. */
  readonly peers = new Map<string, SwarmPeer>();
  /** address group → its peers here. */
  private readonly groups = new Map<string, SwarmPeer[]>();
  complete = 0;
  incomplete = 0;

  constructor(
    /** The library's hex id: the namespaced info hash (tracker-keyed-socket.ts). */
    readonly infoHash: string,
    private readonly limits: SwarmLimits,
    private readonly now: () => number,
    private readonly onEmpty: (swarm: Swarm) => void,
  ) {}

  /** The library's call for every announce (offers, answers and stops alike). */
  announce(params: AnnounceParams, cb?: Callback): void {
    const member = params.socket;
    // The library's own `stopped` for a closing connection names neither socket nor callback: that
    // connection already left every swarm itself, and a peer id alone proves nothing.
    if (member === undefined || cb === undefined) return;
    const outcome = this.apply(params, member);
    if (outcome === CLOSED) {
      this.dropIfEmpty();
    } else if (typeof outcome === 'string') {
      this.dropIfEmpty();
      cb(new Error(outcome));
    } else {
      cb(null, { complete: this.complete, incomplete: this.incomplete, peers: outcome });
      this.dropIfEmpty();
    }
  }

  /** The library's call for a scrape; the tracker answers scrapes itself (tracker-keyed-socket.ts). */
  scrape(
    _params: unknown,
    cb: (err: Error | null, r: { complete: number; incomplete: number }) => void,
  ): void {
    cb(null, { complete: this.complete, incomplete: this.incomplete });
  }

  /** Takes `peer` out (it stopped, its connection closed, it went silent, or it made room). */
  remove(peer: SwarmPeer): void {
    if (this.peers.get(peer.peerId) !== peer) return;
    this.peers.delete(peer.peerId);
    const group = this.groups.get(peer.group);
    if (group !== undefined) {
      const i = group.indexOf(peer);
      if (i !== -1) group.splice(i, 1);
      if (group.length === 0) this.groups.delete(peer.group);
    }
    if (peer.complete) this.complete -= 1;
    else this.incomplete -= 1;
    peer.socket.left(this);
    this.dropIfEmpty();
  }

  private apply(params: AnnounceParams, member: SwarmMember): SwarmPeer[] | string | typeof CLOSED {
    const event = params.event ?? 'update';
    if (!EVENTS.has(event)) return 'invalid event';
    const id = params.peer_id;
    if (typeof id !== 'string') return 'invalid peer_id';
    const held = this.peers.get(id);
    // Another connection's viewer: announcing (or stopping) it from here would take its offers or
    // drop it from the swarm.
    if (held !== undefined && held.socket !== member) return 'peer_id in use by another connection';
    if (event === 'stopped') {
      if (held !== undefined) this.remove(held);
      return [];
    }
    const mine = member.peerIn(this);
    // The plugin keeps one peer id per stream; a second one in a swarm is how one socket would fill it.
    if (mine !== undefined && mine.peerId !== id) {
      member.refuse(CLOSE_POLICY, 'one peer_id per swarm and connection');
      return CLOSED;
    }
    const left = params.left;
    let peer = held;
    if (peer === undefined) {
      // A peer id naming a network (the plugin's convention, contract player.ts) must name its own:
      // peers count the bytes from other networks by it, and a copied key must not make its bytes
      // look local. Checked once, when the peer joins: its id never changes.
      const tag = networkTagOfPeerId(Buffer.from(id, 'hex').toString('latin1'));
      if (tag !== undefined && tag !== networkTagOf(member.place.network))
        return 'peer_id names another network than its connection';
      const refusal = this.admit(member);
      if (refusal !== undefined) return refusal;
      peer = { peerId: id, socket: member, group: member.group, complete: left === 0, seenAt: this.now() };
      this.add(peer);
    } else {
      peer.seenAt = this.now();
      if (!peer.complete && left === 0) {
        peer.complete = true;
        this.complete += 1;
        this.incomplete -= 1;
      }
    }
    const numwant = params.numwant ?? 0;
    return numwant > 0 ? this.pick(numwant, member) : [];
  }

  /** Whether `member` may add a peer here; makes room in a full swarm when fairness allows. */
  private admit(member: SwarmMember): string | typeof CLOSED | undefined {
    if (member.swarmCount >= this.limits.swarmsPerSocket) {
      member.refuse(CLOSE_POLICY, `more than ${this.limits.swarmsPerSocket} swarms on one connection`);
      return CLOSED;
    }
    const own = this.groups.get(member.group)?.length ?? 0;
    if (own >= this.limits.peersPerAddressPerSwarm) return 'too many peers from this address in this swarm';
    if (this.peers.size < this.limits.peersPerSwarm) return undefined;
    let crowded: SwarmPeer[] | undefined;
    for (const g of this.groups.values()) if (crowded === undefined || g.length > crowded.length) crowded = g;
    // Only an address that would still hold more than the newcomer's after giving one up loses one: a
    // swarm full of addresses holding one viewer each turns newcomers away instead.
    if (crowded === undefined || crowded.length <= own + 1) return 'swarm full';
    let oldest = crowded[0] as SwarmPeer;
    for (const p of crowded) if (p.seenAt < oldest.seenAt) oldest = p;
    this.remove(oldest);
    return undefined;
  }

  private add(peer: SwarmPeer): void {
    this.peers.set(peer.peerId, peer);
    const group = this.groups.get(peer.group);
    if (group === undefined) this.groups.set(peer.group, [peer]);
    else group.push(peer);
    if (peer.complete) this.complete += 1;
    else this.incomplete += 1;
    peer.socket.joined(this, peer);
  }

  /**
   * Up to `numwant` other peers for the offers of `member`, nearest first (docs/DESIGN.md §14). The swarm's
   * address groups are ranked by the announcer's place and its key's setting 102: with `network`, its
   * own network, then its country, then the rest; with `country`, its country or network, then the
   * rest; with `anyone`, all alike. The nearest rank answers alone while it holds `matchMinPeers`
   * peers besides the announcer: an offer sent across networks is what puts video on the ISPs' transit
   * links. Within a rank, as before matching: one peer of each address group per round, groups in
   * random order, a random peer within each, so an address gets its share of the offers however many
   * peers it holds. A group's place is its first peer's: a place follows from the address, which an
   * address group shares.
   */
  private pick(numwant: number, member: SwarmMember): SwarmPeer[] {
    const out: SwarmPeer[] = [];
    const { network, country, matching } = member.place;
    if (matching === PeerMatching.Anyone || (network === '' && country === '')) {
      this.pickFrom([...this.groups.values()], numwant, member, out);
      return out;
    }
    const ranks: SwarmPeer[][][] = [[], [], []];
    let near = 0;
    const mine = this.groups.get(member.group);
    for (const g of this.groups.values()) {
      const first = (g[0] as SwarmPeer).socket.place;
      const sameNetwork = network !== '' && first.network === network;
      const sameCountry = country !== '' && first.country === country;
      const rank =
        matching === PeerMatching.Network
          ? sameNetwork
            ? 0
            : sameCountry
              ? 1
              : 2
          : sameNetwork || sameCountry
            ? 0
            : 2;
      (ranks[rank] as SwarmPeer[][]).push(g);
      if (rank === 0) near += g === mine ? g.length - 1 : g.length;
    }
    const last = near >= this.limits.matchMinPeers ? 0 : 2;
    for (let r = 0; r <= last && out.length < numwant; r++) {
      this.pickFrom(ranks[r] as SwarmPeer[][], numwant, member, out);
    }
    return out;
  }

  /** Adds to `out`, up to `numwant` in all, peers of `groups` other than `member`'s, round by round. */
  private pickFrom(groups: SwarmPeer[][], numwant: number, member: SwarmMember, out: SwarmPeer[]): void {
    for (let i = groups.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [groups[i], groups[j]] = [groups[j] as SwarmPeer[], groups[i] as SwarmPeer[]];
    }
    for (let round = 0; out.length < numwant; round++) {
      let more = false;
      for (const g of groups) {
        if (round >= g.length) continue;
        more = true;
        // A step of Fisher-Yates within the group: its order does not matter to anything else.
        const j = round + Math.floor(Math.random() * (g.length - round));
        [g[round], g[j]] = [g[j] as SwarmPeer, g[round] as SwarmPeer];
        const p = g[round] as SwarmPeer;
        if (p.socket === member) continue;
        out.push(p);
        if (out.length === numwant) break;
      }
      if (!more) break;
    }
  }

  private dropIfEmpty(): void {
    if (this.peers.size === 0) this.onEmpty(this);
  }
}
