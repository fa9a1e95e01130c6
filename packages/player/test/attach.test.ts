import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PLAYER_OWN_NETWORK_WAIT_MS,
  PLAYER_PATHS,
  PLAYER_REPORT_INTERVAL_MS,
  peerIdPrefixOf,
  swarmIdOf,
  type TIngestReport,
  trackerShardOf,
  UNKNOWN_NETWORK_TAG,
} from '@tlprt/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attach } from '../src/attach.js';
import { FakeVideo } from './fake-media.js';

/**
 * attach() against a real local HTTP server standing in for ours. The P2P engines are fakes: the real
 * ones open WebRTC and a tracker connection, which a unit test must not do; what attach hands them is
 * what is checked.
 */
const engines = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => void;
  class FakeHlsJsP2PEngine {
    static made: FakeHlsJsP2PEngine[] = [];
    listeners = new Map<string, Listener>();
    bound: unknown[] = [];
    destroyed = false;
    constructor(readonly config: { core: Record<string, unknown> }) {
      FakeHlsJsP2PEngine.made.push(this);
    }
    addEventListener(name: string, l: Listener) {
      this.listeners.set(name, l);
    }
    emit(name: string, ...args: unknown[]) {
      this.listeners.get(name)?.(...args);
    }
    getConfigForHlsJs() {
      return { fLoader: class {}, pLoader: class {} };
    }
    bindHls(hls: unknown) {
      this.bound.push(hls);
    }
    destroy() {
      this.destroyed = true;
    }
    dynamic: unknown[] = [];
    applyDynamicConfig(c: unknown) {
      this.dynamic.push(c);
    }
    /** What p2p-media-loader calls when a peer completed a segment. */
    validate(url: string, range: unknown, data: ArrayBuffer): Promise<boolean> {
      const v = this.config.core.validateP2PSegment as (
        u: string,
        r: unknown,
        d: ArrayBuffer,
      ) => Promise<boolean>;
      return v(url, range, data);
    }
  }
  return { FakeHlsJsP2PEngine };
});
vi.mock('p2p-media-loader-hlsjs', () => ({ HlsJsP2PEngine: engines.FakeHlsJsP2PEngine }));
vi.mock('p2p-media-loader-shaka', () => ({
  ShakaP2PEngine: class extends engines.FakeHlsJsP2PEngine {
    static registerPlugins() {}
    constructor(
      config: { core: Record<string, unknown> },
      readonly shaka: unknown,
    ) {
      super(config);
    }
    bindShakaPlayer(player: unknown) {
      this.bound.push(player);
    }
  },
}));

type HlsListener = (event: string, data: unknown) => void;
class FakeHls {
  static made: FakeHls[] = [];
  loaded: string[] = [];
  media: unknown[] = [];
  destroyed = false;
  listeners = new Map<string, Set<HlsListener>>();
  constructor(readonly config: Record<string, unknown> = {}) {
    FakeHls.made.push(this);
  }
  on(event: string, l: HlsListener) {
    const set = this.listeners.get(event) ?? new Set();
    set.add(l);
    this.listeners.set(event, set);
  }
  off(event: string, l: HlsListener) {
    this.listeners.get(event)?.delete(l);
  }
  emit(event: string, data: unknown) {
    for (const l of this.listeners.get(event) ?? []) l(event, data);
  }
  loadSource(src: string) {
    this.loaded.push(src);
  }
  attachMedia(m: unknown) {
    this.media.push(m);
    this.emit('hlsMediaAttaching', { media: m });
  }
  destroy() {
    this.destroyed = true;
  }
}

const sha256 = (data: ArrayBuffer) => createHash('sha256').update(new Uint8Array(data)).digest('hex');

const KEY = 'AbCdEf0123456789';
const SRC = 'https://cdn.customer.example/live/index.m3u8';

