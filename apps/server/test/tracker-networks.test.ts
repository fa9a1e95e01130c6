import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BREAKDOWN_UNKNOWN,
  KeySettingId,
  networkTagOf,
  PATHS,
  PeerMatching,
  PLAYER_PATHS,
  peerIdPrefixOf,
  SUPERVISOR_SET,
  swarmIdOf,
  trackerNodeFor,
  trackerShardOf,
  UNKNOWN_NETWORK_TAG,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { ViewerFactsResolver } from '../src/features/statistics/viewer-facts.js';
import { parseNetworks } from '../src/net/networks.js';
import { buildDomain, buildKey, buildTeam, buildUser, memoryMailer } from './factories.js';
import { freePort } from './helpers/free-port.js';
import { Api } from './helpers/http.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';
import { type Inbox, inbox, type WsClient } from './helpers/ws.js';

/**
 * ISP-aware peer matching (docs/DESIGN.md §14): the tracker answers an announce with peers of the announcer's
 * own network first, others only when its network has too few, same country before anyone. Viewers
 * come from many addresses through one trusted proxy hop (TRUST_PROXY=1, X-Forwarded-For), as behind a
 * load balancer; networks are NETWORKS_FILE's private ranges, or public addresses' autonomous systems
 * and countries from the shipped tables.
 */

const ORIGIN = new URL(PUBLIC_URL).origin;
const WORKER = fileURLToPath(new URL('../dist/features/player/tracker-worker.js', import.meta.url));
const WebSocket = createRequire(import.meta.url)('ws') as new (
  url: string,
  opts: { headers: Record<string, string> },
) => WsClient;

/** Six private networks of 10.<k>.0.0/16, AS6450<k>, and 17.253.144.0/24 (Apple's, in the shipped
 *  table) claimed for Google's AS15169: the file is read before the table. */
const NETWORKS = [
  "# an operator's own ranges",
  ...[1, 2, 3, 4, 5, 6].map(
    (k) => `${(10 << 24) + (k << 16)},${(10 << 24) + (k << 16) + 0xffff},6450${k},"Net ${k}"`,
  ),
  '17.253.144.0,17.253.144.255,15169,"Google, via the file"',
  '',
].join('\n');

function networksFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tlprt-networks-')), 'networks.csv');
  writeFileSync(file, text);
  return file;
}

const ENV = () => ({ TRUST_PROXY: '1', NETWORKS_FILE: networksFile(NETWORKS) });

interface Viewer {
  ws: WsClient;
  box: Inbox;
  address: string;
  id: string;
}

const open: WsClient[] = [];
let seq = 0;
const infoHashOf = (stream: string) => createHash('sha1').update(stream).digest().toString('latin1');

/** A viewer's tracker socket from `address`, as a proxy in front of the server would forward it. */
function connect(url: string, address: string): Promise<WsClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { Origin: ORIGIN, 'X-Forwarded-For': address } });
    const timer = setTimeout(() => reject(new Error(`no upgrade for ${address}`)), 5000);
    ws.once('open', () => {
      clearTimeout(timer);
      open.push(ws);
      resolve(ws);
    });
    ws.once('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      reject(new Error(`tracker refused ${address}: ${res.statusCode}`));
    });
    ws.once('error', reject);
  });
}

/** Joins `stream`'s swarm from `address` (an announce without offers) and waits for the answer. */
async function watch(
  base: string,
  keyHash: string,
  stream: string,
  address: string,
  prefix = '-XX0001-',
): Promise<Viewer> {
  const shard = trackerShardOf(swarmIdOf(keyHash, stream));
  const url = `${base.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}?key=${keyHash}&shard=${shard}`;
  const ws = await connect(url, address);
  const box = inbox(ws);
  const v = { ws, box, address, id: `${prefix}${String(++seq).padStart(12, '0')}` };
  announce(v, stream, 0);
  await box.next(
    (m) => m.action === 'announce' && (m.interval !== undefined || m['failure reason'] !== undefined),
  );
  return v;
}

