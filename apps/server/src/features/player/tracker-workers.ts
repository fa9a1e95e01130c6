import { type ChildProcess, fork } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { stopReading } from './node-handover.js';
import { type CheckedUpgrade, refuse, type TrackerLog } from './tracker-host.js';
import type { TrackerLimits } from './tracker-limits.js';

/** What a tracker worker is started with (its one argument, as JSON). */
export interface WorkerInit {
  limits: TrackerLimits;
  /** Whether the server logs at debug level: the worker then sends its debug lines. */
  debug: boolean;
}

/** The server's process to a worker. A `socket` message carries the connection's handle. */
export type ToWorker =
  | {
      t: 'socket';
      id: number;
      key: string;
      group: string;
      /** Found in this process, where the client address is known (TRUST_PROXY), and sent along. */
      place: CheckedUpgrade['place'];
      method: string | undefined;
      url: string | undefined;
      headers: CheckedUpgrade['req']['headers'];
      /** The bytes read past the upgrade request, base64. */
      head: string;
    }
  /** Close every connection (each leaves its swarms) and answer `drained`. */
  | { t: 'drain' }
  /** Exit. */
  | { t: 'close' };

/** A worker to the server's process. */
export type FromWorker =
  | { t: 'ready' }
  | { t: 'drained' }
  /** The connection handed over as `id` has closed. */
  | { t: 'closed'; id: number }
  | { t: 'counts'; swarms: number; peers: number }
  | { t: 'log'; level: 'debug' | 'error'; msg: string; detail: Record<string, unknown> };

/** How long a worker gets to close its connections at shutdown before it is killed. */
const CLOSE_GRACE_MS = 5_000;
/** A worker that died is started again after this pause (its shards answer 503 meanwhile). */
const RESTART_MS = 1_000;

interface Slot {
  child: ChildProcess | undefined;
  /** Whether `child` has said it listens: until then its shards are answered 503. */
  ready: boolean;
  /** Connections handed to this worker and not yet closed: handover id → its budget release. */
  readonly handed: Map<number, () => void>;
  swarms: number;
  peers: number;
}

/**
 * The worker processes a node's swarms are spread over (TRACKER_WORKERS). This process checks each
 * upgrade (path, key, Origin, socket budget: tracker.ts), then passes the TCP connection itself to the
 * worker of the swarm's shard, which completes the handshake and holds the swarm (tracker-worker.ts).
 * Every viewer of a stream names the same shard, so they meet in one worker, and one process's
 * open-file limit and core no longer bound the node. A worker that dies takes its connections with
 * it: their budget is released, the plugins reconnect, and the worker is started again.
 */
export class TrackerWorkers {
  private nextId = 0;

  private constructor(
    private readonly slots: Slot[],
    /** Set at shutdown: a worker exiting then is not started again. */
    private readonly state: { closing: boolean },
  ) {}

