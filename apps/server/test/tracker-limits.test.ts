import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { PATHS, PLAYER_PATHS } from '@tlprt/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keyedInfoHash, MAX_SCRAPE_HASHES } from '../src/features/player/tracker-keyed-socket.js';
import { CLOSE_POLICY, CLOSE_TOO_BIG } from '../src/features/player/tracker-limits.js';
import { addressGroup } from '../src/http/client-address.js';
import { buildKey, buildTeam } from './factories.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';
import { type Inbox, inbox, type WsClient } from './helpers/ws.js';

/**
 * Issue 25: the tracker under attack. A copied key hash and a forged Origin let anyone in, so every
 * resource a client can make the tracker hold is capped, each limit answered with its documented code
 * (HTTP status on the upgrade, WebSocket close code, or an announce's `failure reason`) while the server
 * keeps answering everyone else. Clients stand at addresses of their own through X-Forwarded-For
 * (TRUST_PROXY=1): the tracker counts the address the HTTP limits count.
 */

const DASHBOARD = new URL(PUBLIC_URL).origin;

/** Small limits, so each is reached in a few messages. */
const LIMITS = {
  TRUST_PROXY: '1',
  TRACKER_SOCKETS_PER_ADDRESS: '6',
  TRACKER_SWARMS_PER_SOCKET: '3',
  TRACKER_MESSAGES_PER_SECOND: '10',
  TRACKER_MAX_MESSAGE_BYTES: '4096',
  TRACKER_PEERS_PER_SWARM: '6',
  TRACKER_PEERS_PER_ADDRESS_PER_SWARM: '4',
};

interface Node {
  server: TestServer;
  key: string;
}

/** Most limits. */
let main: Node;
/** Room for three sockets on the whole node. */
let tiny: Node;
/** An idle timeout of one second. */
let quiet: Node;

async function node(env: Record<string, string>): Promise<Node> {
  const server = await startServer({ env });
  const team = await buildTeam(server.app);
  return { server, key: (await buildKey(server.app, team.id, null)).keyHash };
}

beforeAll(async () => {
  [main, tiny, quiet] = await Promise.all([
    node(LIMITS),
    node({ ...LIMITS, TRACKER_MAX_SOCKETS: '3' }),
    node({ ...LIMITS, TRACKER_IDLE_TIMEOUT_MS: '1000' }),
  ]);
});

afterAll(async () => {
  await Promise.all([main?.server.close(), tiny?.server.close(), quiet?.server.close()]);
});

type Ws = WsClient & {
  on(event: 'close', cb: (code: number, reason: Buffer) => void): void;
  on(event: 'message', cb: (data: Buffer) => void): void;
};
type WsClass = new (url: string, opts: { headers: Record<string, string> }) => Ws;
const WebSocket = createRequire(import.meta.url)('ws') as WsClass;

interface Conn {
  ws: Ws;
  box: Inbox;
  /** This connection's peer_id, 20 binary characters. */
  id: string;
  /** The close code and reason, once the connection ends. */
  closed: Promise<{ code: number; reason: string }>;
}
type Upgrade =
  | { status: 101; conn: Conn }
  | { status: number; retryAfter: string | undefined; closed: boolean };

const binary20 = () => randomBytes(20).toString('latin1');
const opened: Ws[] = [];
afterEach(() => {
  for (const ws of opened.splice(0)) ws.terminate();
});

/** Opens the tracker of `n` for a client at `address`. */
function connect(n: Node, address: string): Promise<Upgrade> {
  const url = `${n.server.base.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}?key=${n.key}`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { Origin: DASHBOARD, 'X-Forwarded-For': address } });
    opened.push(ws);
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.on('close', (code, reason) => done({ code, reason: reason.toString() })),
    );
    ws.once('open', () => resolve({ status: 101, conn: { ws, box: inbox(ws), id: binary20(), closed } }));
    ws.once('unexpected-response', (_req: unknown, res: IncomingMessage) => {
      const retryAfter = res.headers['retry-after'];
      const ended = new Promise<boolean>((done) => {
        const t = setTimeout(() => done(false), 2000);
        res.socket.once('close', () => {
          clearTimeout(t);
          done(true);
        });
        res.resume();
      });
      void ended.then((c) => resolve({ status: res.statusCode ?? 0, retryAfter, closed: c }));
    });
    ws.once('error', reject);
  });
}

async function conn(n: Node, address: string): Promise<Conn> {
  const u = await connect(n, address);
  if (!('conn' in u)) throw new Error(`refused with ${u.status}`);
  return u.conn;
}

const offers = (k: number) =>
  Array.from({ length: k }, (_, i) => ({
    offer: { type: 'offer', sdp: `v=0 offer ${i}` },
    offer_id: binary20(),
  }));