function announce(v: Viewer, stream: string, offers: number): void {
  v.ws.send(
    JSON.stringify({
      action: 'announce',
      info_hash: infoHashOf(stream),
      peer_id: v.id,
      numwant: offers,
      uploaded: 0,
      downloaded: 0,
      left: 1000,
      event: 'started',
      offers: Array.from({ length: offers }, (_, i) => ({
        offer: { type: 'offer', sdp: `v=0 ${v.id} ${i}` },
        offer_id: `${String(seq).padStart(10, '0')}${String(i).padStart(10, '0')}`,
      })),
    }),
  );
}

const OFFER_FROM = (v: Viewer) => (m: Record<string, unknown>) => m.offer !== undefined && m.peer_id === v.id;

/**
 * Announces with `offers` offers from `from` and answers the addresses of the viewers among `others`
 * that were sent one (ever, by `from`). The library relays the offers in the same turn as it answers
 * the announcer, so a short wait after the answer sees them all.
 */
async function offeredTo(from: Viewer, stream: string, offers: number, others: Viewer[]): Promise<string[]> {
  const answered = from.box.next((m) => m.action === 'announce' && m.interval !== undefined);
  announce(from, stream, offers);
  await answered;
  await new Promise((r) => setTimeout(r, 200));
  return others
    .filter((o) => o.box.received.some(OFFER_FROM(from)))
    .map((o) => o.address)
    .sort();
}

afterAll(() => {
  for (const ws of open.splice(0)) ws.terminate();
});

async function usableKey(server: TestServer) {
  const team = await buildTeam(server.app);
  const domain = await buildDomain(server.app, team.id, { promoted: true });
  const k = await buildKey(server.app, team.id, domain.id);
  return { team, domain, key: k };
}

describe('NETWORKS_FILE at start', () => {
  it('a malformed line stops the start with the file and line named', () => {
    const cases: Array<[string, string]> = [
      ['1,2,64500,"a"\nnot,a,range\n', 'line 2: start: "not" is not an address nor a number'],
      ['# header\n\n10,5,64500,"backwards"\n', 'line 3: end is below start'],
      ['1,2,AS64500,"a"\n', 'line 1: asn: "AS64500" is not an AS number'],
      ['1,2\n', 'line 1: expected start,end,asn,"name"'],
      ['1,2,64500,"unclosed\n', 'line 1: expected start,end,asn,"name"'],
      ['1,200,64500,"a"\n100,300,64501,"b"\n', 'line 2: overlaps the range of line 1'],
      ['1,2001:db8::,64500,"a"\n', 'line 1: start and end are of different address families'],
    ];
    for (const [text, message] of cases) {
      const file = networksFile(text);
      let thrown: unknown;
      try {
        loadConfig({ NETWORKS_FILE: file, PUBLIC_URL });
      } catch (err) {
        thrown = err;
      }
      expect(thrown, text).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message).toContain(`NETWORKS_FILE ${file}, line`);
      expect((thrown as Error).message).toContain(message);
    }
    const missing = join(tmpdir(), 'tlprt-no-such-networks.csv');
    expect(() => loadConfig({ NETWORKS_FILE: missing, PUBLIC_URL })).toThrow(`NETWORKS_FILE ${missing}`);
  });

  it("reads the shipped table's numeric format, IPv6 by its upper 64 bits or whole, and address notation", () => {
    const own = parseNetworks(
      [
        '167772160,167837695,64501,"Campus, north"',
        '42540766411282592856903984951653826560,42540766411282592875350729025363378175,64502,"V6 ""lab"""',
        '2001:db9::,2001:db9:0:ffff::,64503,',
        '192.168.1.0,192.168.1.255,64504,"Home"',
      ].join('\r\n'),
      'inline',
    );
    expect(own.v4.asn).toEqual([64501, 64504]);
    expect(own.v6.name).toEqual(['V6 "lab"', '']);
    expect(own.v6.start[0]).toBe(0x20010db8_00000000n);
    expect(own.v6.end[1]).toBe(0x20010db9_0000ffffn);
  });
});

