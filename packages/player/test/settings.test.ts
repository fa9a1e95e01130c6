import {
  KEY_SETTING_RANGES,
  swarmIdOf,
  TRACKER_SHARDS,
  trackerNodeFor,
  trackerNodeOrder,
  trackerShardOf,
  UNKNOWN_NETWORK_TAG,
} from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import {
  coreSettings,
  failoverPlanFor,
  opensPeering,
  type PlayerSettings,
  readSettings,
  swarmNodeFor,
  trackerUrlFor,
} from '../src/settings.js';

const defaults = {
  downloadTimeoutS: KEY_SETTING_RANGES[12]?.default,
  minBufferS: KEY_SETTING_RANGES[13]?.default,
  peeringQuota: KEY_SETTING_RANGES[101]?.default,
};
const ice = [{ urls: 'turn:turn.example.net:3478', username: 'u', credential: 'c' }];
const where = {
  trackerUrl: 'wss://p2p.example.net/tracker',
  key: 'KEY1',
  streamUrl: 'https://cdn.example.net/a.m3u8',
};

describe('readSettings', () => {
  it('takes the defaults of the key settings table for missing values, and keeps the ICE servers', () => {
    expect(readSettings({}, ice)).toEqual({
      ...defaults,
      minBufferSet: false,
      iceServers: ice,
      trackerNodes: [],
      trackerNodesAll: [],
      networkTag: undefined,
      ownNetworkFirst: 0,
    });
    expect(readSettings({}, ice, ['https://t1.example']).trackerNodes).toEqual(['https://t1.example']);
    expect(defaults).toEqual({ downloadTimeoutS: 5, minBufferS: 10, peeringQuota: 100 });
  });

  it('102: by network (the default), own peers suffice from TRACKER_MATCH_MIN_PEERS of them; otherwise never', () => {
    const net = { networkTag: 'a9Z0', matchMinPeers: 2 };
    expect(readSettings({}, [], [], [], net)).toMatchObject({ networkTag: 'a9Z0', ownNetworkFirst: 2 });
    expect(readSettings({}, [], [], [], { networkTag: 'a9Z0' }).ownNetworkFirst).toBe(1);
    expect(readSettings({ 102: 1 }, [], [], [], net).ownNetworkFirst).toBe(0);
    expect(readSettings({ 102: 0 }, [], [], [], net).ownNetworkFirst).toBe(0);
    expect(readSettings({ 102: 2 }, [], [], [], {}).ownNetworkFirst).toBe(0);
    // No known network (a private address outside NETWORKS_FILE): nothing to wait for.
    expect(readSettings({}, [], [], [], { networkTag: UNKNOWN_NETWORK_TAG }).ownNetworkFirst).toBe(0);
  });

  it('keeps values inside their ranges, the bounds included', () => {
    expect(readSettings({ 12: 30, 13: 60, 101: 50 }, [])).toMatchObject({
      downloadTimeoutS: 30,
      minBufferS: 60,
      peeringQuota: 50,
    });
    expect(readSettings({ 12: 1, 13: 600, 101: 0 }, [])).toMatchObject({
      downloadTimeoutS: 1,
      minBufferS: 600,
      peeringQuota: 0,
    });
    expect(readSettings({ 12: 120, 13: 1, 101: 100 }, [])).toMatchObject({
      downloadTimeoutS: 120,
      minBufferS: 1,
    });
  });

  it('falls back to the default for a value outside its range or not a finite number', () => {
    const bad: Array<Record<string, number>> = [
      { 12: 0, 13: 0, 101: -1 },
      { 12: 121, 13: 601, 101: 101 },
      { 12: Number.NaN, 13: Number.POSITIVE_INFINITY, 101: Number.NEGATIVE_INFINITY },
      { 12: '7', 13: null, 101: '50' } as unknown as Record<string, number>,
    ];
    for (const values of bad)
      expect(readSettings(values, []), JSON.stringify(values)).toMatchObject(defaults);
  });
});

describe('opensPeering', () => {
  it('draws the share of viewers the quota names, with the random source given', () => {
    expect(opensPeering(30, () => 0.29)).toBe(true);
    expect(opensPeering(30, () => 0.3)).toBe(false);
    expect(opensPeering(100, () => 0.999_999)).toBe(true);
    expect(opensPeering(1, () => 0)).toBe(true);
  });

  it('never opens peering at quota 0', () => {
    expect(opensPeering(0, () => 0)).toBe(false);
  });
});