/** Announces `c` (as `peerId`, its own by default) into `infoHash`; answers the tracker's reply. */
async function announce(
  c: Conn,
  infoHash: string,
  opts: { peerId?: string; offers?: number; event?: string } = {},
): Promise<Record<string, unknown>> {
  const n = opts.offers ?? 0;
  c.ws.send(
    JSON.stringify({
      action: 'announce',
      info_hash: infoHash,
      peer_id: opts.peerId ?? c.id,
      numwant: n,
      uploaded: 0,
      downloaded: 0,
      left: 1000,
      event: opts.event ?? 'started',
      offers: offers(n),
    }),
  );
  return c.box.next(
    (m) => m.action === 'announce' && m.info_hash === infoHash && ('interval' in m || 'failure reason' in m),
  );
}

async function scrape(c: Conn, infoHash?: string | string[]): Promise<Record<string, unknown>> {
  c.ws.send(JSON.stringify({ action: 'scrape', ...(infoHash === undefined ? {} : { info_hash: infoHash }) }));
  return c.box.next((m) => m.action === 'scrape' || 'failure reason' in m);
}

/** The swarm the library holds for `infoHash` of the node's key, if any. */
const swarmOf = (n: Node, infoHash: string) =>
  n.server.app.tracker.local?.torrents[Buffer.from(keyedInfoHash(n.key, infoHash), 'latin1').toString('hex')];
const hex = (id: string) => Buffer.from(id, 'latin1').toString('hex');
const holds = (n: Node, infoHash: string, c: Conn) => swarmOf(n, infoHash)?.peers.has(hex(c.id)) ?? false;

