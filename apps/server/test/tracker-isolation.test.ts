import { randomBytes } from 'node:crypto';
import { KeyStatus, PLAYER_PATHS } from '@tlprt/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keyedInfoHash } from '../src/features/player/tracker-keyed-socket.js';
import { buildDomain, buildKey, buildTeam, setTeamState } from './factories.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';
import { connectWs, type Inbox, inbox, type Refused, type WsClient } from './helpers/ws.js';

/**
 * docs/DESIGN.md §11 "Integrity of P2P delivery": the tracker knows each connection's key, checks its Origin
 * against that key, and keeps swarms of different keys apart even for equal info hashes — no scrape,
 * offer or answer crosses keys. Spoken as the WebTorrent tracker protocol over raw WebSockets: offers
 * and answers are opaque to the tracker, so no WebRTC is needed.
 */

const DASHBOARD = new URL(PUBLIC_URL).origin;
const R = randomBytes(3).toString('hex');
const SITE_A = `alpha${R}.com`;
const SITE_B = `bravo${R}.com`;
const SITE_SUSPENDED = `frozen${R}.com`;

let server: TestServer;
/** Team A's key on SITE_A. */
let keyA: string;
/** Team B's key on SITE_B: another customer. */
let keyB: string;
let inactiveKey: string;
/** A key of a suspended team, on its verified domain. */
let suspendedTeamKey: string;

beforeAll(async () => {
  server = await startServer();
  const app = server.app;
  const teamA = await buildTeam(app);
  const siteA = await buildDomain(app, teamA.id, { host: SITE_A, promoted: true });
  keyA = (await buildKey(app, teamA.id, siteA.id)).keyHash;
  inactiveKey = (await buildKey(app, teamA.id, siteA.id, { status: KeyStatus.Inactive })).keyHash;
  const teamB = await buildTeam(app);
  const siteB = await buildDomain(app, teamB.id, { host: SITE_B, promoted: true });
  keyB = (await buildKey(app, teamB.id, siteB.id)).keyHash;
  const teamC = await buildTeam(app);
  const siteC = await buildDomain(app, teamC.id, { host: SITE_SUSPENDED, promoted: true });
  suspendedTeamKey = (await buildKey(app, teamC.id, siteC.id)).keyHash;
  await setTeamState(app, teamC.id, { suspended: 1 });
});

afterAll(async () => {
  await server?.close();
});

const trackerUrl = (query: string) => `${server.base.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}${query}`;
const binary20 = () => randomBytes(20).toString('latin1');

interface Peer {
  ws: WsClient;
  box: Inbox;
  /** This peer's peer_id, 20 binary characters. */
  id: string;
}

const opened: WsClient[] = [];
afterEach(() => {
  for (const ws of opened.splice(0)) ws.close();
});

async function peer(keyHash: string, origin: string): Promise<Peer> {
  const c = await connectWs(trackerUrl(`?key=${keyHash}`), origin);
  if (!('ws' in c)) throw new Error(`refused with ${c.status}`);
  opened.push(c.ws);
  return { ws: c.ws, box: inbox(c.ws), id: binary20() };
}

const offers = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    offer: { type: 'offer', sdp: `v=0 offer ${i} ${R}` },
    offer_id: binary20(),
  }));

/** Announces `p` into `infoHash` with `n` offers; answers the tracker's reply to it. */
async function join(p: Peer, infoHash: string, n = 0): Promise<Record<string, unknown>> {
  p.ws.send(
    JSON.stringify({
      action: 'announce',
      info_hash: infoHash,
      peer_id: p.id,
      numwant: n,
      uploaded: 0,
      downloaded: 0,
      left: 1000,
      event: 'started',
      offers: offers(n),
    }),
  );
  return p.box.next((m) => m.action === 'announce' && m.info_hash === infoHash && 'interval' in m);
}

async function scrape(p: Peer, infoHash?: string | string[]): Promise<Record<string, unknown>> {
  p.ws.send(JSON.stringify({ action: 'scrape', ...(infoHash === undefined ? {} : { info_hash: infoHash }) }));
  return p.box.next((m) => m.action === 'scrape');
}

/**
 * A round trip of each peer in turn: whatever the tracker relayed because of an earlier message was
 * written to its socket before the reply, so after this nothing of it is still on its way.
 */
async function settle(...peers: Peer[]): Promise<void> {
  for (const p of peers) {
    const marker = binary20();
    p.ws.send(JSON.stringify({ action: 'scrape', info_hash: marker }));
    await p.box.next((m) => m.action === 'scrape' && marker in (m.files as object));
  }
}

