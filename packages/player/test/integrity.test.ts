import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PLAYER_PATHS } from '@tlprt/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepByteRangeLengths } from '../src/byte-range-fix.js';
import { type GuardSink, IntegrityReferences, SegmentGuard, sha256Hex } from '../src/integrity.js';
import { dropPeer } from '../src/peer-drop.js';

const KEY = 'k3yHash';
const SERVER = 'https://p2p.example';
const SEG = 'https://cdn.example/v/s1.ts';
const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill).buffer;
const hex = (data: ArrayBuffer) => createHash('sha256').update(new Uint8Array(data)).digest('hex');

/** A fake of our server's integrity answers: URL → [status, body]; every call recorded. */
function server(answers: Record<string, [number, unknown]>) {
  const calls: URL[] = [];
  const fetchImpl = vi.fn(async (url: string) => {
    const u = new URL(url);
    calls.push(u);
    const [status, body] = answers[`${u.searchParams.get('url')}|${u.searchParams.get('range') ?? ''}`] ?? [
      404,
      {},
    ];
    return { status, json: async () => body };
  });
  return { calls, fetchImpl };
}

function guardWith(answers: Record<string, [number, unknown]>, now = () => 0) {
  const s = server(answers);
  const refs = new IntegrityReferences({ server: SERVER, key: KEY }, s.fetchImpl, 4, now);
  const seen = { accepted: 0, rejected: 0, unverifiable: 0, refused: 0, dropped: [] as string[] };
  const sink: GuardSink = {
    accepted: (b) => {
      seen.accepted += b;
    },
    rejected: (b) => {
      seen.rejected += b;
    },
    unverifiable: () => {
      seen.unverifiable++;
    },
    streamRefused: () => {
      seen.refused++;
    },
    dropPeer: (p) => {
      seen.dropped.push(p);
    },
  };
  return { guard: new SegmentGuard(refs, sink), refs, seen, ...s };
}

