import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import TrackerServer from 'bittorrent-tracker/server';
import { KeyedSocket, type RawSocket } from './tracker-keyed-socket.js';
import type { TrackerLimits } from './tracker-limits.js';
import { type ConnectionPlace, Swarm } from './tracker-swarm.js';

/** The longest pause between two passes over the open sockets (idle, expired peers, pings). */
const MAX_SWEEP_MS = 30_000;
/** How often a slice of the sockets is swept. */
const SWEEP_TICK_MS = 250;

/** What the tracker logs: client mistakes at debug level, its own failures as errors. */
export interface TrackerLog {
  debug(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** An upgrade request as the WebSocket server and the library read it: in a tracker worker it is
 *  rebuilt from what the server's process sent along with the socket. */
export interface UpgradeRequest {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string; remotePort?: number };
  connection: { remoteAddress?: string; remotePort?: number };
}

/** A WebSocket upgrade whose path, key, Origin and socket budget are checked (tracker.ts). */
export interface CheckedUpgrade {
  req: UpgradeRequest;
  socket: Duplex;
  head: Buffer;
  key: string;
  /** The address group (http/client-address.ts addressGroup) of the connection. */
  group: string;
  /** Its network, country and key's matching setting, for the order of its announces' answers. */
  place: ConnectionPlace;
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
 * The swarms of one process and the WebSockets of their peers: bittorrent-tracker's server without its
 * HTTP, UDP and statistics listeners, fed upgrades that tracker.ts has checked. It runs in the server's
 * process, or in each tracker worker (tracker-worker.ts) for the shards the server hands it.
 */
export class SwarmHost {
  readonly tracker: LimitedTracker;
  /** The library's WebSocket server keeps no client list (clientTracking: false): closing needs one. */
  private readonly open = new Set<KeyedSocket>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: TrackerLimits,
    private readonly log: TrackerLog,
  ) {
    this.tracker = new LimitedTracker(
      {
        http: false,
        udp: false,
        stats: false,
        // The library would take the left-most X-Forwarded-For entry as the peer's address; the
        // address is not used for WebRTC peers, so none is believed.
        trustProxy: false,
        // The library tells WebSocket clients to re-announce every fifth of this: 2/5 of the idle
        // timeout (120 s of the default 300 s), so a player re-announces twice or more before it
        // would count as idle, even in a background tab whose timers run once a minute.
        interval: 2 * limits.idleTimeoutMs,
        ws: { noServer: true, maxPayload: limits.maxMessageBytes },
      },
      limits,
    );
    // The library reports client mistakes (bad announces) as errors: they are the client's, not ours.
    this.tracker.on('error', (err: unknown) => log.debug({ err }, 'tracker error'));
    this.tracker.on('warning', (err: unknown) => log.debug({ err }, 'tracker warning'));
    this.sweeper = this.startSweeping();
  }

  /** The WebSockets open here. */
  get socketCount(): number {
    return this.open.size;
  }

  get swarmCount(): number {
    return Object.keys(this.tracker.torrents).length;
  }

  get peerCount(): number {
    let n = 0;
    for (const swarm of Object.values(this.tracker.torrents)) n += swarm.peers.size;
    return n;
  }

  /** Completes the WebSocket handshake of a checked upgrade and lets its messages in. */
  accept({ req, socket, head, key, group, place }: CheckedUpgrade): void {
    const { tracker, limits, log } = this;
    tracker.ws.handleUpgrade(req as never, socket, head, (upgraded) => {
      const keyed = new KeyedSocket(upgraded as unknown as RawSocket, key, {
        group,
        place,
        messagesPerSecond: limits.messagesPerSecond,
        idleTimeoutMs: limits.idleTimeoutMs,
        now: () => performance.now(),
        swarmOf: (id) => tracker.torrents[id],
        onRefused: (reason) => log.debug({ reason, group }, 'tracker: message refused'),
      });
      this.open.add(keyed);
      socket.once('close', () => this.open.delete(keyed));
      tracker.ws.emit('connection', keyed, req);
    });
  }

  /** Ends every connection (each leaves its swarms) and the library's server. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const keyed of this.open) keyed.terminate();
    await new Promise<void>((resolve) => this.tracker.close(() => resolve()));
  }

  /**
   * Every socket is swept once a period, a slice of them each tick: a ping is a write call of its own,
   * and 20,000 of them in one pass held every announce up for half a second (the tracker bench).
   */
  private startSweeping(): NodeJS.Timeout {
    const open = this.open;
    const period = Math.min(MAX_SWEEP_MS, Math.max(100, this.limits.idleTimeoutMs / 4));
    const ticks = Math.max(1, Math.round(period / SWEEP_TICK_MS));
    // A Set's iterator goes on over later additions and skips what was deleted.
    let cursor = open.values();
    const sweeper = setInterval(() => {
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
    sweeper.unref();
    return sweeper;
  }
}

/** Retry-After of a refused upgrade: the plugin's client waits 10 s or more before reconnecting anyway. */
const RETRY_AFTER_S = 30;

/** Answers an upgrade with an HTTP status instead of the handshake, and closes it. */
export function refuse(socket: Duplex, status: string, retryAfter = false): void {
  const extra = retryAfter ? `Retry-After: ${RETRY_AFTER_S}\r\n` : '';
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n${extra}Content-Length: 0\r\n\r\n`);
  socket.destroy();
}