interface Seen {
  method: string;
  path: string;
  body: string;
}
let server: Server;
let base: string;
let seen: Seen[];
let settingsStatus: number;
let settings: Record<string, number>;
/** What the settings answer says of the viewer's network. */
let network: { networkTag?: string; matchMinPeers?: number };
const OWN_TAG = 'Own1';
/** A peer id of the plugin's convention, of the viewer's own network unless another tag is given. */
const peerOf = (n: number, tag = OWN_TAG) => `${peerIdPrefixOf(tag)}${String(n).padStart(12, '0')}`;
/** The integrity service's answers: segment URL → [status, sha256]. */
let integrity: Map<string, [number, string]>;

const ingests = () => seen.filter((s) => s.path === PLAYER_PATHS.ingest);
const reportsSent = () =>
  ingests().flatMap((s) => (JSON.parse(s.body) as { reports: TIngestReport[] }).reports);

/** What the server counts: each seq once (a keepalive send may repeat a report still unacknowledged),
 *  as [seq, cdnBytes, p2pBytes]; a seq sent twice with other bytes fails the test. */
function countedOnce(): Array<[number, number, number]> {
  const bySeq = new Map<number, [number, number, number]>();
  for (const r of reportsSent()) {
    const row: [number, number, number] = [r.seq ?? -1, r.cdnBytes, r.p2pBytes];
    const before = bySeq.get(row[0]);
    if (before) expect(before).toEqual(row);
    bySeq.set(row[0], row);
  }
  return [...bySeq.values()].sort((a, b) => a[0] - b[0]);
}

/** Real time passes for the local server's answers: only intervals are faked. */
const settle = (ms = 50) => new Promise((r) => setTimeout(r, ms));
async function until(what: () => boolean, ms = 2000) {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await settle(5);
  }
}

beforeEach(async () => {
  seen = [];
  settingsStatus = 200;
  settings = { 12: 5, 13: 10, 101: 100 };
  network = { networkTag: OWN_TAG, matchMinPeers: 1 };
  integrity = new Map();
  engines.FakeHlsJsP2PEngine.made = [];
  FakeHls.made = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      seen.push({ method: req.method ?? '', path, body });
      res.setHeader('Content-Type', 'application/json');
      if (path === PLAYER_PATHS.settings(KEY)) {
        res.statusCode = settingsStatus;
        res.end(
          settingsStatus === 200
            ? JSON.stringify({
                message: 'ok',
                data: {
                  keyHash: KEY,
                  settings,
                  iceServers: [{ urls: 'stun:stun.customer.example:3478' }],
                  ...network,
                },
              })
            : JSON.stringify({ message: 'Not found' }),
        );
      } else if (path === PLAYER_PATHS.integrity) {
        const q = new URL(req.url ?? '', 'http://x').searchParams;
        const [status, sha256] =
          q.get('key') === KEY ? (integrity.get(q.get('url') ?? '') ?? [404, '']) : [404, ''];
        res.statusCode = status;
        res.end(JSON.stringify(status === 200 ? { sha256 } : { message: 'no' }));
      } else if (path === PLAYER_PATHS.ingest) {
        res.statusCode = 202;
        res.end(JSON.stringify({ accepted: 1, rejected: 0, errors: [] }));
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  // The page around the player: attach listens for page hide and resolves the stream against it.
  vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('location', new URL('https://customer.example/watch'));
});

afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await new Promise((r) => server.close(r));
});

