import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { KEY_HASH_PATTERN, networkTagOf, PLAYER_PATHS, TRACKER_SHARDS } from '@tlprt/contract';
import type { FastifyInstance } from 'fastify';
import type { UsableKey } from '../../access/usable-keys.js';
import type { AppContext } from '../../context.js';
import { addressGroup } from '../../http/client-address.js';
import { closeWithoutDeadWorkers } from './node-handover.js';
import { type LimitedTracker, refuse, SwarmHost } from './tracker-host.js';
import { defaultMaxSockets, SocketBudget } from './tracker-limits.js';
import { TrackerLiveness } from './tracker-liveness.js';
import { TrackerNetworks } from './tracker-networks.js';
import { TrackerWorkers } from './tracker-workers.js';

/** What the rest of the server reads of this node's tracker (the metrics, the tests). */
export interface TrackerNode {
  /** Sockets counted against the node's budget, from before the upgrade until the connection closes. */
  readonly sockets: { readonly open: number };
  swarmCount(): number;
  peerCount(): number;
  /** The swarms, when this process holds them (no TRACKER_WORKERS). */
  readonly local: LimitedTracker | undefined;
  /** The TRACKER_NODES that answer the liveness polls (all of them when none does; empty without
   *  TRACKER_NODES): the settings answer's node list. */
  liveNodes(): string[];
  /** The tag of the network `address` is in as this tracker places connections (networkTagOf): the
   *  settings answer gives it to the plugin for its peer id, which the tracker then holds to it. */
  networkTag(address: string): Promise<string>;
}

/** The tracker of a node, and its two steps of the node's shutdown (app.ts). */
export interface Tracker {
  node: TrackerNode;
  /** Takes no more connections and closes those it holds (each leaves its swarms), before the HTTP
   *  server closes: the other nodes' liveness polls, the upgrades, the swarms, the workers' sockets. */
  stopTaking(): Promise<void>;
  /** Ends the worker processes, once the HTTP server has closed. */
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    tracker: TrackerNode;
  }
}

/** The upgrade's `key` and `shard`, or undefined when either is repeated or malformed or the key is
 *  missing. No shard (a client built before shards) is shard 0. */
function queryOf(url: string): { key: string; shard: number } | undefined {
  const q = url.indexOf('?');
  const params = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
  const keys = params.getAll('key');
  const shards = params.getAll('shard');
  if (keys.length !== 1 || !KEY_HASH_PATTERN.test(keys[0] as string) || shards.length > 1) return undefined;
  const shard = shards.length === 0 ? 0 : Number(shards[0]);
  if (!/^\d{1,5}$/.test(shards[0] ?? '0') || shard >= TRACKER_SHARDS) return undefined;
  return { key: keys[0] as string, shard };
}

/**
 * The WebTorrent tracker of docs/DESIGN.md §11 on the server's own port, fed the WebSocket upgrades of
 * `/tracker?key=<hash>&shard=<n>` whose Origin may use that key (the Origin rule of the ingest; a page
 * elsewhere cannot join any swarm). The key hash is public, so the Origin alone does not fence a
 * customer in: every connection's info hashes are namespaced by its key (tracker-keyed-socket.ts), so
 * two keys never share a swarm, an offer or a scrape line. Within a key, swarms are per stream: the
 * plugin names them (the info hash hides the name, so the tracker cannot check it).
 * The key hash and any Origin can be copied, so every resource a client can make the tracker hold is
 * capped (README "Security"): sockets per node and per address (before the upgrade: 503 and 429), and
 * per connection, swarm and address in tracker-keyed-socket.ts and tracker-swarm.ts.
 * Announces live in memory: with several nodes (TRACKER_NODES), each player takes a stream's tracker by
 * a hash of its swarm id, so every viewer of a stream meets on one node (README). Within a node the
 * swarms live in this process, or with TRACKER_WORKERS in worker processes, each holding the shards
 * the plugin names (tracker-workers.ts): one process's open-file limit and core then no longer bound
 * the node.
 */
