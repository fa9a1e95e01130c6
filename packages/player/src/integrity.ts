import { sha256 } from '@noble/hashes/sha2.js';
import { isIntegrityBody, PLAYER_PATHS } from '@tlprt/contract';

/** p2p-media-loader's byte range of a segment: `end` included (HLS EXT-X-BYTERANGE). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * What our server says a segment must hash to. `refused`: the segment's host is not one of the key's
 * (its team's domains, its Origins): nothing of that stream can be verified. `unavailable`: this one
 * segment could not be fetched or the server is busy: it comes from the CDN only.
 */
export type Reference = { kind: 'sha256'; hex: string } | { kind: 'refused' } | { kind: 'unavailable' };

export const segmentKey = (url: string, range: ByteRange | undefined): string =>
  range ? `${url}|${range.start}-${range.end}` : url;

const toHex = (bytes: Uint8Array): string => {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
};

/**
 * SHA-256 of a segment. WebCrypto where the page is a secure context (https, localhost); elsewhere
 * (a plain-http page) `crypto.subtle` does not exist and a JavaScript implementation does it.
 */
export async function sha256Hex(data: ArrayBuffer): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle) return toHex(new Uint8Array(await subtle.digest('SHA-256', data)));
  return toHex(sha256(new Uint8Array(data)));
}

type FetchLike = (url: string, init: RequestInit) => Promise<Pick<Response, 'status' | 'json'>>;

/** How long a failed answer is remembered: a peer offering the same segment again is not re-asked at
 *  once, and a briefly failing origin is asked again soon. */
const UNAVAILABLE_TTL_MS = 5000;
/** A hash not back by then is "unavailable": a segment waiting for its check holds up the player. */
const REFERENCE_TIMEOUT_MS = 8000;

/**
 * The server's hashes, asked once per segment (and byte range) while in memory: a hash is asked when a
 * peer starts sending a segment, so it is usually there by the time the last byte arrives.
 */
export class IntegrityReferences {
  private readonly known = new Map<string, { ref: Promise<Reference>; until: number }>();

  /**
   * `server`: the node of the stream's swarm (swarmNodeFor); `stream`: the reports' stream name, so the
   * bytes the server fetched to answer are counted under it.
   */
  constructor(
    private readonly where: { server: string; key: string; stream?: string | undefined },
    private readonly fetchImpl: FetchLike = (url, init) => fetch(url, init),
    private readonly max = 512,
    private readonly now: () => number = () => Date.now(),
    private readonly timeoutMs = REFERENCE_TIMEOUT_MS,
  ) {}

  get(url: string, range: ByteRange | undefined): Promise<Reference> {
    const id = segmentKey(url, range);
    const hit = this.known.get(id);
    if (hit && hit.until > this.now()) return hit.ref;
    const ref = this.ask(url, range);
    this.known.delete(id);
    this.known.set(id, { ref, until: Number.POSITIVE_INFINITY });
    if (this.known.size > this.max) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
    void ref.then((r) => {
      const entry = this.known.get(id);
      if (r.kind === 'unavailable' && entry?.ref === ref) entry.until = this.now() + UNAVAILABLE_TTL_MS;
    });
    return ref;
  }