/** A guard whose server answers only when the test says so (a check left waiting on the hash). */
function guardAwaitingServer() {
  let answer: (v: { status: number; json: () => Promise<unknown> }) => void = () => {};
  const fetchImpl = vi.fn(
    () => new Promise<{ status: number; json: () => Promise<unknown> }>((resolve) => (answer = resolve)),
  );
  const seen = { accepted: 0, rejected: 0 };
  const guard = new SegmentGuard(new IntegrityReferences({ server: SERVER, key: KEY }, fetchImpl), {
    accepted: (b) => (seen.accepted += b),
    rejected: (b) => (seen.rejected += b),
    unverifiable: () => {},
    streamRefused: () => {},
    dropPeer: () => {},
  });
  return {
    guard,
    seen,
    fetchImpl,
    answerHash: (data: ArrayBuffer) => answer({ status: 200, json: async () => ({ sha256: hex(data) }) }),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('SegmentGuard: every segment from a peer is checked against the server’s hash of the origin', () => {
  it('hands over a segment whose bytes match, counting its peer bytes as accepted', async () => {
    const data = bytes(1000, 1);
    const { guard, seen, calls } = guardWith({ [`${SEG}|`]: [200, { sha256: hex(data) }] });
    guard.segmentStarted(SEG, undefined, 'p2p', 'peer-a');
    guard.chunk(600, 'p2p', 'peer-a');
    guard.chunk(400, 'p2p', 'peer-a');
    expect(await guard.validateP2P(SEG, undefined, data)).toBe(true);
    expect(seen).toMatchObject({ accepted: 1000, rejected: 0, dropped: [] });
    // Asked once, at the start of the download (the answer is ready when the last byte arrives).
    expect(calls).toHaveLength(1);
    expect(calls[0]?.pathname).toBe(PLAYER_PATHS.integrity);
    expect(Object.fromEntries(calls[0]?.searchParams ?? [])).toEqual({ key: KEY, url: SEG });
  });

  it('refuses altered bytes of the same length, counts them, and bans the peer for the stream', async () => {
    const good = bytes(1000, 1);
    const altered = bytes(1000, 2);
    const { guard, seen } = guardWith({ [`${SEG}|`]: [200, { sha256: hex(good) }] });
    guard.segmentStarted(SEG, undefined, 'p2p', 'evil');
    guard.chunk(1000, 'p2p', 'evil');
    expect(await guard.validateP2P(SEG, undefined, altered)).toBe(false);
    expect(seen).toMatchObject({ accepted: 0, rejected: 1000, dropped: ['evil'] });
    expect(guard.isBanned('evil')).toBe(true);
    // It comes back through the tracker: dropped again at once.
    guard.peerConnected('evil');
    guard.peerConnected('honest');
    expect(seen.dropped).toEqual(['evil', 'evil']);
  });

  it('bans the sender the library names when no chunk was attributed to it', async () => {
    const { guard, seen } = guardWith({ [`${SEG}|`]: [200, { sha256: hex(bytes(10, 1)) }] });
    expect(await guard.validateP2P(SEG, undefined, bytes(10, 9))).toBe(false);
    expect(seen.rejected).toBe(10);
    guard.segmentFailed(SEG, undefined, 'p2p-segment-validation-failed', 'sender');
    expect(guard.isBanned('sender')).toBe(true);
    // Another failure (a timeout, a segment the server cannot vouch for) bans nobody.
    guard.segmentFailed(SEG, undefined, 'p2p-segment-validation-failed', 'other');
    guard.segmentFailed(SEG, undefined, 'bytes-receiving-timeout', 'slow');
    expect(guard.isBanned('other') || guard.isBanned('slow')).toBe(false);
  });

  it('checks a segment the CDN completed after a peer sent its first bytes; a CDN-only one is not asked about', async () => {
    const good = bytes(1000, 1);
    const { guard, seen, calls } = guardWith({ [`${SEG}|`]: [200, { sha256: hex(good) }] });
    expect(await guard.validateHttp('https://cdn.example/v/s0.ts', undefined, bytes(5, 5))).toBe(true);
    expect(calls).toHaveLength(0);

    guard.segmentStarted(SEG, undefined, 'p2p', 'staller');
    guard.chunk(300, 'p2p', 'staller');
    const poisoned = new Uint8Array(good.slice(0));
    poisoned[10] = 0xff;
    expect(await guard.validateHttp(SEG, undefined, poisoned.buffer)).toBe(false);
    expect(seen).toMatchObject({ rejected: 300, dropped: ['staller'] });
    guard.segmentStarted(SEG, undefined, 'p2p', 'honest');
    guard.chunk(200, 'p2p', 'honest');
    expect(await guard.validateHttp(SEG, undefined, good)).toBe(true);
    expect(seen.accepted).toBe(200);
  });

  it('checks a segment the CDN path completes with a peer’s bytes while the peer’s copy is being checked', async () => {
    // p2p-media-loader 2.3.1: a peer's segment complete, its check pending, the library aborts the peer
    // download and its HTTP path finds every byte already loaded and validates them over HTTP at once.
    const good = bytes(1000, 1);
    const altered = bytes(1000, 2);
    const { guard, seen, fetchImpl, answerHash } = guardAwaitingServer();
    guard.segmentStarted(SEG, undefined, 'p2p', 'evil');
    guard.chunk(1000, 'p2p', 'evil');
    const asPeer = guard.validateP2P(SEG, undefined, altered);
    const asHttp = guard.validateHttp(SEG, undefined, altered);
    answerHash(good);
    expect(await asPeer).toBe(false);
    expect(await asHttp).toBe(false);
    // Counted once; the CDN's own bytes of the segment pass, checked against the hash already known.
    expect(seen).toEqual({ accepted: 0, rejected: 1000 });
    expect(await guard.validateHttp(SEG, undefined, good)).toBe(true);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('checks a peer’s complete copy the HTTP path hands over after its check failed unheard', async () => {
    // p2p-media-loader 2.3.1: the peer's no-bytes timeout fires while the check waits for the server.
    // The request fails with every byte still loaded, the peer path drops the check's verdict, and the
    // next HTTP attempt completes from those bytes (the attacker test saw fragment 5 stop hls.js so).
    const good = bytes(1000, 1);
    const altered = bytes(1000, 2);
    const { guard, seen, fetchImpl } = guardWith({ [`${SEG}|`]: [200, { sha256: hex(good) }] });
    guard.segmentStarted(SEG, undefined, 'p2p', 'evil');
    guard.chunk(1000, 'p2p', 'evil');
    expect(await guard.validateP2P(SEG, undefined, altered)).toBe(false);
    expect(await guard.validateHttp(SEG, undefined, altered)).toBe(false);
    expect(seen).toMatchObject({ accepted: 0, rejected: 1000 });
    expect(await guard.validateHttp(SEG, undefined, good)).toBe(true);
    // Once a check of the segment passed, its later CDN completions are not checked: the hash known is
    // not even looked up.
    const lookUp = vi.spyOn(IntegrityReferences.prototype, 'get');
    expect(await guard.validateHttp(SEG, undefined, good)).toBe(true);
    expect(lookUp).not.toHaveBeenCalled();
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('a segment a peer began loading again during a passing check stays suspect', async () => {
    const good = bytes(1000, 1);
    const { guard, answerHash } = guardAwaitingServer();
    guard.segmentStarted(SEG, undefined, 'p2p', 'honest');
    guard.chunk(1000, 'p2p', 'honest');
    const first = guard.validateP2P(SEG, undefined, good);
    guard.segmentStarted(SEG, undefined, 'p2p', 'evil');
    guard.chunk(300, 'p2p', 'evil');
    answerHash(good);
    expect(await first).toBe(true);
    const poisoned = new Uint8Array(good.slice(0));
    poisoned[10] = 0xff;
    expect(await guard.validateHttp(SEG, undefined, poisoned.buffer)).toBe(false);
  });

  it('a byte range is asked with its inclusive bounds and checked on its own', async () => {
    const range = { start: 1000, end: 1999 };
    const data = bytes(1000, 3);
    const { guard, calls } = guardWith({ [`${SEG}|1000-1999`]: [200, { sha256: hex(data) }] });
    expect(await guard.validateP2P(SEG, range, data)).toBe(true);
    expect(calls[0]?.searchParams.get('range')).toBe('1000-1999');
    expect(await guard.validateP2P(SEG, { start: 0, end: 999 }, data)).toBe(false);
  });

  it('a host the key does not own turns peers off for the stream; an origin that fails costs one segment', async () => {
    const other = 'https://cdn.example/v/s2.ts';
    const { guard, seen } = guardWith({ [`${SEG}|`]: [403, { message: 'no' }], [`${other}|`]: [502, {}] });
    expect(await guard.validateP2P(SEG, undefined, bytes(10, 1))).toBe(false);
    expect(seen).toMatchObject({ refused: 1, unverifiable: 1, rejected: 0, dropped: [] });
    expect(await guard.validateP2P(other, undefined, bytes(10, 1))).toBe(false);
    expect(seen).toMatchObject({ refused: 1, unverifiable: 2, rejected: 0, dropped: [] });
  });

  it('an answer that is not a hash is not believed', async () => {
    const { guard, seen } = guardWith({ [`${SEG}|`]: [200, { sha256: 'abc' }] });
    expect(await guard.validateP2P(SEG, undefined, bytes(10, 1))).toBe(false);
    expect(seen.unverifiable).toBe(1);
  });
});

describe('IntegrityReferences', () => {
  it('asks once for concurrent and later uses of a hash; keeps at most its bound', async () => {
    const answers: Record<string, [number, unknown]> = {};
    for (let i = 0; i < 6; i++) answers[`${SEG}${i}|`] = [200, { sha256: 'a'.repeat(64) }];
    const s = server(answers);
    const refs = new IntegrityReferences({ server: SERVER, key: KEY }, s.fetchImpl, 4);
    await Promise.all([refs.get(`${SEG}0`, undefined), refs.get(`${SEG}0`, undefined)]);
    await refs.get(`${SEG}0`, undefined);
    expect(s.calls).toHaveLength(1);
    for (let i = 1; i < 6; i++) await refs.get(`${SEG}${i}`, undefined);
    // 0 was the oldest of 4: asked again.
    await refs.get(`${SEG}0`, undefined);
    expect(s.calls).toHaveLength(7);
  });

  it('asks again about a segment the server could not fetch, after a few seconds', async () => {
    let t = 0;
    const s = server({ [`${SEG}|`]: [502, {}] });
    const refs = new IntegrityReferences({ server: SERVER, key: KEY }, s.fetchImpl, 4, () => t);
    expect(await refs.get(SEG, undefined)).toEqual({ kind: 'unavailable' });
    await refs.get(SEG, undefined);
    expect(s.calls).toHaveLength(1);
    t = 6000;
    await refs.get(SEG, undefined);
    expect(s.calls).toHaveLength(2);
  });

  it('a hash that does not come back in time is "unavailable"', async () => {
    const fetchImpl = vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise<never>((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        ),
    );
    const refs = new IntegrityReferences({ server: SERVER, key: KEY }, fetchImpl, 4, () => 0, 20);
    expect(await refs.get(SEG, undefined)).toEqual({ kind: 'unavailable' });
  });

  it('a network failure is "unavailable", never a hash', async () => {
    const refs = new IntegrityReferences({ server: SERVER, key: KEY }, async () => {
      throw new TypeError('offline');
    });
    expect(await refs.get(SEG, undefined)).toEqual({ kind: 'unavailable' });
  });
});

describe('sha256Hex', () => {
  it('is SHA-256 with WebCrypto, and the same without it (pages served over plain http)', async () => {
    const data = new Uint8Array(200_000).map((_, i) => (i * 31) % 251).buffer;
    expect(await sha256Hex(data)).toBe(hex(data));
    vi.stubGlobal('crypto', {});
    expect(await sha256Hex(data)).toBe(hex(data));
  });
});

describe('dropPeer', () => {
  it('finds a peer where p2p-media-loader 2.3.1 keeps it and disconnects it', () => {
    const destroyed: string[] = [];
    const peer = (id: string) => ({ peer: { destroy: () => destroyed.push(id) } });
    const engine = {
      core: {
        mainStreamLoader: {
          p2pLoaders: {
            loaders: new Map([
              ['s1', { loader: { trackerClient: { _peers: new Map([['evil', peer('evil')]]) } } }],
            ]),
          },
        },
      },
    };
    expect(dropPeer(engine, 'evil')).toBe(true);
    expect(dropPeer(engine, 'nobody')).toBe(false);
    expect(destroyed).toEqual(['evil']);
    expect(dropPeer({}, 'evil')).toBe(false);
  });

  it('walks names the bundled library really has (an upgrade that renames them fails here)', () => {
    // npm workspaces hoist the libraries to the repository's node_modules.
    const root = (pkg: string) => fileURLToPath(new URL(`../../../node_modules/${pkg}/`, import.meta.url));
    const core = readFileSync(`${root('p2p-media-loader-core')}dist/p2p-media-loader-core.es.js`, 'utf8');
    expect(core).toMatch(/\bmainStreamLoader;/);
    expect(core).toMatch(/\bsecondaryStreamLoader;/);
    expect(core).toMatch(/this\.p2pLoaders = new P2PLoadersContainer\(/);
    expect(core).toMatch(/this\.loaders\.set\(stream\.runtimeId, loader\)/);
    expect(core).toMatch(/return \{\s*loader,/);
    expect(core).toMatch(/this\.trackerClient = new P2PTrackerClient\(/);
    expect(core).toMatch(/_peers = \/\* @__PURE__ \*\/ new Map\(\)/);
    expect(core).toMatch(/peerItem\.peer = new Peer\(/);
    // own-network.ts: what the loader asks a peer before downloading from it, and the peer id's start.
    expect(core).toMatch(/peer\.getSegmentStatus\(segment\) === "loaded"\) peersWithSegment\.push\(peer\)/);
    expect(core).toMatch(/peerId = generatePeerId\(config\.trackerClientVersionPrefix\)/);
    // byte-range-fix.ts: the requests it reaches, and the clearing it repairs.
    expect(core).toMatch(/this\.requests = new RequestsContainer\(/);
    expect(core).toMatch(/var RequestsContainer = class \{\s*requests = \/\* @__PURE__ \*\/ new Map\(\);/);
    expect(core).toMatch(/this\._totalBytes = end - start \+ 1;/);
    expect(core).toMatch(
      /clearLoadedBytes\(\) \{\s*this\._loadedBytes = 0;\s*this\.bytes = \[\];\s*this\._totalBytes = void 0;/,
    );
    for (const pkg of ['p2p-media-loader-hlsjs', 'p2p-media-loader-shaka']) {
      const src = readFileSync(`${root(pkg)}lib/engine.js`, 'utf8');
      expect(src).toMatch(/this\.core = new Core\(/);
    }
  });
});

describe('keepByteRangeLengths', () => {
  /** The library's Request as far as the fix cares: clearing forgets the total, as 2.3.1 does. */
  class FakeRequest {
    _totalBytes: number | undefined;
    constructor(readonly segment: { byteRange?: { start: number; end: number } }) {
      this._totalBytes = segment.byteRange ? segment.byteRange.end - segment.byteRange.start + 1 : undefined;
    }
    clearLoadedBytes() {
      this._totalBytes = undefined;
    }
  }
  const engineWith = (...requests: FakeRequest[]) => ({
    core: { mainStreamLoader: { requests: { requests: new Map(requests.map((r, i) => [i, r])) } } },
  });

  it('a refused byte-range segment keeps the length its range gives it; others still forget theirs', () => {
    const ranged = new FakeRequest({ byteRange: { start: 100, end: 199 } });
    const whole = new FakeRequest({});
    whole._totalBytes = 500;
    expect(keepByteRangeLengths(engineWith(ranged, whole))).toBe(true);
    ranged.clearLoadedBytes();
    whole.clearLoadedBytes();
    expect(ranged._totalBytes).toBe(100);
    expect(whole._totalBytes).toBeUndefined();
    // Once per class, however many engines ask.
    expect(keepByteRangeLengths(engineWith(new FakeRequest({})))).toBe(true);
    new FakeRequest({ byteRange: { start: 0, end: 9 } }).clearLoadedBytes();
    const again = new FakeRequest({ byteRange: { start: 0, end: 9 } });
    again.clearLoadedBytes();
    expect(again._totalBytes).toBe(10);
  });

  it('does nothing before a request exists, or on objects it does not know', () => {
    expect(keepByteRangeLengths(engineWith())).toBe(false);
    expect(keepByteRangeLengths({})).toBe(false);
  });
});
