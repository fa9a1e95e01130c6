import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { KEY_HASH_PATTERN, PLAYER_PATHS } from '@tlprt/contract';
import TrackerServer from 'bittorrent-tracker/server';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { addressGroup } from '../../http/client-address.js';
import { KeyedSocket, type RawSocket } from './tracker-keyed-socket.js';
import { defaultMaxSockets, SocketBudget, type TrackerLimits } from './tracker-limits.js';
import { Swarm } from './tracker-swarm.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This node's WebTorrent tracker (tests read its swarms). */
    tracker: LimitedTracker;
  }
}

/** The longest pause between two passes over the open sockets (idle, expired peers, pings). */
const MAX_SWEEP_MS = 30_000;
/** How often a slice of the sockets is swept. */
const SWEEP_TICK_MS = 250;
/** Retry-After of a refused upgrade: the plugin's client waits 10 s or more before reconnecting anyway. */
const RETRY_AFTER_S = 30;

function refuse(socket: Duplex, status: string, retryAfter = false): void {
  const extra = retryAfter ? `Retry-After: ${RETRY_AFTER_S}\r\n` : '';
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n${extra}Content-Length: 0\r\n\r\n`);
  socket.destroy();
}

/** The one `key` of the upgrade's query, or undefined when it is missing, repeated or malformed. */
function keyOf(url: string): string | undefined {
  const q = url.indexOf('?');
  const keys = new URLSearchParams(q === -1 ? '' : url.slice(q + 1)).getAll('key');
  return keys.length === 1 && KEY_HASH_PATTERN.test(keys[0] as string) ? keys[0] : undefined;
}

/**
 * bittorrent-tracker's server with our swarms (tracker-swarm.ts) through the two methods the library
 * lets a server replace. Both answer at once rather than on the next tick as the library's do: an
 * announce then runs from its message to its answer without a gap in which its swarm could be deleted
 * (its last peer leaving) or created twice (two first announces), so no peer lands in a swarm the
 * tracker no longer lists.
 */
export class LimitedTracker extends TrackerServer {
  declare torrents: Record<string, Swarm>;
  /** The WebSockets open on this node: the socket budget's count, once the upgrades are wired. */
  sockets: { readonly open: number } = { open: 0 };

  /** The peers of every swarm of this node. */
  peerCount(): number {
    let n = 0;
    for (const swarm of Object.values(this.torrents)) n += swarm.peers.size;
    return n;
  }

  constructor(
    opts: ConstructorParameters<typeof TrackerServer>[0],
    private readonly swarmLimits: TrackerLimits,
  ) {
    super(opts);
  }

  override createSwarm(infoHash: string, cb: (err: Error | null, swarm: Swarm) => void): void {
    let swarm = this.torrents[infoHash];
    if (swarm === undefined) {
      swarm = new Swarm(
        infoHash,
        this.swarmLimits,
        () => performance.now(),
        (s) => {
          if (this.torrents[s.infoHash] === s) delete this.torrents[s.infoHash];
        },
      );
      this.torrents[infoHash] = swarm;
    }
    cb(null, swarm);
  }

  override getSwarm(infoHash: string, cb: (err: Error | null, swarm: Swarm | undefined) => void): void {
    cb(null, this.torrents[infoHash]);
  }
}

/**
 * The WebTorrent tracker of DESIGN §11 on the server's own port: bittorrent-tracker's server without
 * its HTTP, UDP and statistics listeners, fed the WebSocket upgrades of `/tracker?key=<hash>` whose
 * Origin may use that key (the Origin rule of the ingest; a page elsewhere cannot join any swarm). The
 * key hash is public, so the Origin alone does not fence a customer in: every connection's info hashes
 * are namespaced by its key (tracker-keyed-socket.ts), so two keys never share a swarm, an offer or a
 * scrape line. Within a key, swarms are per stream: the plugin names them (the info hash hides the
 * name, so the tracker cannot check it).
 * The key hash and any Origin can be copied, so every resource a client can make the tracker hold is
 * capped (README "Security"): sockets per node and per address (before the upgrade: 503 and
 * 429), and per connection, swarm and address in tracker-keyed-socket.ts and tracker-swarm.ts.
 * Announces live in this node's memory: with several nodes (TRACKER_NODES), each player takes a stream's
 * tracker by a hash of its swarm id, so every viewer of a stream meets on one node (README).
 */
export function startTracker(app: FastifyInstance, ctx: AppContext): LimitedTracker {
  const limits = ctx.config.tracker;
  const tracker = new LimitedTracker(
    {
      http: false,
      udp: false,
      stats: false,
      // The library would take the left-most X-Forwarded-For entry as the peer's address; the address
      // is not used for WebRTC peers, so none is believed.
      trustProxy: false,
      // The library tells WebSocket clients to re-announce every fifth of this: 2/5 of the idle
      // timeout (120 s of the default 300 s), so a player re-announces twice or more before it would
      // count as idle, even in a background tab whose timers run once a minute.
      interval: 2 * limits.idleTimeoutMs,
      ws: { noServer: true, maxPayload: limits.maxMessageBytes },
    },
    limits,
  );
  app.decorate('tracker', tracker);
  // The library reports client mistakes (bad announces) as errors: they are the client's, not ours.
  tracker.on('error', (err: unknown) => ctx.log.debug({ err }, 'tracker error'));
  tracker.on('warning', (err: unknown) => ctx.log.debug({ err }, 'tracker warning'));

  const budget = new SocketBudget(limits.maxSockets ?? defaultMaxSockets(), limits.socketsPerAddress);
  tracker.sockets = budget;
  // The library's WebSocket server keeps no client list (clientTracking: false): closing needs one.
  const open = new Set<KeyedSocket>();
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = req.url ?? '';
    if (url.split('?')[0] !== PLAYER_PATHS.tracker) return refuse(socket, '404 Not Found');
    const key = keyOf(url);
    if (key === undefined) return refuse(socket, '400 Bad Request');
    const origin = req.headers.origin;
    // Browsers always send an Origin on WebSocket connections: none means a script, refused.
    if (!origin) return refuse(socket, '403 Forbidden');
    // Counted from here until the TCP connection closes, the Origin check's wait included: a flood of
    // upgrades cannot hold more descriptors than the budget while the database answers.
    const group = addressGroup(ctx.addressOf(req));
    const over = budget.take(group);
    if (over === 'node') return refuse(socket, '503 Service Unavailable', true);
    if (over === 'address') return refuse(socket, '429 Too Many Requests', true);
    socket.once('close', () => budget.release(group));
    ctx.origins.forKey(key, origin).then(
      (ok) => {
        if (!ok || socket.destroyed) return refuse(socket, '403 Forbidden');
        tracker.ws.handleUpgrade(req, socket, head, (upgraded) => {
          const keyed = new KeyedSocket(upgraded as unknown as RawSocket, key, {
            group,
            messagesPerSecond: limits.messagesPerSecond,
            idleTimeoutMs: limits.idleTimeoutMs,
            now: () => performance.now(),
            swarmOf: (id) => tracker.torrents[id],
            onRefused: (reason) => ctx.log.debug({ reason, group }, 'tracker: message refused'),
          });
          open.add(keyed);
          socket.once('close', () => open.delete(keyed));
          tracker.ws.emit('connection', keyed, req);
        });
      },
      (err: unknown) => {
        ctx.log.error({ err }, 'tracker: origin check failed');
        refuse(socket, '503 Service Unavailable');
      },
    );
  };
  app.server.on('upgrade', onUpgrade);
  // Every socket is swept once a period, a slice of them each tick: a ping is a write call of its own,
  // and 20,000 of them in one pass held every announce up for half a second (the tracker bench).
  const period = Math.min(MAX_SWEEP_MS, Math.max(100, limits.idleTimeoutMs / 4));
  const ticks = Math.max(1, Math.round(period / SWEEP_TICK_MS));
  // A Set's iterator goes on over later additions and skips what was deleted.
  let cursor = open.values();
  const sweep = setInterval(() => {
    const now = performance.now();
    for (let n = Math.ceil(open.size / ticks); n > 0; n--) {
      let next = cursor.next();
      if (next.done) {
        cursor = open.values();
        next = cursor.next();
        if (next.done) return;
      }
      next.value.sweep(now);
    }
  }, period / ticks);
  sweep.unref();
  app.addHook('preClose', async () => {
    clearInterval(sweep);
    app.server.off('upgrade', onUpgrade);
    for (const keyed of open) keyed.terminate();
    await new Promise<void>((resolve) => tracker.close(() => resolve()));
  });
  return tracker;
}