describe("the breakdowns' look-up names the networks the tracker matches by", () => {
  it("NETWORKS_FILE's ranges first, private addresses included; the shipped table for the rest", async () => {
    const facts = new ViewerFactsResolver({ warn: () => {} }, parseNetworks(NETWORKS, 'inline'));
    await facts.ready();
    expect(facts.of('10.1.0.5', undefined).network).toBe('AS64501 Net 1');
    expect(facts.of('::ffff:10.6.3.3', undefined).network).toBe('AS64506 Net 6');
    expect(facts.of('17.253.144.10', undefined)).toMatchObject({ network: 'AS15169 Google, via the file' });
    expect(facts.of('17.253.144.10', undefined).country).not.toBe(BREAKDOWN_UNKNOWN);
    expect(facts.of('192.168.3.3', undefined).network).toBe(BREAKDOWN_UNKNOWN);
    expect(facts.of('8.8.8.8', undefined).network).toMatch(/^AS15169 /);
    const shippedOnly = new ViewerFactsResolver({ warn: () => {} });
    await shippedOnly.ready();
    expect(shippedOnly.of('10.1.0.5', undefined).network).toBe(BREAKDOWN_UNKNOWN);
    expect(shippedOnly.of('17.253.144.10', undefined).network).toMatch(/^AS714 /);
  });
});

describe('matching by network (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: ENV() });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('with many networks, an announce reaches only peers of its own network', async () => {
    const { key } = await usableKey(server);
    const stream = 'many-networks';
    const viewers: Viewer[] = [];
    // Six networks of three viewers each, joined in turns.
    for (let i = 1; i <= 3; i++)
      for (let k = 1; k <= 6; k++)
        viewers.push(await watch(server.base, key.keyHash, stream, `10.${k}.0.${i}`));
    for (const k of [1, 3, 6]) {
      const from = viewers.find((v) => v.address === `10.${k}.0.3`) as Viewer;
      const others = viewers.filter((v) => v !== from);
      expect(await offeredTo(from, stream, 10, others)).toEqual([`10.${k}.0.1`, `10.${k}.0.2`]);
    }
  });

  it("a network alone in the swarm gets others, its country's first; a second viewer of it then gets only the first", async () => {
    const { key } = await usableKey(server);
    const stream = 'fallback';
    // 9.9.9.9 (Quad9), 4.2.2.2 (Level 3): US; 1.1.1.1 (AU), 193.0.6.139 (NL).
    const near = [await watch(server.base, key.keyHash, stream, '9.9.9.9')];
    near.push(await watch(server.base, key.keyHash, stream, '4.2.2.2'));
    const far = [
      await watch(server.base, key.keyHash, stream, '1.1.1.1'),
      await watch(server.base, key.keyHash, stream, '193.0.6.139'),
    ];
    const google = await watch(server.base, key.keyHash, stream, '8.8.8.8');
    const others = [...near, ...far];
    expect(await offeredTo(google, stream, 2, others)).toEqual(['4.2.2.2', '9.9.9.9']);
    google.box.received.length = 0;
    expect(await offeredTo(google, stream, 3, others)).toHaveLength(3);
    const third = others.filter((o) => o.box.received.filter(OFFER_FROM(google)).length === 2);
    expect(third.map((o) => o.address).sort()).toEqual(['4.2.2.2', '9.9.9.9']);
    // 17.253.144.10 is Apple's in the shipped table, Google's in NETWORKS_FILE: the file wins.
    const second = await watch(server.base, key.keyHash, stream, '17.253.144.10');
    expect(await offeredTo(second, stream, 5, [...others, google])).toEqual(['8.8.8.8']);
  });

  it("the settings read gives a viewer its network's tag, and the tracker holds a -TL peer id to it", async () => {
    const { key } = await usableKey(server);
    const tagFor = async (address: string) => {
      const read = await new Api(server.base).get(PATHS.keySettings.publicRead(key.keyHash), {
        'X-Forwarded-For': address,
      });
      expect(read.status).toBe(200);
      expect(read.body.data.matchMinPeers).toBe(1);
      return read.body.data.networkTag as string;
    };
    const north = await tagFor('10.1.0.5');
    const south = await tagFor('10.2.0.5');
    const [north2, unknown] = await Promise.all(['10.1.200.9', '192.168.3.3'].map(tagFor));
    expect(north).toBe(networkTagOf('AS64501'));
    expect(north2).toBe(north);
    expect(south).toBe(networkTagOf('AS64502'));
    expect(unknown).toBe(UNKNOWN_NETWORK_TAG);
    const stream = 'tagged';
    const own = await watch(server.base, key.keyHash, stream, '10.1.0.5', peerIdPrefixOf(north));
    expect(own.box.received.at(-1)?.interval).toBeDefined();
    // A copied key hash with another network's tag: refused, and in no swarm.
    const liar = await watch(server.base, key.keyHash, stream, '10.2.0.5', peerIdPrefixOf(north));
    expect(liar.box.received.at(-1)?.['failure reason']).toBe(
      'peer_id names another network than its connection',
    );
    const honest = await watch(server.base, key.keyHash, stream, '10.2.0.6', peerIdPrefixOf(south));
    expect(await offeredTo(honest, stream, 3, [own, liar])).toEqual(['10.1.0.5']);
  });

  it('private addresses outside NETWORKS_FILE have no network: they meet anyone', async () => {
    const { key } = await usableKey(server);
    const stream = 'unknown';
    const viewers = [
      await watch(server.base, key.keyHash, stream, '10.1.0.9'),
      await watch(server.base, key.keyHash, stream, '10.2.0.9'),
      await watch(server.base, key.keyHash, stream, '172.16.0.1'),
    ];
    const from = await watch(server.base, key.keyHash, stream, '192.168.7.7');
    expect(await offeredTo(from, stream, 5, viewers)).toEqual(['10.1.0.9', '10.2.0.9', '172.16.0.1']);
  });
});