/** `from`'s answer to the offer `offerId` of `to`, in `infoHash`. */
const sendAnswer = (from: Peer, to: Peer, infoHash: string, offerId: unknown, answer: object) =>
  from.ws.send(
    JSON.stringify({
      action: 'announce',
      info_hash: infoHash,
      peer_id: from.id,
      to_peer_id: to.id,
      answer,
      offer_id: offerId,
    }),
  );

const peersIn = (m: Record<string, unknown>) => Number(m.complete ?? 0) + Number(m.incomplete ?? 0);
const relayed = (p: Peer) => p.box.received.filter((m) => 'offer' in m || 'answer' in m);

describe('tracker: one key cannot see or reach the peers of another, even on the same info_hash', () => {
  it('a scrape without info_hash lists no swarm at all', async () => {
    const [shared, onlyB] = [binary20(), binary20()];
    const b = await peer(keyB, `https://${SITE_B}`);
    await join(b, shared);
    await join(b, onlyB);
    const a = await peer(keyA, `https://${SITE_A}`);
    await join(a, shared);

    const all = await scrape(a);
    expect(all['failure reason']).toBeUndefined();
    expect(all.files).toEqual({});
  });

  it("a scrape naming the shared info_hash counts only the key's own peers", async () => {
    const [shared, onlyB] = [binary20(), binary20()];
    const b1 = await peer(keyB, `https://${SITE_B}`);
    const b2 = await peer(keyB, `https://www.${SITE_B}`);
    await join(b1, shared);
    await join(b2, shared);
    await join(b1, onlyB);
    const a = await peer(keyA, `https://${SITE_A}`);

    const before = (await scrape(a, shared)).files as Record<string, Record<string, number>>;
    expect(peersIn(before[shared] ?? {})).toBe(0);
    await join(a, shared);
    const after = (await scrape(a, [shared, onlyB])).files as Record<string, Record<string, number>>;
    expect(Object.keys(after).sort()).toEqual([shared, onlyB].sort());
    expect(peersIn(after[shared] ?? {})).toBe(1);
    expect(peersIn(after[onlyB] ?? {})).toBe(0);
    // B still sees its own two.
    const ofB = (await scrape(b1, shared)).files as Record<string, Record<string, number>>;
    expect(peersIn(ofB[shared] ?? {})).toBe(2);
  });

  it("an announce with offers into the shared info_hash reaches none of the other key's peers", async () => {
    const shared = binary20();
    const b1 = await peer(keyB, `https://${SITE_B}`);
    const b2 = await peer(keyB, `https://${SITE_B}`);
    await join(b1, shared);
    await join(b2, shared);
    const a = await peer(keyA, `https://${SITE_A}`);

    const reply = await join(a, shared, 5);
    expect(peersIn(reply)).toBe(1);
    await settle(a, b1, b2);
    expect(relayed(b1)).toEqual([]);
    expect(relayed(b2)).toEqual([]);
  });

  it("an answer addressed to the other key's peer never arrives", async () => {
    const shared = binary20();
    const b = await peer(keyB, `https://${SITE_B}`);
    await join(b, shared);
    const a = await peer(keyA, `https://${SITE_A}`);
    await join(a, shared);

    sendAnswer(a, b, shared, binary20(), { type: 'answer', sdp: `v=0 answer ${R}` });
    await settle(a, b);
    expect(relayed(b)).toEqual([]);
  });

  it('two connections of one key meet: the offer and its answer are relayed with the info_hash they announced', async () => {
    const shared = binary20();
    const other = await peer(keyB, `https://${SITE_B}`);
    await join(other, shared);
    // The demo page and the customer's page are two origins of one key: one swarm.
    const a1 = await peer(keyA, DASHBOARD);
    const a2 = await peer(keyA, `https://${SITE_A}`);
    await join(a1, shared);

    const reply = await join(a2, shared, 2);
    expect(peersIn(reply)).toBe(2);
    const offer = await a1.box.next((m) => 'offer' in m);
    expect(offer).toMatchObject({ action: 'announce', info_hash: shared, peer_id: a2.id });
    expect(offer.offer).toMatchObject({ type: 'offer' });

    sendAnswer(a1, a2, shared, offer.offer_id, { type: 'answer', sdp: `v=0 answer ${R}` });
    const answer = await a2.box.next((m) => 'answer' in m);
    expect(answer).toMatchObject({
      action: 'announce',
      info_hash: shared,
      peer_id: a1.id,
      offer_id: offer.offer_id,
    });
    await settle(a1, a2, other);
    expect(relayed(other)).toEqual([]);
  });

  it('an offer and an answer carrying info_hash fields of their own arrive as sent; only the message’s own info_hash is rewritten', async () => {
    const shared = binary20();
    const a1 = await peer(keyA, DASHBOARD);
    const a2 = await peer(keyA, `https://${SITE_A}`);
    await join(a1, shared);
    // What a sender could put in: the swarm's id inside the tracker (key hashes are public) and the
    // info_hash, as keys of the offer and inside its text.
    const inside = keyedInfoHash(keyA, shared);
    const crafted = {
      type: 'offer',
      sdp: `v=0 "info_hash":${JSON.stringify(inside)}`,
      info_hash: inside,
      nested: { info_hash: shared },
    };
    a2.ws.send(
      JSON.stringify({
        action: 'announce',
        info_hash: shared,
        peer_id: a2.id,
        numwant: 1,
        uploaded: 0,
        downloaded: 0,
        left: 1000,
        event: 'started',
        offers: [{ offer: crafted, offer_id: binary20() }],
      }),
    );
    const offer = await a1.box.next((m) => 'offer' in m);
    expect(offer.info_hash).toBe(shared);
    expect(offer.offer).toEqual(crafted);

    sendAnswer(a1, a2, shared, offer.offer_id, { ...crafted, type: 'answer' });
    const answer = await a2.box.next((m) => 'answer' in m);
    expect(answer.info_hash).toBe(shared);
    expect(answer.answer).toEqual({ ...crafted, type: 'answer' });
  });

  it('a message the library cannot take is refused, and the tracker keeps serving', async () => {
    const shared = binary20();
    const a1 = await peer(keyA, `https://${SITE_A}`);
    const a2 = await peer(keyA, `https://${SITE_A}`);
    await join(a1, shared);
    for (const bad of [
      { action: 'scrape', info_hash: 5 },
      { action: 'scrape', info_hash: [binary20(), 'short'] },
      { action: 'announce', info_hash: shared, peer_id: a2.id, numwant: 1, event: 'started', offers: [null] },
      { action: 'announce', info_hash: 'short', peer_id: a2.id },
      { action: 'stats' },
      [1, 2],
    ]) {
      a2.ws.send(JSON.stringify(bad));
      const r = await a2.box.next((m) => 'failure reason' in m);
      expect(r['failure reason'], JSON.stringify(bad)).toEqual(expect.any(String));
    }
    a2.ws.send('{not json');
    await a2.box.next((m) => 'failure reason' in m);
    expect(peersIn(await join(a2, shared))).toBe(2);
  });
});

