/**
 * A fix for p2p-media-loader-core 2.3.1, which a refused byte-range segment would otherwise stall: its
 * `Request.clearLoadedBytes()` (called when a peer's copy fails verification) also forgets the length
 * the segment's byte range gave it, and every later CDN request for that segment then fails its own
 * Content-Range check ("http-bytes-mismatch") for good. Seen in a browser: two honest players stuck at
 * 0 s on a byte-range playlist with an attacker in the swarm. A byte-range segment's length is known
 * from its range, so it is set back as the library's constructor sets it. The library exports no
 * Request class: its prototype is reached through a live request (core → stream loaders → requests),
 * as p2p-media-loader-core 2.3.1 names them; integrity.test.ts holds the names to the bundled library.
 */
type RequestLike = {
  segment?: { byteRange?: { start: number; end: number } };
  _totalBytes?: number;
};
type Proto = { clearLoadedBytes?: (this: RequestLike) => void; __tlprtKeepsRangeLength?: true };

const field = (o: unknown, name: string): unknown =>
  typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[name] : undefined;

/** Patches the library's Request class once (true when it is patched, now or before). */
export function keepByteRangeLengths(engine: unknown): boolean {
  const core = field(engine, 'core');
  for (const name of ['mainStreamLoader', 'secondaryStreamLoader']) {
    const requests = field(field(field(core, name), 'requests'), 'requests');
    if (!(requests instanceof Map)) continue;
    for (const request of requests.values()) {
      const proto = Object.getPrototypeOf(request) as Proto | null;
      const clear = proto?.clearLoadedBytes;
      if (!proto || typeof clear !== 'function') continue;
      if (proto.__tlprtKeepsRangeLength) return true;
      proto.clearLoadedBytes = function (this: RequestLike) {
        clear.call(this);
        const range = this.segment?.byteRange;
        if (range) this._totalBytes = range.end - range.start + 1;
      };
      proto.__tlprtKeepsRangeLength = true;
      return true;
    }
  }
  return false;
}