describe('attach: a key the server does not serve (404) → CDN only', () => {
  it('plays without P2P, reports nothing, not even on page hide or detach', async () => {
    settingsStatus = 404;
    const video = {} as HTMLMediaElement;
    const handle = await attach({
      key: KEY,
      player: 'hls.js',
      instance: FakeHls,
      src: SRC,
      video,
      server: base,
    });
    expect(handle.active).toBe(false);
    expect(handle.peering).toBe(false);
    expect(engines.FakeHlsJsP2PEngine.made).toHaveLength(0);
    const hls = FakeHls.made[0];
    expect(hls?.loaded).toEqual([SRC]);
    expect(hls?.media).toEqual([video]);
    expect(hls?.config).toEqual({});

    handle.addCdnBytes(123_456);
    expect(handle.counters().cdnBytes).toBe(123_456);
    vi.advanceTimersByTime(PLAYER_REPORT_INTERVAL_MS * 3);
    window.dispatchEvent(new Event('pagehide'));
    handle.detach();
    await settle(100);
    expect(hls?.destroyed).toBe(true);
    expect(seen.map((s) => s.path)).toEqual([PLAYER_PATHS.settings(KEY)]);
    expect(ingests()).toEqual([]);
  });

  it('treats an unreachable server or an answer of another shape like a 404', async () => {
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, '127.0.0.1', r));
    const closedPort = (gone.address() as AddressInfo).port;
    await new Promise((r) => gone.close(r));
    const down = await attach({
      key: KEY,
      player: 'hls.js',
      instance: FakeHls,
      src: SRC,
      server: `http://127.0.0.1:${closedPort}`,
    });
    expect(down.active).toBe(false);
    down.detach();

    settings = { 12: 'five' } as unknown as Record<string, number>;
    const odd = await attach({ key: KEY, player: 'hls.js', instance: FakeHls, src: SRC, server: base });
    expect(odd.active).toBe(false);
    expect(seen.map((x) => x.path)).toEqual([PLAYER_PATHS.settings(KEY)]);
    odd.addCdnBytes(10);
    odd.detach();
    await settle(100);
    expect(ingests()).toEqual([]);
  });
});