describe('the key setting and TRACKER_MATCH_MIN_PEERS', () => {
  let server: TestServer;
  let sup: Api;
  beforeAll(async () => {
    server = await startServer({
      env: { ...ENV(), TRACKER_MATCH_MIN_PEERS: '2' },
      deps: { mailer: memoryMailer().mailer },
    });
    sup = new Api(server.base).as((await buildUser(server.app, { supervisor: true })).token);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A key whose setting 102 is `value`, set by its team (or by a supervisor's override). */
  async function keyMatching(value: number, by: 'customer' | 'supervisor') {
    const { team, domain, key } = await usableKey(server);
    const settings = [{ id: KeySettingId.PeerMatching, value }];
    const res =
      by === 'customer'
        ? await new Api(server.base)
            .as(team.owner.token)
            .post(PATHS.keySettings.write(team.id, domain.id, key.id), { settings })
        : await sup.post(PATHS.keySettings[SUPERVISOR_SET.key](team.id), {
            keyId: key.id,
            settings: settings.map((s) => ({ ...s, settingOverwrite: 1 })),
          });
    expect(res.status).toBe(200);
    const read = await new Api(server.base).get(PATHS.keySettings.publicRead(key.keyHash));
    expect(read.body.data.settings[String(KeySettingId.PeerMatching)]).toBe(value);
    // The plugin leaves other networks' peers aside from as many of its own as the tracker wants.
    expect(read.body.data.matchMinPeers).toBe(2);
    return key.keyHash;
  }

  it('fewer own peers than TRACKER_MATCH_MIN_PEERS: own network first, then the rest', async () => {
    const { key } = await usableKey(server);
    const stream = 'min-peers';
    const rest = [
      await watch(server.base, key.keyHash, stream, '10.2.0.1'),
      await watch(server.base, key.keyHash, stream, '10.3.0.1'),
    ];
    const mate = await watch(server.base, key.keyHash, stream, '10.1.0.1');
    const from = await watch(server.base, key.keyHash, stream, '10.1.0.2');
    expect(await offeredTo(from, stream, 1, [...rest, mate])).toEqual(['10.1.0.1']);
    const all = await offeredTo(from, stream, 3, [...rest, mate]);
    expect(all).toEqual(['10.1.0.1', '10.2.0.1', '10.3.0.1']);
    // A second own peer: the network answers alone.
    const third = await watch(server.base, key.keyHash, stream, '10.1.0.3');
    expect(await offeredTo(third, stream, 4, [...rest, mate, from])).toEqual(['10.1.0.1', '10.1.0.2']);
  });

  it('country first (1): viewers of its country or network, the rest only when there are none', async () => {
    const keyHash = await keyMatching(PeerMatching.Country, 'customer');
    const stream = 'country';
    const us = [
      await watch(server.base, keyHash, stream, '9.9.9.9'),
      await watch(server.base, keyHash, stream, '4.2.2.2'),
    ];
    const far = [await watch(server.base, keyHash, stream, '1.1.1.1')];
    const from = await watch(server.base, keyHash, stream, '8.8.8.8');
    expect(await offeredTo(from, stream, 5, [...us, ...far])).toEqual(['4.2.2.2', '9.9.9.9']);
    // Alone in its country: anyone.
    const nl = await watch(server.base, keyHash, stream, '193.0.6.139');
    expect(await offeredTo(nl, stream, 5, [...us, ...far, from])).toEqual([
      '1.1.1.1',
      '4.2.2.2',
      '8.8.8.8',
      '9.9.9.9',
    ]);
  });

  it("anyone (0), here a supervisor's override: networks are ignored", async () => {
    const keyHash = await keyMatching(PeerMatching.Anyone, 'supervisor');
    const stream = 'anyone';
    const viewers = [
      await watch(server.base, keyHash, stream, '10.1.0.1'),
      await watch(server.base, keyHash, stream, '10.1.0.2'),
      await watch(server.base, keyHash, stream, '10.2.0.1'),
      await watch(server.base, keyHash, stream, '10.3.0.1'),
    ];
    const from = await watch(server.base, keyHash, stream, '10.1.0.3');
    expect(await offeredTo(from, stream, 4, viewers)).toEqual([
      '10.1.0.1',
      '10.1.0.2',
      '10.2.0.1',
      '10.3.0.1',
    ]);
  });
});

describe('matching where the swarm lives', () => {
  it('TRACKER_WORKERS: the place found in the server process travels with the connection', async () => {
    if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run npm run build first`);
    const server = await startServer({
      env: { ...ENV(), TRACKER_WORKERS: '2' },
      deps: { trackerWorkerScript: WORKER },
    });
    try {
      const { key } = await usableKey(server);
      // Two streams, on different shards if the hash allows: each swarm is matched in its worker.
      for (const stream of ['worker-a', 'worker-b']) {
        const viewers: Viewer[] = [];
        for (let i = 1; i <= 2; i++)
          for (let k = 1; k <= 4; k++)
            viewers.push(await watch(server.base, key.keyHash, stream, `10.${k}.1.${i}`));
        const from = await watch(server.base, key.keyHash, stream, '10.2.1.9');
        expect(await offeredTo(from, stream, 8, viewers)).toEqual(['10.2.1.1', '10.2.1.2']);
        const alone = await watch(server.base, key.keyHash, stream, '10.5.1.1');
        expect(await offeredTo(alone, stream, 3, [...viewers, from])).toHaveLength(3);
      }
    } finally {
      await server.close();
    }
  });

  it('TRACKER_NODES: the node a swarm hashes to matches its viewers, whichever node they asked', async () => {
    const ports = [await freePort(), await freePort()];
    const urls = ports.map((p) => `http://127.0.0.1:${p}`);
    const env = { ...ENV(), TRACKER_NODES: urls.join(',') };
    const first = await startServer({ env, port: ports[0] });
    const second = await startServer({ env, port: ports[1], databaseUrl: first.databaseUrl });
    try {
      const { key } = await usableKey(first);
      // A stream on each node.
      const streams = new Map<string, string>();
      for (let i = 0; streams.size < 2 && i < 100; i++) {
        const node = trackerNodeFor(swarmIdOf(key.keyHash, `s${i}`), urls) as string;
        if (!streams.has(node)) streams.set(node, `s${i}`);
      }
      for (const [node, stream] of streams) {
        const viewers: Viewer[] = [];
        for (let k = 1; k <= 3; k++)
          for (let i = 1; i <= 2; i++) viewers.push(await watch(node, key.keyHash, stream, `10.${k}.2.${i}`));
        const from = await watch(node, key.keyHash, stream, '10.3.2.9');
        expect(await offeredTo(from, stream, 6, viewers)).toEqual(['10.3.2.1', '10.3.2.2']);
      }
      expect(streams.size).toBe(2);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