  static async start(
    limits: TrackerLimits,
    log: TrackerLog & { level: string },
    script?: string,
  ): Promise<TrackerWorkers> {
    const path = script ?? fileURLToPath(new URL('./tracker-worker.js', import.meta.url));
    const init: WorkerInit = { limits, debug: log.level === 'debug' || log.level === 'trace' };
    const slots: Slot[] = Array.from({ length: limits.workers }, () => ({
      child: undefined,
      ready: false,
      handed: new Map(),
      swarms: 0,
      peers: 0,
    }));
    const state = { closing: false };
    const spawn = (slot: Slot) =>
      new Promise<void>((resolve, reject) => {
        // No inherited flags (a debugger's port, a profiler's output): a worker is a plain process.
        const child = fork(path, [JSON.stringify(init)], {
          execArgv: [],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        slot.child = child;
        slot.ready = false;
        child.on('error', (err) => log.error({ err }, 'tracker worker: IPC failed'));
        child.on('message', (m: FromWorker) => {
          if (m.t === 'ready') {
            slot.ready = true;
            resolve();
          } else if (m.t === 'closed') {
            slot.handed.get(m.id)?.();
            slot.handed.delete(m.id);
          } else if (m.t === 'counts') {
            slot.swarms = m.swarms;
            slot.peers = m.peers;
          } else if (m.t === 'log') {
            log[m.level](m.detail, m.msg);
          }
        });
        child.once('exit', (code, signal) => {
          const wasReady = slot.child === child && slot.ready;
          if (slot.child === child) {
            slot.child = undefined;
            slot.ready = false;
          }
          for (const release of slot.handed.values()) release();
          slot.handed.clear();
          slot.swarms = 0;
          slot.peers = 0;
          if (state.closing) return;
          // Its script cannot start: the start, or the restart below, fails with it.
          if (!wasReady)
            return reject(new Error(`tracker worker exited (${code ?? signal}) before it was ready`));
          log.error({ code, signal }, 'tracker worker died: its connections are closed, it restarts');
          setTimeout(() => {
            if (!state.closing)
              spawn(slot).catch((err: unknown) => log.error({ err }, 'tracker worker: restart failed'));
          }, RESTART_MS).unref();
        });
      });
    const pool = new TrackerWorkers(slots, state);
    try {
      await Promise.all(slots.map(spawn));
    } catch (err) {
      await pool.close();
      throw err;
    }
    return pool;
  }

  get swarmCount(): number {
    return this.slots.reduce((n, s) => n + s.swarms, 0);
  }

  get peerCount(): number {
    return this.slots.reduce((n, s) => n + s.peers, 0);
  }

  /** Whether the worker of `shard` takes connections now (not dead nor restarting). */
  takes(shard: number): boolean {
    const slot = this.slots[shard % this.slots.length] as Slot;
    return slot.child !== undefined && slot.ready && slot.child.connected;
  }

  /** Passes a checked upgrade to the worker of `shard`; `release` frees its budget once it closes. */
  hand(
    shard: number,
    { req, socket, head, key, group, place }: CheckedUpgrade & { socket: Socket },
    release: () => void,
  ): void {
    const slot = this.slots[shard % this.slots.length] as Slot;
    const child = slot.child;
    if (child === undefined || !slot.ready || !child.connected) {
      release();
      refuse(socket, '503 Service Unavailable', true);
      return;
    }
    stopReading(socket);
    // What a client sent ahead of the handshake's answer, read here already, goes along.
    const early = socket.readableLength > 0 ? (socket.read() as Buffer | null) : null;
    const id = ++this.nextId;
    slot.handed.set(id, release);
    const message: ToWorker = {
      t: 'socket',
      id,
      key,
      group,
      place,
      method: req.method,
      url: req.url,
      headers: req.headers,
      head: (early === null ? head : Buffer.concat([head, early])).toString('base64'),
    };
    child.send(message, socket, (err) => {
      if (err === null) return;
      slot.handed.delete(id);
      release();
      socket.destroy();
    });
  }

  /**
   * Has every worker close its connections, the workers staying up. Node's HTTP server, once it has
   * handed sockets to child processes, closes only when each of them says its sockets are closed: this
   * comes before the server closes, the workers' exit after.
   */
  async drain(): Promise<void> {
    this.state.closing = true;
    await Promise.all(
      this.slots.map(({ child, ready }) => {
        if (child === undefined || !ready || !child.connected) return undefined;
        return new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            child.off('message', onMessage);
            child.off('exit', done);
            resolve();
          };
          const onMessage = (m: FromWorker) => {
            if (m.t === 'drained') done();
          };
          const timer = setTimeout(done, CLOSE_GRACE_MS);
          child.on('message', onMessage);
          child.once('exit', done);
          child.send({ t: 'drain' } satisfies ToWorker);
        });
      }),
    );
  }

  /** Has every worker exit; kills one that takes too long. */
  async close(): Promise<void> {
    this.state.closing = true;
    await Promise.all(
      this.slots.map(({ child, ready }) => {
        if (child === undefined || child.exitCode !== null) return undefined;
        return new Promise<void>((resolve) => {
          const kill = setTimeout(() => child.kill('SIGKILL'), CLOSE_GRACE_MS);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          // One still starting may not listen yet, and holds no connection; a worker ignores SIGTERM
          // (the process group's, tracker-worker.ts).
          if (ready && child.connected) child.send({ t: 'close' } satisfies ToWorker);
          else child.kill('SIGKILL');
        });
      }),
    );
  }
}
