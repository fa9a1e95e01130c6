import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PLAYER_PATHS, swarmIdOf, TRACKER_SHARDS, trackerShardOf } from '@tlprt/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';
import { workerPids } from './helpers/worker-pids.js';
import { connectWs, inbox, type WsClient } from './helpers/ws.js';

/**
 * TRACKER_WORKERS: the node's swarms spread over worker processes by the shard the plugin names, the
 * server's process checking every upgrade and handing the connection over. The worker is the built
 * one (`npm test` builds first): a forked process cannot run the TypeScript sources.
 */

const WORKER = fileURLToPath(new URL('../dist/features/player/tracker-worker.js', import.meta.url));
const ORIGIN = new URL(PUBLIC_URL).origin;
const PER_ADDRESS = 4;

let server: TestServer;
let keyHash: string;
beforeAll(async () => {
  if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run npm run build first`);
  server = await startServer({
    env: { TRACKER_WORKERS: '2', TRACKER_SOCKETS_PER_ADDRESS: String(PER_ADDRESS) },
    deps: { trackerWorkerScript: WORKER },
  });
  const team = await buildTeam(server.app);
  const domain = await buildDomain(server.app, team.id, { promoted: true });
  keyHash = (await buildKey(server.app, team.id, domain.id)).keyHash;
});
afterAll(async () => {
  await server?.close();
});

const open: WsClient[] = [];
const trackerUrl = (query: string) => `${server.base.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}?${query}`;

/** A viewer's tracker socket as the plugin opens it for `stream` (or with the `shard` given). */
async function join(stream: string, shard = trackerShardOf(swarmIdOf(keyHash, stream))): Promise<WsClient> {
  const c = await connectWs(trackerUrl(`key=${keyHash}&shard=${shard}`), ORIGIN);
  if (!('ws' in c)) throw new Error(`tracker refused: ${c.status}`);
  open.push(c.ws);
  return c.ws;
}
const closeAll = () => {
  for (const ws of open.splice(0)) ws.close();
};

const infoHashOf = (stream: string) => createHash('sha1').update(stream).digest().toString('latin1');
let peers = 0;
function announce(ws: WsClient, stream: string, offers = 0) {
  ws.send(
    JSON.stringify({
      action: 'announce',
      info_hash: infoHashOf(stream),
      peer_id: `-XX0001-${String(++peers).padStart(12, '0')}`,
      numwant: offers,
      uploaded: 0,
      downloaded: 0,
      left: 1000,
      event: 'started',
      offers: Array.from({ length: offers }, (_, i) => ({
        offer: { type: 'offer', sdp: 'v=0' },
        offer_id: String(i).repeat(20),
      })),
    }),
  );
}

/** Whether a second viewer's offer reaches the first: they are in one swarm of one process. */
async function meet(first: WsClient, second: WsClient, stream: string): Promise<boolean> {
  const box = inbox(first);
  announce(first, stream);
  await box.next((m) => m.action === 'announce' && 'interval' in m);
  announce(second, stream, 1);
  return box
    .next((m) => 'offer' in m, 1500)
    .then(
      () => true,
      () => false,
    );
}

/** A stream whose shard falls to worker `w` of the two. */
function streamOnWorker(w: number, tag: string): string {
  for (let i = 0; ; i++) {
    const stream = `https://cdn.example/${tag}-${i}.m3u8`;
    if (trackerShardOf(swarmIdOf(keyHash, stream)) % 2 === w) return stream;
  }
}