describe('coreSettings', () => {
  const s: PlayerSettings = {
    downloadTimeoutS: 7,
    minBufferS: 25,
    minBufferSet: true,
    peeringQuota: 100,
    iceServers: ice,
    trackerNodes: [],
    trackerNodesAll: [],
    networkTag: undefined,
    ownNetworkFirst: 0,
  };

  it('maps 13 min buffer size to the high-demand window and 12 download timeout to the peer timeout', () => {
    const c = coreSettings(s, where, true);
    expect(c.highDemandTimeWindow).toBe(25);
    expect(c.p2pNotReceivingBytesTimeoutMs).toBe(7000);
    // The first segments wait for peers no longer than the download timeout, and never over 2 s.
    expect(c.httpDownloadInitialTimeoutMs).toBe(2000);
    expect(coreSettings({ ...s, downloadTimeoutS: 1 }, where, true).httpDownloadInitialTimeoutMs).toBe(1000);
    // HTTP prefetch is bounded (not the library's 3000 s), and peers get the segments further ahead.
    for (const minBufferS of [1, 10, 25, 600]) {
      const w = coreSettings({ ...s, minBufferS }, where, true);
      expect(w.httpDownloadTimeWindow, String(minBufferS)).toBeGreaterThanOrEqual(w.highDemandTimeWindow);
      expect(w.httpDownloadTimeWindow, String(minBufferS)).toBeLessThan(3000);
      expect(w.p2pDownloadTimeWindow, String(minBufferS)).toBeGreaterThan(w.httpDownloadTimeWindow);
    }
  });

  it("uses only our tracker and the server's ICE servers", () => {
    const c = coreSettings(s, where, true);
    expect(c.announceTrackers).toEqual([where.trackerUrl]);
    expect(c.rtcConfig).toEqual({ iceServers: ice });
    expect(coreSettings({ ...s, iceServers: [] }, where, true).rtcConfig).toEqual({ iceServers: [] });
  });

  it('101: a viewer outside the quota neither downloads from nor uploads to peers', () => {
    expect(coreSettings(s, where, true)).toMatchObject({ isP2PDisabled: false, isP2PUploadDisabled: false });
    expect(coreSettings(s, where, false)).toMatchObject({ isP2PDisabled: true, isP2PUploadDisabled: true });
  });

  it('quota 0 → P2P disabled for every viewer, whatever the draw', () => {
    const zero = readSettings({ 101: 0 }, []);
    for (const r of [0, 0.5, 0.999]) {
      const c = coreSettings(
        zero,
        where,
        opensPeering(zero.peeringQuota, () => r),
      );
      expect(c.isP2PDisabled).toBe(true);
      expect(c.isP2PUploadDisabled).toBe(true);
    }
  });

  it('names the swarm by key and stream: other keys or streams never share it', () => {
    const id = (key: string, streamUrl: string) =>
      coreSettings(s, { ...where, key, streamUrl }, true).swarmId;
    const base = id('KEY1', 'https://cdn.example.net/a.m3u8');
    expect(id('KEY2', 'https://cdn.example.net/a.m3u8')).not.toBe(base);
    expect(id('KEY1', 'https://cdn.example.net/b.m3u8')).not.toBe(base);
    expect(id('KEY1', 'https://cdn.example.net/a.m3u8')).toBe(base);
    // Per-viewer query strings (signed URLs) do not split one stream's viewers into swarms of one.
    expect(id('KEY1', 'https://cdn.example.net/a.m3u8?token=abc')).toBe(base);
    expect(base).toContain('KEY1');
  });
});