describe('attach: a usable key (200)', () => {
  it('applies the settings to the P2P engine, reports the bytes every 10 s, and the rest at detach', async () => {
    const video = {} as HTMLMediaElement;
    const handle = await attach({
      key: KEY,
      player: 'hls.js',
      instance: FakeHls,
      src: SRC,
      video,
      server: `${base}/`,
      hlsConfig: { maxBufferLength: 30 },
    });
    expect(handle.active).toBe(true);
    expect(handle.peering).toBe(true);
    const engine = engines.FakeHlsJsP2PEngine.made[0];
    if (!engine) throw new Error('no P2P engine');
    expect(engine.config.core).toMatchObject({
      announceTrackers: [
        `${base.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}?key=${KEY}&shard=${trackerShardOf(swarmIdOf(KEY, SRC))}`,
      ],
      rtcConfig: { iceServers: [{ urls: 'stun:stun.customer.example:3478' }] },
      swarmId: `${KEY}:${SRC}`,
      isP2PDisabled: false,
      highDemandTimeWindow: 10,
      p2pNotReceivingBytesTimeoutMs: 5000,
      // The peer id carries the network the settings answer named: the tracker holds it to it.
      trackerClientVersionPrefix: `-TL${OWN_TAG}-`,
    });
    const hls = FakeHls.made[0];
    expect(hls?.config).toMatchObject({ maxBufferLength: 30 });
    expect(hls?.config.fLoader).toBeTypeOf('function');
    expect(engine.bound).toEqual([hls]);

    engine.emit('onChunkDownloaded', 1000, 'http', undefined);
    // Peer bytes count once they match the origin's hash.
    const segment = { url: `${SRC.replace('index.m3u8', 's1.ts')}`, byteRange: undefined };
    const data = new Uint8Array(400).fill(7).buffer;
    integrity.set(segment.url, [200, sha256(data)]);
    engine.emit('onSegmentStart', { segment, downloadSource: 'p2p', peerId: peerOf(1) });
    engine.emit('onChunkDownloaded', 400, 'p2p', peerOf(1));
    expect(handle.counters()).toMatchObject({ cdnBytes: 1000, p2pBytes: 0 });
    expect(await engine.validate(segment.url, undefined, data)).toBe(true);
    expect(handle.counters()).toMatchObject({ cdnBytes: 1000, p2pBytes: 400, rejectedBytes: 0 });
    // Nothing goes out before the report interval.
    vi.advanceTimersByTime(PLAYER_REPORT_INTERVAL_MS - 1);
    await settle();
    expect(ingests()).toEqual([]);
    vi.advanceTimersByTime(1);
    await until(() => ingests().length === 1);
    expect(reportsSent()).toEqual([
      {
        apiKey: KEY,
        sessionId: handle.sessionId,
        ts: expect.any(Number),
        cdnBytes: 1000,
        p2pBytes: 400,
        stream: SRC,
        seq: 0,
      },
    ]);

    // Detached at once, maybe before the first answer is back: the rest still goes out.
    engine.emit('onChunkDownloaded', 77, 'http', undefined);
    handle.detach();
    await until(() => ingests().length === 2);
    expect(countedOnce()).toEqual([
      [0, 1000, 400],
      [1, 77, 0],
    ]);
    expect(engine.destroyed).toBe(true);
    expect(hls?.destroyed).toBe(true);

    // Detached: the interval is gone.
    vi.advanceTimersByTime(PLAYER_REPORT_INTERVAL_MS * 3);
    await settle();
    expect(ingests()).toHaveLength(2);
  });

  it('counts the verified bytes from peers of other networks, and takes nothing from them once a peer of its own network is there', async () => {
    const start = Date.now();
    let elapsed = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => start + elapsed);
    const handle = await attach({ key: KEY, player: 'hls.js', instance: FakeHls, src: SRC, server: base });
    const engine = engines.FakeHlsJsP2PEngine.made[0];
    if (!engine) throw new Error('no P2P engine');
    // The library's peers where it keeps them (peer-drop.ts), each holding every segment.
    const held = new Map<string, { peer: { getSegmentStatus(s: unknown): string | undefined } }>();
    Object.assign(engine, {
      core: {
        mainStreamLoader: {
          p2pLoaders: { loaders: new Map([['v', { loader: { trackerClient: { _peers: held } } }]]) },
        },
      },
    });
    const connect = async (id: string) => {
      held.set(id, { peer: { getSegmentStatus: () => 'loaded' } });
      engine.emit('onPeerConnect', { peerId: id });
      await settle(5);
    };
    const status = (id: string) => held.get(id)?.peer.getSegmentStatus({});
    const other = peerOf(2, 'Oth2');
    const unknown = peerOf(3, UNKNOWN_NETWORK_TAG);
    // Alone in its network: it first waits a moment for neighbours, then the others serve it.
    await connect(other);
    await connect(unknown);
    expect(status(other)).toBeUndefined();
    elapsed = PLAYER_OWN_NETWORK_WAIT_MS;
    expect([status(other), status(unknown)]).toEqual(['loaded', 'loaded']);
    for (const [n, from, size] of [
      [1, other, 300],
      [2, unknown, 50],
    ] as const) {
      const segment = { url: SRC.replace('index.m3u8', `x${n}.ts`), byteRange: undefined };
      const data = new Uint8Array(size).fill(n).buffer;
      integrity.set(segment.url, [200, sha256(data)]);
      engine.emit('onSegmentStart', { segment, downloadSource: 'p2p', peerId: from });
      engine.emit('onChunkDownloaded', size, 'p2p', from);
      expect(await engine.validate(segment.url, undefined, data)).toBe(true);
    }
    // A peer of its own network arrives: the others hold nothing for this viewer's loader any more.
    await connect(peerOf(4));
    expect([status(other), status(unknown), status(peerOf(4))]).toEqual([undefined, undefined, 'loaded']);
    const own = { url: SRC.replace('index.m3u8', 'x3.ts'), byteRange: undefined };
    const data = new Uint8Array(200).fill(3).buffer;
    integrity.set(own.url, [200, sha256(data)]);
    engine.emit('onSegmentStart', { segment: own, downloadSource: 'p2p', peerId: peerOf(4) });
    engine.emit('onChunkDownloaded', 200, 'p2p', peerOf(4));
    expect(await engine.validate(own.url, undefined, data)).toBe(true);
    expect(handle.counters()).toMatchObject({ p2pBytes: 550, p2pCrossBytes: 350 });
    // It leaves: the others serve again.
    engine.emit('onPeerClose', { peerId: peerOf(4) });
    expect(status(other)).toBe('loaded');
    handle.detach();
    await until(() => ingests().length === 1);
    expect(reportsSent()[0]).toMatchObject({ p2pBytes: 550, p2pCrossBytes: 350 });
  });

  it('matching not by network (102 anyone), or no network named by the server: nothing is left aside', async () => {
    for (const [values, answer] of [
      [{ 102: 0 }, network],
      [{}, {}],
    ] as const) {
      settings = { ...values };
      network = answer;
      engines.FakeHlsJsP2PEngine.made = [];
      const handle = await attach({ key: KEY, player: 'hls.js', instance: FakeHls, src: SRC, server: base });
      const engine = engines.FakeHlsJsP2PEngine.made[0];
      if (!engine) throw new Error('no P2P engine');
      const peer = { getSegmentStatus: () => 'loaded' };
      const held = new Map([[peerOf(2, 'Oth2'), { peer }]]);
      Object.assign(engine, {
        core: {
          mainStreamLoader: {
            p2pLoaders: { loaders: new Map([['v', { loader: { trackerClient: { _peers: held } } }]]) },
          },
        },
      });
      engine.emit('onPeerConnect', { peerId: peerOf(2, 'Oth2') });
      engine.emit('onPeerConnect', { peerId: peerOf(4) });
      await settle(5);
      expect(peer.getSegmentStatus()).toBe('loaded');
      // Without a tag from the server the library's own peer id stands.
      expect('trackerClientVersionPrefix' in engine.config.core).toBe(answer.networkTag !== undefined);
      handle.detach();
    }
  });

  it('refuses a peer’s altered segment: nothing counted as P2P, the refused bytes reported, the sender dropped whenever it comes back', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout'] });
    const handle = await attach({ key: KEY, player: 'hls.js', instance: FakeHls, src: SRC, server: base });
    const engine = engines.FakeHlsJsP2PEngine.made[0];
    if (!engine) throw new Error('no P2P engine');
    const segment = { url: SRC.replace('index.m3u8', 's2.ts'), byteRange: undefined };
    integrity.set(segment.url, [200, sha256(new Uint8Array(300).fill(1).buffer)]);
    engine.emit('onSegmentStart', { segment, downloadSource: 'p2p', peerId: 'evil' });
    engine.emit('onChunkDownloaded', 300, 'p2p', 'evil');
    expect(await engine.validate(segment.url, undefined, new Uint8Array(300).fill(2).buffer)).toBe(false);
    expect(handle.counters()).toMatchObject({ p2pBytes: 0, rejectedBytes: 300 });
    engine.emit('onSegmentError', {
      segment,
      error: { type: 'p2p-segment-validation-failed' },
      peerId: 'evil',
    });
    // (The library has closed that connection itself.)
    vi.advanceTimersByTime(1);
    // The library announces a peer before it can be found: the plugin drops it right after.
    const destroyed: string[] = [];
    const peers = new Map([['evil', { peer: { destroy: () => destroyed.push('evil') } }]]);
    Object.assign(engine, {
      core: {
        mainStreamLoader: {
          p2pLoaders: { loaders: new Map([['s', { loader: { trackerClient: { _peers: peers } } }]]) },
        },
      },
    });
    engine.emit('onPeerConnect', { peerId: 'evil' });
    engine.emit('onPeerConnect', { peerId: 'honest' });
    vi.advanceTimersByTime(1);
    expect(destroyed).toEqual(['evil']);
    vi.useRealTimers();

    handle.detach();
    await until(() => ingests().length === 1);
    expect(reportsSent()).toEqual([
      expect.objectContaining({ cdnBytes: 0, p2pBytes: 0, rejectedBytes: 300 }),
    ]);
  });

  it('a stream on a host the key does not own (403) turns peers off; the segment comes from the CDN', async () => {
    const handle = await attach({ key: KEY, player: 'hls.js', instance: FakeHls, src: SRC, server: base });
    const engine = engines.FakeHlsJsP2PEngine.made[0];
    if (!engine) throw new Error('no P2P engine');
    const url = SRC.replace('index.m3u8', 's3.ts');
    integrity.set(url, [403, '']);
    expect(await engine.validate(url, undefined, new Uint8Array(10).buffer)).toBe(false);
    expect(engine.dynamic).toEqual([{ core: { isP2PDisabled: true, isP2PUploadDisabled: true } }]);
    expect(handle.counters()).toMatchObject({ p2pBytes: 0, rejectedBytes: 0, unverifiableSegments: 1 });
    handle.detach();
  });

  it('Shaka gets the same verification, swarm and keyed tracker', async () => {
    const player = { loaded: [] as string[], load: async (src: string) => void player.loaded.push(src) };
    const handle = await attach({
      key: KEY,
      player: 'shaka',
      instance: player,
      shaka: {},
      src: SRC,
      server: base,
    });
    const engine = engines.FakeHlsJsP2PEngine.made[0];
    if (!engine) throw new Error('no P2P engine');
    expect(engine.config.core).toMatchObject({
      announceTrackers: [
        `${base.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}?key=${KEY}&shard=${trackerShardOf(swarmIdOf(KEY, SRC))}`,
      ],
      swarmId: `${KEY}:${SRC}`,
      validateP2PSegment: expect.any(Function),
      validateHTTPSegment: expect.any(Function),
    });
    expect(engine.bound).toEqual([player]);
    expect(player.loaded).toEqual([SRC]);
    const range = { start: 0, end: 9 };
    const url = SRC.replace('index.m3u8', 'media.mp4');
    integrity.set(url, [200, sha256(new Uint8Array(10).fill(4).buffer)]);
    engine.emit('onSegmentStart', { segment: { url, byteRange: range }, downloadSource: 'p2p', peerId: 'p' });
    engine.emit('onChunkDownloaded', 10, 'p2p', 'p');
    expect(await engine.validate(url, range, new Uint8Array(10).fill(4).buffer)).toBe(true);
    expect(seen.find((x) => x.path === PLAYER_PATHS.integrity)).toBeDefined();
    expect(handle.counters()).toMatchObject({ p2pBytes: 10 });
    handle.detach();
  });

  it('sends what it has when the page is hidden', async () => {
    const handle = await attach({ key: KEY, player: 'hls.js', instance: FakeHls, src: SRC, server: base });
    handle.addCdnBytes(5000);
    Object.assign(document, { visibilityState: 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    await until(() => ingests().length === 1);
    expect(reportsSent()).toEqual([expect.objectContaining({ cdnBytes: 5000, seq: 0 })]);
    handle.detach();
  });

  it('quota 0: active and reporting, but no peering', async () => {
    settings = { 12: 5, 13: 10, 101: 0 };
    const handle = await attach({ key: KEY, player: 'hls.js', instance: FakeHls, src: SRC, server: base });
    expect(handle.active).toBe(true);
    expect(handle.peering).toBe(false);
    expect(engines.FakeHlsJsP2PEngine.made[0]?.config.core).toMatchObject({
      isP2PDisabled: true,
      isP2PUploadDisabled: true,
    });
    handle.addCdnBytes(10);
    handle.detach();
    await until(() => ingests().length === 1);
  });

  it('the first segment the player needs never waits for peers; the segments ahead do, for the rest of 12 (at most 2 s)', async () => {
    /** The engine's objects as far as opening.ts finds a segment's stream: one main-stream request. */
    const withRequest = (engine: object, runtimeId: string) =>
      Object.assign(engine, {
        core: {
          mainStreamLoader: { requests: { requests: new Map([[{}, { segment: { runtimeId } }]]) } },
        },
      });
    const started = (engine: InstanceType<typeof engines.FakeHlsJsP2PEngine>, runtimeId: string) =>
      engine.emit('onSegmentStart', {
        segment: { runtimeId, url: SRC.replace('index.m3u8', `${runtimeId}.ts`), byteRange: undefined },
        downloadSource: 'http',
        peerId: undefined,
      });
    const wait = (ms: number) => ({
      core: { mainStream: { httpDownloadInitialTimeoutMs: ms, simultaneousHttpDownloads: 2 } },
    });
    const opening = wait(2000);
    const lifted = wait(0);

    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    const handle = await attach({ key: KEY, player: 'hls.js', instance: FakeHls, src: SRC, server: base });
    const engine = engines.FakeHlsJsP2PEngine.made[0];
    if (!engine) throw new Error('no P2P engine');
    // The library would hold the first segment's download too: the engine starts without the wait,
    // and with one CDN download at a time, so that the segment after it is not taken in the same pass.
    expect(engine.config.core).toMatchObject({
      httpDownloadInitialTimeoutMs: 0,
      simultaneousHttpDownloads: 1,
    });
    withRequest(engine, 's0');
    started(engine, 's0');
    expect(engine.dynamic).toEqual([opening]);
    started(engine, 's0');
    vi.advanceTimersByTime(1999);
    expect(engine.dynamic).toEqual([opening]);
    vi.advanceTimersByTime(1);
    expect(engine.dynamic).toEqual([opening, lifted]);
    handle.detach();

    // 12 below 2 s: that long.
    settings = { 12: 1, 13: 10, 101: 100 };
    const short = await attach({ key: KEY, player: 'hls.js', instance: FakeHls, src: SRC, server: base });
    const shortEngine = engines.FakeHlsJsP2PEngine.made[1];
    if (!shortEngine) throw new Error('no P2P engine');
    withRequest(shortEngine, 's0');
    started(shortEngine, 's0');
    expect(shortEngine.dynamic).toEqual([wait(1000)]);
    // Detached inside the window: nothing left waiting, and the lift does not come again later.
    short.detach();
    expect(shortEngine.dynamic.at(-1)).toEqual(lifted);
    const afterDetach = shortEngine.dynamic.length;
    vi.advanceTimersByTime(5000);
    expect(shortEngine.dynamic).toHaveLength(afterDetach);

    // A viewer outside the peering quota has no peers to wait for.
    settings = { 12: 5, 13: 10, 101: 0 };
    const alone = await attach({ key: KEY, player: 'hls.js', instance: FakeHls, src: SRC, server: base });
    const aloneEngine = engines.FakeHlsJsP2PEngine.made[2];
    if (!aloneEngine) throw new Error('no P2P engine');
    expect(aloneEngine.config.core).toMatchObject({
      httpDownloadInitialTimeoutMs: 0,
      simultaneousHttpDownloads: 2,
    });
    withRequest(aloneEngine, 's0');
    started(aloneEngine, 's0');
    expect(aloneEngine.dynamic).toEqual([]);
    alone.detach();
    vi.useRealTimers();
  });

  it('players without P2P integration are active but never peer', async () => {
    const handle = await attach({ key: KEY, player: 'videojs', server: base });
    expect(handle.active).toBe(true);
    expect(handle.peering).toBe(false);
    expect(engines.FakeHlsJsP2PEngine.made).toHaveLength(0);
    handle.addCdnBytes(42);
    handle.detach();
    await until(() => ingests().length === 1);
    expect(reportsSent()).toEqual([expect.objectContaining({ cdnBytes: 42, p2pBytes: 0 })]);
  });
});