describe('TRACKER_WORKERS: swarms in worker processes, by shard', () => {
  // A client's close reaches the server a moment later: each test starts once the last one's sockets
  // no longer count against the address (under load one test's budget began with them still open).
  beforeEach(async () => {
    closeAll();
    await expect.poll(() => server.app.tracker.sockets.open, { timeout: 5000 }).toBe(0);
  });
  it('starts the workers with the server; viewers of a stream meet in the worker of its shard, on either worker', async () => {
    expect(workerPids()).toHaveLength(2);
    for (const w of [0, 1]) {
      const stream = streamOnWorker(w, 'meet');
      expect(await meet(await join(stream), await join(stream), stream)).toBe(true);
    }
    // The server's process counts what its workers hold.
    await expect.poll(() => server.app.tracker.swarmCount(), { timeout: 3000 }).toBe(2);
    await expect.poll(() => server.app.tracker.peerCount(), { timeout: 3000 }).toBe(4);
    expect(server.app.tracker.sockets.open).toBe(4);
    expect(server.app.tracker.local).toBeUndefined();
    closeAll();
    await expect.poll(() => server.app.tracker.sockets.open, { timeout: 3000 }).toBe(0);
    await expect.poll(() => server.app.tracker.swarmCount(), { timeout: 3000 }).toBe(0);
  });

  it('a viewer naming another shard than its stream lands in the other worker and meets nobody', async () => {
    const stream = streamOnWorker(0, 'astray');
    const own = trackerShardOf(swarmIdOf(keyHash, stream));
    expect(await meet(await join(stream), await join(stream, (own + 1) % TRACKER_SHARDS), stream)).toBe(
      false,
    );
    // One swarm of the stream in each worker.
    await expect.poll(() => server.app.tracker.swarmCount(), { timeout: 3000 }).toBe(2);
    closeAll();
  });

  it('refuses a malformed or repeated shard before the upgrade; no shard is shard 0', async () => {
    for (const query of [
      `key=${keyHash}&shard=${TRACKER_SHARDS}`,
      `key=${keyHash}&shard=-1`,
      `key=${keyHash}&shard=1.5`,
      `key=${keyHash}&shard=x`,
      `key=${keyHash}&shard=`,
      `key=${keyHash}&shard=1&shard=2`,
    ]) {
      expect(await connectWs(trackerUrl(query), ORIGIN), query).toEqual({ status: 400, closed: true });
    }
    const c = await connectWs(trackerUrl(`key=${keyHash}`), ORIGIN);
    expect(c.status).toBe(101);
    if ('ws' in c) c.ws.close();
    // The Origin rule holds in front of the workers.
    const stream = streamOnWorker(1, 'origin');
    const shard = trackerShardOf(swarmIdOf(keyHash, stream));
    const foreign = await connectWs(trackerUrl(`key=${keyHash}&shard=${shard}`), 'https://elsewhere.example');
    expect(foreign).toEqual({ status: 403, closed: true });
  });

  it('the per-address budget counts handed-over sockets until their worker sees them close', async () => {
    const stream = streamOnWorker(1, 'budget');
    const held = [];
    for (let i = 0; i < PER_ADDRESS; i++) held.push(await join(stream));
    const shard = trackerShardOf(swarmIdOf(keyHash, stream));
    const over = await connectWs(trackerUrl(`key=${keyHash}&shard=${shard}`), ORIGIN);
    expect(over).toEqual({ status: 429, closed: true });
    held[0]?.close();
    await expect.poll(() => server.app.tracker.sockets.open, { timeout: 3000 }).toBe(PER_ADDRESS - 1);
    await join(stream);
    closeAll();
    await expect.poll(() => server.app.tracker.sockets.open, { timeout: 3000 }).toBe(0);
  });

  it("a worker that dies closes its connections, frees their budget and starts again; the other's swarms live on", async () => {
    const [onZero, onOne] = [streamOnWorker(0, 'crash'), streamOnWorker(1, 'crash')];
    const [a, b] = [await join(onZero), await join(onZero)];
    const [c, d] = [await join(onOne), await join(onOne)];
    expect(await meet(a, b, onZero)).toBe(true);
    expect(await meet(c, d, onOne)).toBe(true);
    await expect.poll(() => server.app.tracker.swarmCount(), { timeout: 3000 }).toBe(2);
    const before = workerPids();
    // Which process holds worker 0's shards: the one whose death closes a and b.
    const closed = (ws: WsClient) => new Promise<void>((resolve) => ws.once('close', () => resolve()));
    let victim: number | undefined;
    for (const pid of before) {
      const gone = Promise.race([
        closed(a).then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 1500)),
      ]);
      process.kill(pid, 'SIGKILL');
      if (await gone) {
        victim = pid;
        break;
      }
      // That was worker 1: c and d went with it; their worker comes back too.
      await expect.poll(() => workerPids().length, { timeout: 5000 }).toBe(2);
    }
    expect(victim).toBeDefined();
    await expect.poll(() => workerPids().length, { timeout: 5000 }).toBe(2);
    expect(workerPids()).not.toContain(victim);
    // Until the restarted worker is up, its shards are answered 503 (the plugin retries); then it
    // takes its shards' viewers again.
    const shard = trackerShardOf(swarmIdOf(keyHash, onZero));
    await expect
      .poll(
        async () => {
          const r = await connectWs(trackerUrl(`key=${keyHash}&shard=${shard}`), ORIGIN);
          if ('ws' in r) r.ws.close();
          return r.status;
        },
        { timeout: 5000, interval: 200 },
      )
      .toBe(101);
    // c and d, on the worker that lived, are all the budget still counts.
    await expect.poll(() => server.app.tracker.sockets.open, { timeout: 3000 }).toBe(2);
    const [e, f] = [await join(onZero), await join(onZero)];
    expect(await meet(e, f, onZero)).toBe(true);
    closeAll();
    await expect.poll(() => server.app.tracker.sockets.open, { timeout: 3000 }).toBe(0);
  });

  it('closing the server ends its workers', async () => {
    const stream = streamOnWorker(0, 'close');
    const ws = await join(stream);
    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    const pids = workerPids();
    expect(pids).toHaveLength(2);
    await server.app.close();
    await closed;
    expect(workerPids()).toEqual([]);
  });
});

describe('TRACKER_WORKERS: shutting down after every worker died', () => {
  it('the server still closes when no worker alive ever held one of its sockets', async () => {
    const earlier = workerPids();
    const other = await startServer({
      env: { TRACKER_WORKERS: '2' },
      deps: { trackerWorkerScript: WORKER },
    });
    const team = await buildTeam(other.app);
    const domain = await buildDomain(other.app, team.id, { promoted: true });
    const key = (await buildKey(other.app, team.id, domain.id)).keyHash;
    const before = workerPids().filter((p) => !earlier.includes(p));
    const url = `${other.base.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}?key=${key}`;
    for (const shard of [0, 1]) {
      const c = await connectWs(`${url}&shard=${shard}`, ORIGIN);
      expect(c.status).toBe(101);
    }
    expect(before).toHaveLength(2);
    for (const pid of before) process.kill(pid, 'SIGKILL');
    await expect
      .poll(() => workerPids().filter((p) => !before.includes(p) && !earlier.includes(p)).length, {
        timeout: 5000,
      })
      .toBe(2);
    // Node's server would wait for an answer from the dead workers' sockets forever.
    await other.close();
    expect(workerPids().filter((p) => !earlier.includes(p))).toEqual([]);
  });
});

describe('TRACKER_WORKERS: a worker that cannot start', () => {
  it('fails the server start with the reason and leaves no worker behind', async () => {
    const earlier = workerPids();
    await expect(
      startServer({
        env: { TRACKER_WORKERS: '2' },
        deps: { trackerWorkerScript: fileURLToPath(new URL('./no-such-worker.js', import.meta.url)) },
      }),
    ).rejects.toThrow(/tracker worker exited \(1\) before it was ready/);
    expect(workerPids().filter((p) => !earlier.includes(p))).toEqual([]);
  });
});
