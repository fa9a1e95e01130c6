import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { CLOSE_POLICY, TokenBucket } from './tracker-limits.js';
import type { ConnectionPlace, Swarm, SwarmMember, SwarmPeer } from './tracker-swarm.js';

/** The little of a `ws` WebSocket this module uses (`ws` ships no types). */
export interface RawSocket {
  on(event: 'message', cb: (data: unknown) => void): void;
  on(event: 'close' | 'pong', cb: () => void): void;
  on(event: 'error', cb: (err: Error) => void): void;
  send(data: string, cb?: (err?: Error) => void): void;
  close(code: number, reason: string): void;
  ping(): void;
  terminate(): void;
}

const INFO_HASH_LENGTH = 20;
/** A scrape names at most this many info hashes (the plugin never scrapes; a tracker client names one). */
export const MAX_SCRAPE_HASHES = 5;
/** The plugin's tracker client sends at most 5 offers per announce; each offer is relayed to one peer. */
const MAX_OFFERS = 10;
/** How long a refused client has to answer our close frame before its socket is cut. */
const CLOSE_GRACE_MS = 1000;
/** A connection whose pongs stopped this long ago (or the idle timeout, if shorter) is cut. */
const PONG_TIMEOUT_MS = 60_000;

/**
 * The swarm id the library sees for `infoHash` announced with `keyHash`. Key hashes and info hashes are
 * both public, so the id must not be steerable: reaching another key's swarm would take a SHA-256
 * second preimage. UTF-8 keeps distinct strings distinct (a latin1 encoding would merge code points
 * above 0xFF); the result is 20 bytes as latin1 text, the shape the library expects.
 */
export function keyedInfoHash(keyHash: string, infoHash: string): string {
  return createHash('sha256')
    .update(keyHash)
    .update('\0')
    .update(infoHash, 'utf8')
    .digest()
    .subarray(0, INFO_HASH_LENGTH)
    .toString('latin1');
}

/** The library's hex form of a 20-character id, and back. */
const hexOf = (id: string) => Buffer.from(id, 'latin1').toString('hex');
const idOf = (hex: string) => Buffer.from(hex, 'hex').toString('latin1');

const isInfoHash = (v: unknown): v is string => typeof v === 'string' && v.length === INFO_HASH_LENGTH;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ConnectionOptions {
  /** The client's address group (http/client-address.ts addressGroup). */
  group: string;
  /** Its network, country and key's matching setting (tracker-networks.ts). */
  place: ConnectionPlace;
  messagesPerSecond: number;
  idleTimeoutMs: number;
  now: () => number;
  /** The swarm the library holds under a hex id, if any (scrapes are answered from it). */
  swarmOf: (hexId: string) => Swarm | undefined;
  onRefused: (reason: string) => void;
}

/**
 * What bittorrent-tracker's server sees of one WebSocket of the tracker: the same events and `send`, with
 * every `info_hash` rewritten into the connection key's namespace on the way in and back on the way out.
 * Swarms, offers and answers (routed by peer id inside the swarm the info hash names) therefore never
 * cross keys, even when two keys' players announce the same info hash. The library sets its own fields
 * on this object (upgradeReq, peerId, infoHashes, destroyed, ...), as it would on the socket.
 *
 * It is also where one connection's limits hold, since a copied key and Origin let anyone open one:
 * messages per second (a token bucket), how
 * long it may stay without announcing, and, for the swarms (tracker-swarm.ts), which peer it holds in
 * each. Scrapes are answered here from the named swarms only: the library would list every swarm of the
 * node for a scrape without info_hash, and build that list for every such message.
 *
 * Messages the library would crash the process on (a scrape whose info_hash is a number, an offer that
 * is null) or that it would take un-namespaced (any other action) are answered here instead.
 */
export class KeyedSocket extends EventEmitter implements SwarmMember {
  readonly group: string;
  readonly place: ConnectionPlace;
  /** The swarms this connection holds a peer in, and that peer. */
  private readonly memberships = new Map<Swarm, SwarmPeer>();
  /** Namespaced id → the info hash this client named, for the swarms it is in. */
  private readonly names = new Map<string, string>();
  /** The message being handed to the library: its answers are sent before it returns. */
  private current: { id: string; original: string } | undefined;
  private readonly bucket: TokenBucket;
  private lastAnnounceAt: number;
  private lastPongAt: number;
  private closing = false;

