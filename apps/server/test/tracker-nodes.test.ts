import { createHash } from 'node:crypto';
import { PLAYER_PATHS, swarmIdOf, trackerNodeFor, ZPublicKeySettingsResponse } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { freePort } from './helpers/free-port.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';
import { connectWs, nextMessage, type WsClient } from './helpers/ws.js';

/**
 * Swarms sharded over tracker nodes: with TRACKER_NODES every server hands the plugin the
 * node list, and every viewer of a stream computes the same node for its swarm (trackerNodeFor), so they
 * meet there whichever server answered their settings. Two servers on one database, as two nodes of a
 * deployment share its PostgreSQL.
 */

const ORIGIN = new URL(PUBLIC_URL).origin;

let nodes: TestServer[] = [];
let urls: string[] = [];
beforeAll(async () => {
  const ports = [await freePort(), await freePort()];
  urls = ports.map((p) => `http://127.0.0.1:${p}`);
  const env = { TRACKER_NODES: urls.join(',') };
  const first = await startServer({ env, port: ports[0] });
  nodes = [first, await startServer({ env, port: ports[1], databaseUrl: first.databaseUrl })];
});
afterAll(async () => {
  // The second shares the first's database: it goes first, the owner drops the database after.
  for (const node of [...nodes].reverse()) await node.close();
});

const nodeOf = (url: string) => nodes[urls.indexOf(url)] as TestServer;

/** What a viewer's plugin reads from `node`: the key's settings with the node list. */
async function settingsFrom(node: TestServer, keyHash: string) {
  const res = await fetch(`${node.base}${PLAYER_PATHS.settings(keyHash)}`, { headers: { Origin: ORIGIN } });
  expect(res.status).toBe(200);
  return ZPublicKeySettingsResponse.parse(await res.json()).data;
}

/** A viewer of `stream` joining its swarm's tracker as the plugin does; answers its socket. */
async function join(trackerNodes: readonly string[], keyHash: string, stream: string): Promise<WsClient> {
  const node = trackerNodeFor(swarmIdOf(keyHash, stream), trackerNodes) as string;
  const c = await connectWs(`${node.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}?key=${keyHash}`, ORIGIN);
  if (!('ws' in c)) throw new Error(`tracker refused: ${c.status}`);
  return c.ws;
}

const infoHashOf = (stream: string) => createHash('sha1').update(stream).digest().toString('latin1');
const peerId = (n: number) => `-XX0001-${String(n).padStart(12, '0')}`;
function announce(ws: WsClient, infoHash: string, id: string, offers: unknown[] = []) {
  ws.send(
    JSON.stringify({
      action: 'announce',
      info_hash: infoHash,
      peer_id: id,
      numwant: offers.length,
      uploaded: 0,
      downloaded: 0,
      left: 1000,
      event: 'started',
      offers,
    }),
  );
}

describe('TRACKER_NODES: swarms sharded over tracker nodes', () => {
  it('every node hands out the node list; viewers of a stream meet on the node its swarm hashes to, whichever node served their settings', async () => {
    const app = (nodes[0] as TestServer).app;
    const team = await buildTeam(app);
    const domain = await buildDomain(app, team.id, { promoted: true });
    const { keyHash } = await buildKey(app, team.id, domain.id);
    const [fromFirst, fromSecond] = [
      await settingsFrom(nodes[0] as TestServer, keyHash),
      await settingsFrom(nodes[1] as TestServer, keyHash),
    ];
    expect(fromFirst.trackerNodes).toEqual([...urls].sort());
    expect(fromSecond.trackerNodes).toEqual(fromFirst.trackerNodes);

    // A stream whose swarm hashes to each node.
    const streamOn = new Map<string, string>();
    for (let i = 0; streamOn.size < urls.length; i++) {
      const stream = `https://cdn.example/live-${i}.m3u8`;
      const node = trackerNodeFor(swarmIdOf(keyHash, stream), urls) as string;
      if (!streamOn.has(node)) streamOn.set(node, stream);
    }
    let n = 0;
    for (const [node, stream] of streamOn) {
      const other = urls.find((u) => u !== node) as string;
      const swarms = (url: string) => nodeOf(url).app.tracker.swarmCount();
      const before = { named: swarms(node), other: swarms(other) };
      // One viewer took its settings from the first node, the other from the second; the query of the
      // stream's URL (a CDN token) does not move the swarm.
      const one = await join(fromFirst.trackerNodes ?? [], keyHash, `${stream}?token=a`);
      const two = await join(fromSecond.trackerNodes ?? [], keyHash, `${stream}?token=b`);
      const infoHash = infoHashOf(stream);
      const first = nextMessage(one);
      announce(one, infoHash, peerId(++n));
      expect(await first).toMatchObject({ action: 'announce', interval: expect.any(Number) });
      // The second viewer offers a connection: the tracker hands it to the first, so they met.
      const offered = nextMessage(one);
      announce(two, infoHash, peerId(++n), [
        { offer: { type: 'offer', sdp: 'v=0' }, offer_id: 'o'.repeat(20) },
      ]);
      expect(await offered).toMatchObject({ action: 'announce', offer: { type: 'offer', sdp: 'v=0' } });
      // The swarm lives on the named node only.
      expect({ named: swarms(node), other: swarms(other) }).toEqual({
        named: before.named + 1,
        other: before.other,
      });
      one.close();
      two.close();
      // Both gone, the swarm goes with them.
      await expect.poll(() => swarms(node)).toBe(before.named);
    }
  });

  it('TRACKER_NODES is a list of origins: one with a path or another scheme is refused at start', async () => {
    const { loadConfig } = await import('../src/config.js');
    const base = { DATABASE_URL: 'sqlite::memory:' };
    expect(
      loadConfig({ ...base, TRACKER_NODES: 'https://t1.example, https://t2.example:8443/' }).trackerNodes,
    ).toEqual(['https://t1.example', 'https://t2.example:8443']);
    expect(loadConfig(base).trackerNodes).toEqual([]);
    for (const bad of ['https://t1.example/tracker', 'ws://t1.example', 'not a url'])
      expect(() => loadConfig({ ...base, TRACKER_NODES: bad })).toThrow(/TRACKER_NODES/);
  });
});