  private async ask(url: string, range: ByteRange | undefined): Promise<Reference> {
    const q = new URLSearchParams({ key: this.where.key, url });
    if (range) q.set('range', `${range.start}-${range.end}`);
    if (this.where.stream) q.set('stream', this.where.stream);
    try {
      const res = await this.fetchImpl(`${this.where.server}${PLAYER_PATHS.integrity}?${q}`, {
        credentials: 'omit',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (res.status === 403) return { kind: 'refused' };
      if (res.status !== 200) return { kind: 'unavailable' };
      const body: unknown = await res.json();
      return isIntegrityBody(body) ? { kind: 'sha256', hex: body.sha256 } : { kind: 'unavailable' };
    } catch {
      return { kind: 'unavailable' };
    }
  }
}

/** What the guard tells the plugin. */
export interface GuardSink {
  /** Peer bytes that matched the origin's hash and went to the player; `crossBytes` of them came from
   *  peers of other networks (otherNetwork). */
  accepted(bytes: number, crossBytes: number): void;
  /** Whether a peer is of another network than the viewer's (own-network.ts); none: never. */
  otherNetwork?(peerId: string): boolean;
  /** Peer bytes that did not match: thrown away, the segment is fetched again. */
  rejected(bytes: number): void;
  /** A segment from peers that the server could not vouch for: thrown away, fetched from the CDN. */
  unverifiable(): void;
  /** The stream's host is not one of the key's: peers are of no use for it. */
  streamRefused(): void;
  /** Disconnect this peer (it sent bytes that did not match, or it was banned before). */
  dropPeer(peerId: string): void;
}

/** How many segments' peer bytes are followed at once (a segment left half-loaded by a seek is dropped). */
const MAX_TRACKED_SEGMENTS = 256;
/** The library keeps loaded bytes only of segments in its queue, far fewer than this. */
const MAX_SUSPECT_SEGMENTS = 4096;

/**
 * Every byte a peer sends is checked before the player gets it (docs/DESIGN.md §11 Integrity). p2p-media-loader
 * calls `validateP2P` for a segment completed by a peer, and `validateHttp` for one completed over HTTP.
 * A segment completed over HTTP may hold a peer's bytes in two ways: a peer that stalls mid-segment
 * leaves its bytes for the CDN request to continue from, and a peer's complete copy whose check did not
 * end in a success (the library aborted the peer download mid-check, or its no-bytes timeout fired while
 * the check waited for the server) stays loaded and the HTTP path hands those very bytes over at once.
 * The attacker test saw altered segments reach hls.js both ways. So a segment into which a peer loaded
 * bytes stays suspect until a check of it passes, and every HTTP completion of a suspect segment is
 * checked too. The only trusted reference is the server's hash of the origin's bytes; nothing a peer says
 * is believed. A peer whose bytes did not match is banned for this stream: dropped now and whenever it
 * comes back through the tracker.
 */
export class SegmentGuard {
  /** segment → peer bytes loaded into it so far (`cross` of them from other networks), and the peers
   *  that sent them. */
  private readonly inFlight = new Map<string, { bytes: number; cross: number; peers: Set<string> }>();
  /** peer → the segment it is sending (a peer sends one segment at a time). */
  private readonly sending = new Map<string, string>();
  private readonly banned = new Set<string>();
  /** Segments a peer loaded bytes into that no check has passed since: their HTTP completions are checked. */
  private readonly suspect = new Set<string>();
  /** Segments whose bytes did not match, until the library names the peer that sent them. */
  private readonly mismatched = new Set<string>();

  constructor(
    private readonly references: IntegrityReferences,
    private readonly sink: GuardSink,
    private readonly hash: (data: ArrayBuffer) => Promise<string> = sha256Hex,
  ) {}

  segmentStarted(
    url: string,
    range: ByteRange | undefined,
    source: string,
    peerId: string | undefined,
  ): void {
    if (source !== 'p2p' || peerId === undefined) return;
    this.sending.set(peerId, segmentKey(url, range));
    // Ask now: the answer is usually back before the segment is complete.
    void this.references.get(url, range);
  }

  chunk(bytes: number, source: string, peerId: string | undefined): void {
    if (source !== 'p2p' || peerId === undefined) return;
    const id = this.sending.get(peerId);
    if (id === undefined) return;
    let entry = this.inFlight.get(id);
    if (!entry) {
      entry = { bytes: 0, cross: 0, peers: new Set() };
      this.inFlight.set(id, entry);
      if (this.inFlight.size > MAX_TRACKED_SEGMENTS) {
        const oldest = this.inFlight.keys().next().value;
        if (oldest !== undefined) this.inFlight.delete(oldest);
      }
    }
    entry.bytes += bytes;
    if (this.sink.otherNetwork?.(peerId)) entry.cross += bytes;
    entry.peers.add(peerId);
    this.suspect.delete(id);
    this.suspect.add(id);
    if (this.suspect.size > MAX_SUSPECT_SEGMENTS) {
      const oldest = this.suspect.values().next().value;
      if (oldest !== undefined) this.suspect.delete(oldest);
    }
  }

  /** The library's verdict on a download: a mismatch names the peer that sent the segment. */
  segmentFailed(
    url: string,
    range: ByteRange | undefined,
    errorType: string,
    peerId: string | undefined,
  ): void {
    const id = segmentKey(url, range);
    if (errorType !== 'p2p-segment-validation-failed' || !this.mismatched.delete(id)) return;
    if (peerId !== undefined) this.ban(peerId);
  }

  peerConnected(peerId: string): void {
    if (this.banned.has(peerId)) this.sink.dropPeer(peerId);
  }

  peerClosed(peerId: string): void {
    this.sending.delete(peerId);
  }

  isBanned(peerId: string): boolean {
    return this.banned.has(peerId);
  }

  readonly validateP2P = (url: string, range: ByteRange | undefined, data: ArrayBuffer): Promise<boolean> =>
    this.check(url, range, data, true);

  readonly validateHttp = async (
    url: string,
    range: ByteRange | undefined,
    data: ArrayBuffer,
  ): Promise<boolean> => {
    // Every byte came from the CDN: nothing to check.
    if (!this.suspect.has(segmentKey(url, range))) return true;
    return this.check(url, range, data, false);
  };

  private async check(
    url: string,
    range: ByteRange | undefined,
    data: ArrayBuffer,
    allFromPeers: boolean,
  ): Promise<boolean> {
    const id = segmentKey(url, range);
    const entry = this.inFlight.get(id);
    this.inFlight.delete(id);
    for (const [peer, sent] of this.sending) if (sent === id) this.sending.delete(peer);
    const fromPeers = entry?.bytes ?? (allFromPeers ? data.byteLength : 0);
    const passed = await this.verify(url, range, data, allFromPeers, fromPeers, entry);
    // Cleared only if no peer began loading the segment again while this check ran.
    if (passed && !this.inFlight.has(id)) this.suspect.delete(id);
    return passed;
  }

  private async verify(
    url: string,
    range: ByteRange | undefined,
    data: ArrayBuffer,
    allFromPeers: boolean,
    fromPeers: number,
    entry: { cross: number; peers: Set<string> } | undefined,
  ): Promise<boolean> {
    const id = segmentKey(url, range);
    const ref = await this.references.get(url, range);
    if (ref.kind !== 'sha256') {
      if (ref.kind === 'refused') this.sink.streamRefused();
      this.sink.unverifiable();
      return false;
    }
    if ((await this.hash(data)) === ref.hex) {
      this.sink.accepted(fromPeers, Math.min(fromPeers, entry?.cross ?? 0));
      return true;
    }
    this.sink.rejected(fromPeers);
    for (const peer of entry?.peers ?? []) this.ban(peer);
    if (allFromPeers) {
      this.mismatched.add(id);
      if (this.mismatched.size > MAX_TRACKED_SEGMENTS) this.mismatched.clear();
    }
    return false;
  }

  private ban(peerId: string): void {
    if (this.banned.has(peerId)) return;
    this.banned.add(peerId);
    this.sink.dropPeer(peerId);
  }
}