  constructor(
    private readonly ws: RawSocket,
    private readonly keyHash: string,
    private readonly opts: ConnectionOptions,
  ) {
    super();
    this.group = opts.group;
    this.place = opts.place;
    const now = opts.now();
    this.bucket = new TokenBucket(opts.messagesPerSecond, 2 * opts.messagesPerSecond, now);
    this.lastAnnounceAt = now;
    this.lastPongAt = now;
    ws.on('message', (data) => this.receive(String(data)));
    ws.on('pong', () => {
      this.lastPongAt = this.opts.now();
    });
    ws.on('close', () => {
      this.closing = true;
      this.leaveAll();
      this.emit('close');
    });
    // The library adds its error listener at once and keeps a no-op one after the close; without any,
    // emitting 'error' would throw.
    ws.on('error', (err) => {
      if (this.listenerCount('error') > 0) this.emit('error', err);
    });
  }

  get swarmCount(): number {
    return this.memberships.size;
  }

  peerIn(swarm: Swarm): SwarmPeer | undefined {
    return this.memberships.get(swarm);
  }

  joined(swarm: Swarm, peer: SwarmPeer): void {
    this.memberships.set(swarm, peer);
    const id = idOf(swarm.infoHash);
    if (this.current?.id === id) this.names.set(id, this.current.original);
  }

  left(swarm: Swarm): void {
    this.memberships.delete(swarm);
    this.names.delete(idOf(swarm.infoHash));
  }

  /** The namespaced id of `infoHash`: known for the swarms this connection is in, a hash otherwise. */
  private idOf(infoHash: string): string {
    for (const [id, original] of this.names) if (original === infoHash) return id;
    return keyedInfoHash(this.keyHash, infoHash);
  }

  /** Called by the library with a JSON text for this client. */
  send(data: string, cb?: (err?: Error) => void): void {
    if (this.closing) return;
    const out = this.outbound(data);
    if (out !== undefined) this.ws.send(out, cb);
  }

  refuse(code: number, reason: string): void {
    if (this.closing) return;
    this.closing = true;
    this.leaveAll();
    this.opts.onRefused(reason);
    this.ws.close(code, reason);
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  terminate(): void {
    this.closing = true;
    this.ws.terminate();
  }

  /**
   * The tracker's periodic pass: a connection without an announce for the idle timeout is closed, a
   * peer not re-announced for as long leaves its swarm (the plugin drops a stream's tracker client
   * without a `stopped`), and a connection that stopped answering pings is cut (a dead network path
   * would hold its peers and its descriptor until TCP gave up, and a player reconnecting from a new
   * network could not announce its peer id again before).
   */
  sweep(now: number): void {
    if (this.closing) return;
    const idle = this.opts.idleTimeoutMs;
    if (now - this.lastAnnounceAt > idle) {
      this.refuse(CLOSE_POLICY, `idle: no announce in ${Math.round(idle / 1000)} s`);
      return;
    }
    for (const [swarm, peer] of [...this.memberships]) if (now - peer.seenAt > idle) swarm.remove(peer);
    this.pruneLibraryList();
    if (now - this.lastPongAt > Math.min(idle, PONG_TIMEOUT_MS)) {
      this.terminate();
      return;
    }
    this.ws.ping();
  }

  private leaveAll(): void {
    for (const [swarm, peer] of [...this.memberships]) swarm.remove(peer);
  }

  /**
   * The library lists on its socket every info hash it answered an announce for (a `stopped` too) and
   * empties that list only at the close; kept to the swarms this connection is in, it cannot grow.
   */
  private pruneLibraryList(): void {
    const list = (this as unknown as { infoHashes?: unknown }).infoHashes;
    if (!Array.isArray(list) || list.length <= this.memberships.size) return;
    const kept = new Set([...this.memberships.keys()].map((s) => s.infoHash));
    const inSwarms = list.filter((h) => kept.has(h as string));
    list.length = 0;
    list.push(...inSwarms);
  }

  private receive(text: string): void {
    if (this.closing) return;
    const now = this.opts.now();
    if (!this.bucket.take(now)) {
      this.refuse(CLOSE_POLICY, `more than ${this.opts.messagesPerSecond} messages a second`);
      return;
    }
    const inbound = this.inbound(text);
    if ('refused' in inbound) {
      this.opts.onRefused(inbound.refused);
      this.ws.send(JSON.stringify({ 'failure reason': inbound.refused }));
      return;
    }
    if ('scrape' in inbound) {
      this.ws.send(JSON.stringify(this.scrape(inbound.scrape)));
      return;
    }
    this.lastAnnounceAt = now;
    this.current = { id: inbound.id, original: inbound.original };
    try {
      this.emit('message', inbound.text);
    } catch (err) {
      // A throw here would leave through ws's parser as an uncaught exception and stop the server.
      this.opts.onRefused(`tracker rejected a message: ${(err as Error).message}`);
      this.terminate();
    } finally {
      this.current = undefined;
    }
    this.pruneLibraryList();
  }

  private inbound(
    text: string,
  ): { text: string; id: string; original: string } | { scrape: string[] } | { refused: string } {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return { refused: 'invalid JSON' };
    }
    if (!isObject(msg)) return { refused: 'invalid message' };
    if (msg.action === 'announce') {
      if (!isInfoHash(msg.info_hash)) return { refused: 'invalid info_hash' };
      const offers = msg.offers;
      if (offers != null && !(Array.isArray(offers) && offers.every(isObject))) {
        return { refused: 'invalid offers' };
      }
      if (Array.isArray(offers) && offers.length > MAX_OFFERS) return { refused: 'too many offers' };
      const id = this.idOf(msg.info_hash);
      return { text: withInfoHash(text, id), id, original: msg.info_hash };
    }
    if (msg.action === 'scrape') {
      const asked = msg.info_hash;
      // Unnamed: nothing. The key's own swarms are not listed either: no player needs them, and they
      // would tell one page what others watch.
      if (asked === undefined || asked === null) return { scrape: [] };
      const named = isInfoHash(asked)
        ? [asked]
        : Array.isArray(asked) && asked.every(isInfoHash)
          ? asked
          : undefined;
      if (named === undefined) return { refused: 'invalid info_hash' };
      if (named.length > MAX_SCRAPE_HASHES)
        return { refused: `a scrape names at most ${MAX_SCRAPE_HASHES} info_hash` };
      return { scrape: named };
    }
    return { refused: 'invalid action' };
  }