describe('tracker: the upgrade names a key its Origin may use', () => {
  const refused = async (query: string, origin: string | undefined) =>
    (await connectWs(trackerUrl(query), origin)) as Refused;

  it('refuses with 400 an upgrade without one valid key', async () => {
    for (const query of ['', '?client=demo', '?key=', `?key=${keyA}&key=${keyA}`, '?key=a%20b', '?key=a/b']) {
      const r = await refused(query, `https://${SITE_A}`);
      expect(r.status, query).toBe(400);
      expect(r.closed, query).toBe(true);
    }
    const long = await refused(`?key=${'a'.repeat(201)}`, `https://${SITE_A}`);
    expect(long.status).toBe(400);
  });

  it('refuses with 403 a key that is unknown or not usable, even from the dashboard', async () => {
    for (const origin of [`https://${SITE_A}`, DASHBOARD]) {
      for (const [what, k] of [
        ['unknown', 'a'.repeat(40)],
        ['inactive', inactiveKey],
      ] as const) {
        const r = await refused(`?key=${k}`, origin);
        expect(r.status, `${what} ${origin}`).toBe(403);
        expect(r.closed, `${what} ${origin}`).toBe(true);
      }
    }
    for (const origin of [`https://${SITE_SUSPENDED}`, DASHBOARD]) {
      const r = await refused(`?key=${suspendedTeamKey}`, origin);
      expect(r.status, `suspended team ${origin}`).toBe(403);
    }
  });

  it("refuses with 403 another team's key from this Origin, and a key without an Origin", async () => {
    const foreign = await refused(`?key=${keyB}`, `https://${SITE_A}`);
    expect(foreign.status).toBe(403);
    expect(foreign.closed).toBe(true);
    const bare = await refused(`?key=${keyA}`, undefined);
    expect(bare.status).toBe(403);
    expect(bare.closed).toBe(true);
  });

  it('accepts the key from its own domain, a subdomain and the dashboard; another path stays 404', async () => {
    for (const origin of [`https://${SITE_A}`, `https://www.${SITE_A}`, DASHBOARD]) {
      const c = await connectWs(trackerUrl(`?key=${keyA}&client=demo`), origin);
      expect(c.status, origin).toBe(101);
      if ('ws' in c) c.ws.close();
    }
    const r = (await connectWs(
      `${server.base.replace(/^http/, 'ws')}/tracker/x?key=${keyA}`,
      `https://${SITE_A}`,
    )) as Refused;
    expect(r.status).toBe(404);
  });
});
