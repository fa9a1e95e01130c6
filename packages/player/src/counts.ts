import type { ReportCounts, Reporter } from './reporter.js';

export interface Counters {
  cdnBytes: number;
  /** Bytes from peers that matched the origin's hash (only those reach the player). */
  p2pBytes: number;
  /** Of p2pBytes, those from peers not known to be of this viewer's network. */
  p2pCrossBytes: number;
  /** Bytes from peers that did not match the origin's hash: thrown away, fetched again. */
  rejectedBytes: number;
  /** Segments from peers the server could not vouch for: thrown away, fetched from the CDN. */
  unverifiableSegments: number;
  uploadedBytes: number;
  peers: number;
}

/**
 * What one attach counted: the handle's counters (its listeners hear of every change) and, once the key
 * is usable, the reporter's bytes.
 */
export class Tally {
  private readonly counts: Counters = {
    cdnBytes: 0,
    p2pBytes: 0,
    p2pCrossBytes: 0,
    rejectedBytes: 0,
    unverifiableSegments: 0,
    uploadedBytes: 0,
    peers: 0,
  };
  private readonly listeners = new Set<(c: Counters) => void>();
  // Connections per peer: the library connects to a peer once per stream it shares (video, audio).
  private readonly peers = new Map<string, number>();
  /** Set right after the tally is made (the reporter reads its peers); none when the key is not usable. */
  reporter: Reporter | null = null;

  get peerCount(): number {
    return this.peers.size;
  }

  snapshot(): Counters {
    return { ...this.counts };
  }

  onUpdate(listener: (c: Counters) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stopUpdates(): void {
    this.listeners.clear();
  }

  changed(): void {
    this.counts.peers = this.peers.size;
    for (const l of this.listeners) l({ ...this.counts });
  }

  /** Counts of the report's fields (contract report.ts): into the counters of the same name, if the
   *  handle shows one, and the next report. */
  count(counts: ReportCounts): void {
    const shown = this.counts as unknown as Record<string, number>;
    for (const [field, n] of Object.entries(counts))
      if (n !== undefined && field in shown) shown[field] = (shown[field] ?? 0) + n;
    this.reporter?.add(counts);
    this.changed();
  }

  cdn(bytes: number): void {
    this.count({ cdnBytes: bytes });
  }

  accepted(bytes: number, crossBytes: number): void {
    this.count({ p2pBytes: bytes, p2pCrossBytes: crossBytes });
  }

  rejected(bytes: number): void {
    this.count({ rejectedBytes: bytes });
  }

  unverifiable(): void {
    this.counts.unverifiableSegments += 1;
    this.changed();
  }

  uploaded(bytes: number): void {
    this.counts.uploadedBytes += bytes;
    this.changed();
  }

  /** A connection to a peer opened (the caller tells the listeners once it has done its part). */
  peerConnected(peerId: string): void {
    this.peers.set(peerId, (this.peers.get(peerId) ?? 0) + 1);
  }

  /** A connection to a peer closed (the caller tells the listeners once it has done its part). */
  peerClosed(peerId: string): void {
    const left = (this.peers.get(peerId) ?? 0) - 1;
    if (left > 0) this.peers.set(peerId, left);
    else this.peers.delete(peerId);
  }
}