  /** The library's scrape answer for the named info hashes of this key only. */
  private scrape(named: string[]): Record<string, unknown> {
    const files: Record<string, { complete: number; incomplete: number; downloaded: number }> = {};
    for (const original of named) {
      const swarm = this.opts.swarmOf(hexOf(keyedInfoHash(this.keyHash, original)));
      const complete = swarm?.complete ?? 0;
      files[original] = { complete, incomplete: swarm?.incomplete ?? 0, downloaded: complete };
    }
    return { action: 'scrape', files };
  }

  /**
   * The library's message with this client's own info hash; undefined when it is not one of them.
   * Rewritten in the text, without parsing the offer or answer it carries again: the library writes
   * `info_hash` after every field a client supplied (offer, answer, offer_id, peer_id), followed at most
   * by an announce answer's `interval`, so its key is the last `"info_hash":` of the text. A key of that
   * name inside a client's text is escaped, and one inside a client's offer object comes before it.
   */
  private outbound(text: string): string | undefined {
    const at = text.lastIndexOf(INFO_HASH_KEY);
    if (at === -1) return text;
    const from = at + INFO_HASH_KEY.length;
    const current = this.current;
    if (current !== undefined) {
      const swapped = swapAt(text, from, current.id, current.original);
      if (swapped !== undefined) return swapped;
    }
    for (const [id, original] of this.names) {
      const swapped = swapAt(text, from, id, original);
      if (swapped !== undefined) return swapped;
    }
    return undefined;
  }
}

const INFO_HASH_KEY = '"info_hash":';

/**
 * A client's JSON object with `info_hash` set to `id`, without writing the offers it carries again:
 * the key is added once more before the closing brace, and JSON.parse, the library's, keeps the last of
 * duplicate keys (ECMA-262 JSON.parse). `text` is known to parse to an object with an info_hash.
 */
function withInfoHash(text: string, id: string): string {
  const end = text.trimEnd();
  return `${end.slice(0, -1)},${INFO_HASH_KEY}${JSON.stringify(id)}}`;
}

/** `text` with the JSON string `id` at `from` replaced by `original`, if `id` is what stands there. */
function swapAt(text: string, from: number, id: string, original: string): string | undefined {
  const value = JSON.stringify(id);
  if (!text.startsWith(value, from)) return undefined;
  return text.slice(0, from) + JSON.stringify(original) + text.slice(from + value.length);
}
