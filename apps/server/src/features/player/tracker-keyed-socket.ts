import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';

/** The little of a `ws` WebSocket this module uses (`ws` ships no types). */
export interface RawSocket {
  on(event: 'message', cb: (data: unknown) => void): void;
  on(event: 'close', cb: () => void): void;
  on(event: 'error', cb: (err: Error) => void): void;
  send(data: string, cb?: (err?: Error) => void): void;
  terminate(): void;
}

/**
 * A connection remembers the info hashes it named so that answers carry them back; a client naming more
 * than this (a player names a few per stream) forgets its oldest, and messages about those are dropped.
 */
const MAX_REMEMBERED = 1024;

const INFO_HASH_LENGTH = 20;

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

const isInfoHash = (v: unknown): v is string => typeof v === 'string' && v.length === INFO_HASH_LENGTH;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What bittorrent-tracker's server sees of one WebSocket of the tracker: the same events and `send`, with
 * every `info_hash` rewritten into the connection key's namespace on the way in and back on the way out.
 * Swarms, offers and answers (routed by peer id inside the swarm the info hash names) therefore never
 * cross keys, even when two keys' players announce the same info hash. The library sets its own fields
 * on this object (upgradeReq, peerId, infoHashes, destroyed, ...), as it would on the socket.
 *
 * Messages the library would crash the process on (a scrape whose info_hash is a number, an offer that
 * is null) or that it would take un-namespaced (any other action) are answered here instead.
 */
export class KeyedSocket extends EventEmitter {
  /** namespaced id → the info hash this client sent, oldest first. */
  private readonly sent = new Map<string, string>();

  constructor(
    private readonly ws: RawSocket,
    private readonly keyHash: string,
    private readonly onRefused: (reason: string) => void,
  ) {
    super();
    ws.on('message', (data) => this.receive(String(data)));
    ws.on('close', () => this.emit('close'));
    // The library adds its error listener at once and keeps a no-op one after the close; without any,
    // emitting 'error' would throw.
    ws.on('error', (err) => {
      if (this.listenerCount('error') > 0) this.emit('error', err);
    });
  }

  /** Called by the library with a JSON text for this client. */
  send(data: string, cb?: (err?: Error) => void): void {
    const out = this.outbound(data);
    if (out !== undefined) this.ws.send(out, cb);
  }

  private receive(text: string): void {
    const inbound = this.inbound(text);
    if (typeof inbound !== 'string') {
      this.onRefused(inbound.refused);
      this.ws.send(JSON.stringify({ 'failure reason': inbound.refused }));
      return;
    }
    try {
      this.emit('message', inbound);
    } catch (err) {
      // A throw here would leave through ws's parser as an uncaught exception and stop the server.
      this.onRefused(`tracker rejected a message: ${(err as Error).message}`);
      this.ws.terminate();
    }
  }

  private inbound(text: string): string | { refused: string } {
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
      return JSON.stringify({ ...msg, info_hash: this.namespaced(msg.info_hash) });
    }
    if (msg.action === 'scrape') {
      const asked = msg.info_hash;
      // Unnamed, the library lists every swarm of the node, every customer's. The key's own swarms are
      // not listed either: no player needs them, and they would tell one page what others watch.
      if (asked === undefined || asked === null) return JSON.stringify({ ...msg, info_hash: [] });
      if (isInfoHash(asked)) return JSON.stringify({ ...msg, info_hash: this.namespaced(asked) });
      if (Array.isArray(asked) && asked.every(isInfoHash)) {
        return JSON.stringify({ ...msg, info_hash: asked.map((h) => this.namespaced(h)) });
      }
      return { refused: 'invalid info_hash' };
    }
    return { refused: 'invalid action' };
  }

  private namespaced(infoHash: string): string {
    const id = keyedInfoHash(this.keyHash, infoHash);
    // Re-inserted so that the hashes in use stay the newest.
    this.sent.delete(id);
    this.sent.set(id, infoHash);
    if (this.sent.size > MAX_REMEMBERED) {
      const oldest = this.sent.keys().next().value as string;
      this.sent.delete(oldest);
    }
    return id;
  }

  /** The library's message with this client's own info hashes; undefined when one is forgotten. */
  private outbound(text: string): string | undefined {
    const msg = JSON.parse(text) as Record<string, unknown>;
    if (typeof msg.info_hash === 'string') {
      const original = this.sent.get(msg.info_hash);
      if (original === undefined) return undefined;
      msg.info_hash = original;
    }
    if (isObject(msg.files)) {
      const files: Record<string, unknown> = {};
      for (const [id, stats] of Object.entries(msg.files)) {
        const original = this.sent.get(id);
        if (original !== undefined) files[original] = stats;
      }
      msg.files = files;
    }
    return JSON.stringify(msg);
  }
}