describe('trackerUrlFor', () => {
  const base: PlayerSettings = readSettings({}, []);
  const key = 'k3yHash';
  it("is the server's own tracker without TRACKER_NODES", () => {
    const shard = trackerShardOf(swarmIdOf(key, 'https://cdn.example/a.m3u8'));
    expect(trackerUrlFor('https://p2p.example', base, key, 'https://cdn.example/a.m3u8?t=1')).toBe(
      `wss://p2p.example/tracker?key=k3yHash&shard=${shard}`,
    );
  });
  it("names the swarm's shard, the same for every viewer of a stream and spread over the shards", () => {
    const shards = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const stream = `https://cdn.example/s${i}.m3u8`;
      const a = new URL(trackerUrlFor('https://p2p.example', base, key, `${stream}?viewer=a`));
      const b = new URL(trackerUrlFor('https://p2p.example', base, key, `${stream}?viewer=b`));
      expect(a.searchParams.get('shard')).toBe(b.searchParams.get('shard'));
      const shard = Number(a.searchParams.get('shard'));
      expect(Number.isInteger(shard) && shard >= 0 && shard < TRACKER_SHARDS).toBe(true);
      shards.add(shard);
    }
    // 200 swarms over 4,096 shards: a hash that spreads them leaves few collisions.
    expect(shards.size).toBeGreaterThan(190);
  });
  it('is the node the swarm hashes to with them, whatever the query of the stream', () => {
    const nodes = ['https://t1.example', 'http://t2.example:8080'];
    const s = { ...base, trackerNodes: nodes };
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const stream = `https://cdn.example/s${i}.m3u8`;
      const node = trackerNodeFor(swarmIdOf(key, stream), nodes) as string;
      const url = trackerUrlFor('https://p2p.example', s, key, `${stream}?token=${i}`);
      const shard = trackerShardOf(swarmIdOf(key, stream));
      expect(url).toBe(`${node.replace(/^http/, 'ws')}/tracker?key=k3yHash&shard=${shard}`);
      seen.add(new URL(url).origin);
    }
    expect(seen.size).toBe(2);
  });
});

describe('swarmNodeFor', () => {
  const base: PlayerSettings = readSettings({}, []);
  it("is the server that answered without TRACKER_NODES, else the swarm's tracker node for every viewer", () => {
    expect(swarmNodeFor('https://p2p.example', base, 'k', 'https://cdn.example/a.m3u8')).toBe(
      'https://p2p.example',
    );
    const s = { ...base, trackerNodes: ['https://t1.example', 'https://t2.example'] };
    for (let i = 0; i < 20; i++) {
      const stream = `https://cdn.example/s${i}.m3u8`;
      const node = swarmNodeFor('https://p2p.example', s, 'k', `${stream}?viewer=a`);
      // The hashes are asked of the node the viewers meet on, whichever viewer asks.
      expect(node).toBe(swarmNodeFor('https://p2p.example', s, 'k', `${stream}?viewer=b`));
      expect(
        trackerUrlFor('https://p2p.example', s, 'k', stream).startsWith(node.replace(/^http/, 'ws')),
      ).toBe(true);
    }
  });
});

describe('failoverPlanFor', () => {
  const nodes = ['https://t1.example', 'https://t2.example', 'https://t3.example'];
  it("orders every node by the swarm's rendezvous order and starts on its first live one", () => {
    for (let i = 0; i < 20; i++) {
      const stream = `https://cdn.example/s${i}.m3u8`;
      const order = trackerNodeOrder(swarmIdOf('k', stream), nodes);
      const dead = order[0] as string;
      const s = readSettings(
        {},
        [],
        nodes.filter((n) => n !== dead),
        nodes,
      );
      const plan = failoverPlanFor('https://p2p.example', s, 'k', `${stream}?t=${i}`);
      expect(plan.order).toEqual(order);
      expect(plan.order[plan.start]).toBe(order[1]);
      expect(plan.order[plan.start]).toBe(swarmNodeFor('https://p2p.example', s, 'k', stream));
      expect(plan.urlOn(order[1] as string)).toBe(trackerUrlFor('https://p2p.example', s, 'k', stream));
    }
  });
  it("is the answering server alone without TRACKER_NODES; an older server's single list is the order", () => {
    const plan = failoverPlanFor(
      'https://p2p.example',
      readSettings({}, []),
      'k',
      'https://cdn.example/a.m3u8',
    );
    expect(plan).toMatchObject({ order: ['https://p2p.example'], start: 0 });
    const old = failoverPlanFor(
      'https://p2p.example',
      readSettings({}, [], nodes),
      'k',
      'https://cdn.example/a.m3u8',
    );
    expect([...old.order].sort()).toEqual(nodes);
    expect(old.start).toBe(0);
  });
});