export async function startTracker(
  app: FastifyInstance,
  ctx: AppContext,
  opts: {
    workerScript?: string;
    /** A usable key's effective value of a setting: the key settings' layers, which another feature keeps. */
    settingOf: (key: UsableKey, settingId: number) => Promise<number>;
  },
): Promise<Tracker> {
  const limits = ctx.config.tracker;
  const host = limits.workers === 0 ? new SwarmHost(limits, ctx.log) : undefined;
  const workers =
    host === undefined ? await TrackerWorkers.start(limits, ctx.log, opts.workerScript) : undefined;
  // Each worker guards its own descriptors; the node's cap is theirs together unless one is set.
  const budget = new SocketBudget(
    limits.maxSockets ?? defaultMaxSockets() * Math.max(1, limits.workers),
    limits.socketsPerAddress,
  );
  const liveness = new TrackerLiveness(ctx.config.trackerNodes, ctx.log);
  // Each connection's network and country come from its address here, the one process that sees it
  // (TRUST_PROXY's rule), by the breakdowns' look-up: NETWORKS_FILE's ranges, then the shipped tables.
  const networks = new TrackerNetworks(ctx, app.stats.viewerFacts, opts.settingOf);
  // In production the tables load at start, not on the first public viewer's upgrade (about 2 s).
  if (ctx.config.nodeEnv === 'production') networks.warm();
  const node: TrackerNode = {
    sockets: budget,
    swarmCount: () => host?.swarmCount ?? workers?.swarmCount ?? 0,
    peerCount: () => host?.peerCount ?? workers?.peerCount ?? 0,
    local: host?.tracker,
    liveNodes: () => liveness.live(),
    networkTag: async (address) => networkTagOf((await networks.locate(address)).network),
  };
  app.decorate('tracker', node);

  // The other nodes' liveness polls and a plugin waiting to move its swarm back here (README
  // "Reliability"). A shard whose worker restarts is not taken yet: the plugin waits, the node stays
  // listed. A node shutting down says so before its port closes.
  let closing = false;
  app.get(PLAYER_PATHS.alive, { schema: { hide: true } }, async (req, reply) => {
    reply.header('Access-Control-Allow-Origin', '*').header('Cache-Control', 'no-store');
    const shard = Number((req.query as { shard?: unknown }).shard);
    const busy = workers !== undefined && Number.isInteger(shard) && shard >= 0 && !workers.takes(shard);
    return reply.code(closing || busy ? 503 : 204).send();
  });
  liveness.start();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = req.url ?? '';
    if (url.split('?')[0] !== PLAYER_PATHS.tracker) return refuse(socket, '404 Not Found');
    const query = queryOf(url);
    if (query === undefined) return refuse(socket, '400 Bad Request');
    const origin = req.headers.origin;
    // Browsers always send an Origin on WebSocket connections: none means a script, refused.
    if (!origin) return refuse(socket, '403 Forbidden');
    // Counted from here until the TCP connection closes, the Origin check's wait included: a flood of
    // upgrades cannot hold more descriptors than the budget while the database answers.
    const address = ctx.addressOf(req);
    const group = addressGroup(address);
    const over = budget.take(group);
    if (over === 'node') return refuse(socket, '503 Service Unavailable', true);
    if (over === 'address') return refuse(socket, '429 Too Many Requests', true);
    const release = () => budget.release(group);
    socket.once('close', release);
    Promise.all([ctx.origins.forKey(query.key, origin), networks.place(address, query.key)]).then(
      ([ok, place]) => {
        if (!ok || socket.destroyed) return refuse(socket, '403 Forbidden');
        const upgrade = { req, socket, head, key: query.key, group, place };
        if (workers === undefined) return host?.accept(upgrade);
        // The worker tells when the connection closes: this process's copy closes once handed over.
        socket.off('close', release);
        workers.hand(query.shard, { ...upgrade, socket: socket as Socket }, release);
      },
      (err: unknown) => {
        ctx.log.error({ err }, 'tracker: origin check failed');
        refuse(socket, '503 Service Unavailable');
      },
    );
  };
  app.server.on('upgrade', onUpgrade);
  return {
    node,
    async stopTaking() {
      closing = true;
      await liveness.stop();
      app.server.off('upgrade', onUpgrade);
      await host?.close();
      if (workers === undefined) return;
      await workers.drain();
      closeWithoutDeadWorkers(app.server);
    },
    close: async () => workers?.close(),
  };
}