/** Another client (no tracker socket, the loopback address) is answered, within a second. */
async function othersAnswered(n: Node): Promise<void> {
  const t0 = performance.now();
  const r = await fetch(n.server.base + PATHS.keySettings.publicRead(n.key), {
    headers: { origin: DASHBOARD },
    signal: AbortSignal.timeout(1000),
  });
  expect(r.status).toBe(200);
  expect(performance.now() - t0).toBeLessThan(1000);
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('tracker limits per node and per address (refused on the upgrade)', () => {
  it('TRACKER_MAX_SOCKETS: past the last free socket of the node, 503 with Retry-After; a freed one lets the next in', async () => {
    const held = [await conn(tiny, '10.0.0.1'), await conn(tiny, '10.0.0.2'), await conn(tiny, '10.0.0.3')];
    const refused = await connect(tiny, '10.0.0.4');
    expect(refused).toMatchObject({ status: 503, retryAfter: expect.any(String), closed: true });
    await othersAnswered(tiny);

    held[0]?.ws.close();
    await until('a freed socket', async () => (await connect(tiny, '10.0.0.4')).status === 101);
  });

  it('TRACKER_SOCKETS_PER_ADDRESS: past it, 429 for that address only; an IPv6 /64 counts as one address', async () => {
    for (let i = 0; i < 6; i++) await conn(main, '10.1.0.1');
    expect(await connect(main, '10.1.0.1')).toMatchObject({
      status: 429,
      retryAfter: expect.any(String),
      closed: true,
    });
    expect((await connect(main, '10.1.0.2')).status).toBe(101);

    for (let i = 1; i <= 6; i++) await conn(main, `2001:db8:1:2::${i}`);
    expect((await connect(main, '2001:db8:1:2:ffff:ffff:ffff:ffff')).status).toBe(429);
    expect((await connect(main, '2001:db8:1:3::1')).status).toBe(101);
    await othersAnswered(main);
  });

  it('counts IPv4 as itself, IPv4-mapped IPv6 as its IPv4, IPv6 by its /64', () => {
    expect(addressGroup('192.0.2.7')).toBe('192.0.2.7');
    expect(addressGroup('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressGroup('2001:DB8:0:5:1::9')).toBe('2001:db8:0:5::/64');
    expect(addressGroup('2001:db8::5:6:7:8')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

describe('tracker limits per connection (closed with a code)', () => {
  it(`TRACKER_SWARMS_PER_SOCKET: a connection joining a fourth swarm is closed with ${CLOSE_POLICY} and leaves all three`, async () => {
    const c = await conn(main, '10.2.0.1');
    const swarms = [binary20(), binary20(), binary20(), binary20()];
    for (const s of swarms.slice(0, 3)) expect((await announce(c, s)).interval).toBeGreaterThan(0);
    for (const s of swarms.slice(0, 3)) expect(holds(main, s, c)).toBe(true);
    c.ws.send(JSON.stringify({ action: 'announce', info_hash: swarms[3], peer_id: c.id, event: 'started' }));
    const closed = await c.closed;
    expect(closed.code).toBe(CLOSE_POLICY);
    expect(closed.reason).toMatch(/swarms/);
    for (const s of swarms) expect(swarmOf(main, s)).toBeUndefined();
    await othersAnswered(main);
  });

  it(`TRACKER_MESSAGES_PER_SECOND: a burst within twice the rate is answered, a flood is closed with ${CLOSE_POLICY}`, async () => {
    const c = await conn(main, '10.2.0.2');
    const marker = binary20();
    for (let i = 0; i < 15; i++) c.ws.send(JSON.stringify({ action: 'scrape', info_hash: marker }));
    await until('15 answers', () => c.box.received.length === 15);
    await new Promise((r) => setTimeout(r, 1000));
    for (let i = 0; i < 200; i++) c.ws.send(JSON.stringify({ action: 'scrape', info_hash: marker }));
    const closed = await c.closed;
    expect(closed.code).toBe(CLOSE_POLICY);
    expect(closed.reason).toMatch(/messages a second/);
    expect(c.box.received.length).toBeLessThanOrEqual(15 + 20);
    await othersAnswered(main);
  });

  it(`TRACKER_MAX_MESSAGE_BYTES: a larger message closes the connection with ${CLOSE_TOO_BIG}`, async () => {
    const c = await conn(main, '10.2.0.3');
    const s = binary20();
    await announce(c, s);
    c.ws.send(
      JSON.stringify({
        action: 'announce',
        info_hash: s,
        peer_id: c.id,
        offers: [{ offer: { type: 'offer', sdp: 'x'.repeat(5000) }, offer_id: binary20() }],
      }),
    );
    expect((await c.closed).code).toBe(CLOSE_TOO_BIG);
    await until('its peer gone', () => swarmOf(main, s) === undefined);
    await othersAnswered(main);
  });

  it(`TRACKER_IDLE_TIMEOUT_MS: a connection that announces nothing is closed with ${CLOSE_POLICY}; a peer not re-announced leaves its swarm`, async () => {
    const silent = await conn(quiet, '10.2.1.1');
    const busy = await conn(quiet, '10.2.1.2');
    const [kept, dropped] = [binary20(), binary20()];
    await announce(busy, kept);
    await announce(busy, dropped);
    const t0 = Date.now();
    // `busy` re-announces one of its two swarms, the way a player keeps the stream it plays.
    while (Date.now() - t0 < 2500) {
      await announce(busy, kept, { event: 'update' });
      await new Promise((r) => setTimeout(r, 200));
    }
    const closed = await silent.closed;
    expect(closed.code).toBe(CLOSE_POLICY);
    expect(closed.reason).toMatch(/idle/);
    expect(holds(quiet, kept, busy)).toBe(true);
    expect(swarmOf(quiet, dropped)).toBeUndefined();
    expect((await scrape(busy, kept)).files).toMatchObject({ [kept]: { incomplete: 1 } });
    await othersAnswered(quiet);
  });
});

describe('tracker limits per swarm (the announce refused with a failure reason)', () => {
  it('TRACKER_PEERS_PER_ADDRESS_PER_SWARM: the fifth peer of one address is refused; that connection and other addresses go on', async () => {
    const s = binary20();
    const crowd = await Promise.all([1, 2, 3, 4, 5].map(() => conn(main, '10.3.0.1')));
    for (const c of crowd.slice(0, 4)) expect((await announce(c, s)).interval).toBeGreaterThan(0);
    const fifth = crowd[4] as Conn;
    expect((await announce(fifth, s))['failure reason']).toMatch(/address/);
    expect(holds(main, s, fifth)).toBe(false);
    // Its connection stays: it joins another swarm.
    expect((await announce(fifth, binary20())).interval).toBeGreaterThan(0);
    const other = await conn(main, '10.3.0.2');
    expect(await announce(other, s)).toMatchObject({ incomplete: 5 });
    await othersAnswered(main);
  });

  it('TRACKER_PEERS_PER_SWARM: a full swarm takes room from the address holding most, never from a lone viewer', async () => {
    const s = binary20();
    const attacker = await Promise.all([1, 2, 3, 4].map(() => conn(main, '10.4.0.66')));
    for (const a of attacker) await announce(a, s);
    const real = [await conn(main, '10.4.0.1'), await conn(main, '10.4.0.2')];
    for (const r of real) await announce(r, s);
    expect(swarmOf(main, s)?.peers.size).toBe(6);

    // Three newcomers from other addresses each push out one of the attacker's peers (4 → 1).
    const newcomers = [
      await conn(main, '10.4.0.3'),
      await conn(main, '10.4.0.4'),
      await conn(main, '10.4.0.5'),
    ];
    for (const n of newcomers) expect((await announce(n, s)).interval).toBeGreaterThan(0);
    expect(attacker.filter((a) => holds(main, s, a))).toHaveLength(1);
    // Now every address holds one: the next newcomer is refused, and so is the attacker coming back.
    const late = await conn(main, '10.4.0.6');
    expect((await announce(late, s))['failure reason']).toMatch(/full/);
    const back = attacker.find((a) => !holds(main, s, a)) as Conn;
    expect((await announce(back, s))['failure reason']).toMatch(/full/);
    for (const c of [...real, ...newcomers]) expect(holds(main, s, c)).toBe(true);
    expect(swarmOf(main, s)?.peers.size).toBe(6);
    await othersAnswered(main);
  });
});

describe('tracker: a swarm eclipsed by made-up peer ids, and other abuse of the library', () => {
  it('one socket announcing 1,000 peer ids is closed at the second; many sockets of one address cannot push a real viewer out, and the next viewer offers to it', async () => {
    const s = binary20();
    const real = await conn(main, '10.5.0.1');
    await announce(real, s);

    const liar = await conn(main, '10.5.0.66');
    for (let i = 0; i < 1000; i++) {
      liar.ws.send(
        JSON.stringify({ action: 'announce', info_hash: s, peer_id: binary20(), event: 'started' }),
      );
    }
    const closed = await liar.closed;
    expect(closed.code).toBe(CLOSE_POLICY);
    expect(closed.reason).toMatch(/one peer_id per swarm/);
    expect(swarmOf(main, s)?.peers.size).toBe(1);

    const crowd = await Promise.all([1, 2, 3, 4, 5].map(() => conn(main, '10.5.0.67')));
    const answers = [];
    for (const c of crowd) answers.push(await announce(c, s));
    expect(answers.filter((a) => 'failure reason' in a)).toHaveLength(1);
    expect(holds(main, s, real)).toBe(true);

    // Each next viewer offers to two peers: offers go round the addresses, so one always reaches the
    // real viewer (drawn from all five peers at random, it would miss three times in five).
    for (let i = 0; i < 5; i++) {
      const next = await conn(main, `10.5.1.${i}`);
      await announce(next, s, { offers: 2 });
      const offer = await real.box.next((m) => 'offer' in m && m.peer_id === next.id);
      expect(offer).toMatchObject({ action: 'announce', info_hash: s });
      next.ws.close();
      await next.closed;
      await until('the next viewer gone', () => !holds(main, s, next));
    }
    await othersAnswered(main);
  });

  it("another connection can neither stop nor take over a viewer's peer id", async () => {
    const s = binary20();
    const viewer = await conn(main, '10.6.0.1');
    await announce(viewer, s);
    const thief = await conn(main, '10.6.0.66');
    for (const event of ['stopped', 'started', 'update']) {
      const r = await announce(thief, s, { peerId: viewer.id, event });
      expect(r['failure reason'], event).toMatch(/in use/);
    }
    expect(holds(main, s, viewer)).toBe(true);
    thief.ws.close();
    await thief.closed;
    expect(holds(main, s, viewer)).toBe(true);

    const next = await conn(main, '10.6.0.2');
    await announce(next, s, { offers: 1 });
    await viewer.box.next((m) => 'offer' in m);
  });

  it('a swarm is deleted when its last peer leaves, by a stop or by the close of its connection', async () => {
    const s = binary20();
    const [a, b] = [await conn(main, '10.7.0.1'), await conn(main, '10.7.0.2')];
    await announce(a, s);
    await announce(b, s);
    expect(swarmOf(main, s)?.peers.size).toBe(2);
    expect(await announce(a, s, { event: 'stopped' })).toMatchObject({ incomplete: 1 });
    expect(swarmOf(main, s)?.peers.size).toBe(1);
    b.ws.close();
    await b.closed;
    await until('the close seen by the server', () => swarmOf(main, s) === undefined);

    // Swarms made and left by one connection leave nothing behind.
    const made = Array.from({ length: 8 }, binary20);
    for (const h of made) {
      await announce(a, h);
      await announce(a, h, { event: 'stopped' });
    }
    for (const h of made) expect(swarmOf(main, h)).toBeUndefined();
  });

  it(`an unnamed scrape lists nothing; one naming more than ${MAX_SCRAPE_HASHES} is refused; a named one counts its swarm only`, async () => {
    const s = binary20();
    const a = await conn(main, '10.8.0.1');
    const b = await conn(main, '10.8.0.2');
    await announce(a, s);
    await announce(b, binary20());

    expect((await scrape(b)).files).toEqual({});
    const many = Array.from({ length: MAX_SCRAPE_HASHES + 1 }, binary20);
    const refused = await scrape(b, [s, ...many.slice(1)]);
    expect(refused['failure reason']).toMatch(/at most/);
    expect(refused.files).toBeUndefined();
    const named = await scrape(b, s);
    expect(named.files).toEqual({ [s]: { complete: 0, incomplete: 1, downloaded: 0 } });
    await othersAnswered(main);
  });
});