describe('attach: viewer experience', () => {
  it('hls.js: reports what the viewer lived, with no bytes received, its peers and its stream without query', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const video = new FakeVideo();
    const handle = await attach({
      key: KEY,
      player: 'hls.js',
      instance: FakeHls,
      src: `${SRC}?token=viewer-secret`,
      video: video as unknown as HTMLMediaElement,
      server: base,
    });
    const engine = engines.FakeHlsJsP2PEngine.made[0];
    const hls = FakeHls.made[0];
    if (!engine || !hls) throw new Error('no player');
    // One peer sharing both the video and the audio stream is one peer.
    engine.emit('onPeerConnect', { peerId: 'a', streamType: 'main' });
    engine.emit('onPeerConnect', { peerId: 'a', streamType: 'secondary' });
    engine.emit('onPeerConnect', { peerId: 'b', streamType: 'main' });
    engine.emit('onPeerClose', { peerId: 'a', streamType: 'secondary' });
    engine.emit('onPeerClose', { peerId: 'b', streamType: 'main' });

    video.fire('play', { paused: false, readyState: 1 });
    vi.advanceTimersByTime(500);
    video.fire('playing', { readyState: 3 });
    video.fire('timeupdate', { currentTime: 0.5 });
    vi.advanceTimersByTime(PLAYER_REPORT_INTERVAL_MS - 500);
    await until(() => ingests().length === 1);
    expect(reportsSent()).toEqual([
      {
        apiKey: KEY,
        sessionId: handle.sessionId,
        ts: expect.any(Number),
        cdnBytes: 0,
        p2pBytes: 0,
        playMs: PLAYER_REPORT_INTERVAL_MS - 500,
        startupMs: [500],
        plays: 1,
        peers: 1,
        stream: SRC,
        seq: 0,
      },
    ]);

    // hls.js's fatal error, then the element's own: one failure; a non-fatal one is none.
    vi.advanceTimersByTime(2000);
    hls.emit('hlsError', { fatal: false });
    hls.emit('hlsError', { fatal: true });
    video.fire('error', { error: { code: 3 } });
    handle.detach();
    await until(() => ingests().length === 2);
    // Detached before the first answer was read, the keepalive send repeats seq 0 ahead of seq 1.
    const second = reportsSent().find((r) => r.seq === 1);
    expect(second).toMatchObject({ playMs: 2000, failures: 1 });
    expect(second?.plays).toBeUndefined();
  });

  it('players built on hls.js: their hls.js, handed over as a function, is followed from its first playlist loader', async () => {
    const handle = await attach({ key: KEY, player: 'clappr', src: SRC, server: base });
    const video = new FakeVideo();
    // Already playing in its element (hls.js keeps it as `media`).
    const theirs = Object.assign(new FakeHls(), { media: video as unknown });
    let playback: FakeHls | undefined;
    handle.bindHls(() => playback);
    // Before Clappr made its hls.js the getter has nothing; the loader hls.js makes finds it.
    playback = theirs;
    const PLoader = handle.hlsConfig.pLoader as new (config: object) => unknown;
    new PLoader({});
    video.fire('play', { paused: false, readyState: 1 });
    theirs.emit('hlsError', { fatal: true });
    handle.detach();
    await until(() => ingests().length === 1);
    expect(reportsSent()[0]).toMatchObject({ cdnBytes: 0, plays: 1, failures: 1, stream: SRC });
  });

  it('Shaka: its element and its critical errors; a failed load is reported though attach rejects', async () => {
    const video = new FakeVideo();
    const player = Object.assign(new EventTarget(), {
      getMediaElement: () => video,
      load: async () => {
        video.fire('play', { paused: false, readyState: 1 });
        throw Object.assign(new Error('manifest'), { severity: 2, code: 1001 });
      },
    });
    await expect(
      attach({ key: KEY, player: 'shaka', instance: player, shaka: {}, src: SRC, server: base }),
    ).rejects.toThrow('manifest');
    await until(() => ingests().length === 1);
    expect(reportsSent()[0]).toMatchObject({ plays: 1, failures: 1, stream: SRC });

    // A load interrupted by another is the page's doing: no failure; a critical error event is one.
    const other = new FakeVideo();
    const quiet = Object.assign(new EventTarget(), { getMediaElement: () => other, load: async () => {} });
    const handle = await attach({
      key: KEY,
      player: 'shaka',
      instance: quiet,
      shaka: {},
      src: SRC,
      server: base,
    });
    quiet.dispatchEvent(Object.assign(new Event('error'), { detail: { severity: 1, code: 1001 } }));
    quiet.dispatchEvent(Object.assign(new Event('error'), { detail: { severity: 2, code: 7000 } }));
    expect(ingests()).toHaveLength(1);
    quiet.dispatchEvent(Object.assign(new Event('error'), { detail: { severity: 2, code: 3016 } }));
    handle.detach();
    await until(() => ingests().length === 2);
    expect(reportsSent()[1]).toMatchObject({ failures: 1 });
  });

  it('CDN-only players: the element when the page names it, nothing of it otherwise', async () => {
    const video = new FakeVideo();
    const handle = await attach({
      key: KEY,
      player: 'uppod',
      video: video as unknown as HTMLMediaElement,
      server: base,
    });
    video.fire('play', { paused: false });
    handle.detach();
    await until(() => ingests().length === 1);
    expect(reportsSent()[0]).toMatchObject({ plays: 1 });
    expect(reportsSent()[0]?.stream).toBeUndefined();

    const blind = await attach({ key: KEY, player: 'uppod', server: base });
    blind.detach();
    await settle(100);
    expect(ingests()).toHaveLength(1);
  });
});
