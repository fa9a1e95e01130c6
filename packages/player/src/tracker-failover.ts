import { PLAYER_PATHS } from '@tlprt/contract';

/**
 * Tracker failover: a lost tracker connection comes back within seconds, on the swarm's next node
 * when its node is dead, and back on the first node when it answers again.
 *
 * p2p-media-loader-core 2.3.1 bundles bittorrent-tracker's WebSocket client, which reconnects after
 * 10 s × 2^retries plus a random 0–300 s, always to the URL it was made with, and offers no option for
 * either. So, as peer-drop.ts does, this walks the library's objects (core → stream loaders → P2P
 * loaders → tracker client → bittorrent-tracker client → its WebSocket trackers) and, on each tracker,
 * replaces the one method that schedules its reconnect (`_startReconnectTimer`, called once the library
 * has torn the socket down) and sets `announceUrl` before reopening (`_openSocket`, which reads it):
 * its own connect, announce and peer handling stay untouched. Connected peers are not the tracker's
 * (WebRTC links outlive it), so a move costs no peer. tracker-failover.test.ts (player) and the
 * server's tracker-failover.test.ts hold this to the real library, so an upgrade that renames these
 * fails there, not silently in customers' pages.
 *
 * Which way to go is decided by asking the node itself (`/player/v1/alive?shard=`): a node that does
 * not answer is dead, and every viewer of the swarm moves to the next node of the swarm's rendezvous
 * order, so they meet again; a node that answers (its worker restarting: 503) is retried. A viewer on
 * a later node asks the earlier ones every few seconds and moves back to the first that answers, which
 * also rejoins a viewer that moved while its node only hiccupped.
 */

/** The library's WebSocket tracker, as much of it as this file uses. */
export interface LibraryTracker {
  announceUrl: string;
  destroyed: boolean;
  reconnecting: boolean;
  reconnectTimer: ReturnType<typeof setTimeout> | null;
  socket: LibrarySocket | null;
  client?: { destroyed?: boolean };
  destroy(): void;
  _openSocket(): void;
  _onSocketError(err: Error): void;
  _startReconnectTimer(): void;
}
interface LibrarySocket {
  connected: boolean;
  once(event: 'connect', listener: () => void): void;
}

type Bag = Record<string, unknown> | undefined;
const field = (o: unknown, name: string): Bag =>
  typeof o === 'object' && o !== null ? ((o as Record<string, unknown>)[name] as Bag) : undefined;

const isLibraryTracker = (t: unknown): t is LibraryTracker =>
  typeof field(t, 'announceUrl') === 'string' &&
  typeof field(t, '_openSocket') === 'function' &&
  typeof field(t, '_startReconnectTimer') === 'function' &&
  typeof field(t, 'destroy') === 'function';

/** The WebSocket trackers of one of the library's P2PTrackerClient. */
function clientTrackers(trackerClient: unknown): LibraryTracker[] {
  const list = field(field(trackerClient, 'client'), '_trackers');
  return Array.isArray(list) ? list.filter(isLibraryTracker) : [];
}

/** The WebSocket trackers of a P2P engine (hls.js or Shaka) or of a bare core (`{ core }`). */
export function engineTrackers(engine: unknown): LibraryTracker[] {
  const core = field(engine, 'core');
  const out: LibraryTracker[] = [];
  for (const name of ['mainStreamLoader', 'secondaryStreamLoader']) {
    const loaders = field(field(field(core, name), 'p2pLoaders'), 'loaders');
    if (!(loaders instanceof Map)) continue;
    for (const item of loaders.values())
      out.push(...clientTrackers(field(field(item, 'loader'), 'trackerClient')));
  }
  return out;
}

export interface FailoverPlan {
  /** The swarm's nodes, first to last (trackerNodeOrder over every TRACKER_NODES node; the answering
   *  server alone without them). */
  order: string[];
  /** Where viewers start: the first node of `order` the settings answer listed as live. */
  start: number;
  /** The swarm's shard: the liveness question names it, a node whose worker restarts answers 503. */
  shard: number;
  /** The tracker URL on a node. */
  urlOn(node: string): string;
}

type Liveness = 'alive' | 'busy' | 'dead';

interface TrackerState {
  index: number;
  /** Failed connections since the last success: the back-off's step. */
  attempts: number;
  /** Bumped by each loss and move: a stale probe's answer or timer does nothing. */
  generation: number;
  connectTimer?: ReturnType<typeof setTimeout>;
}

/** A reconnect waits this long (× 0.5–1.5), growing by half each failure up to RECONNECT_MAX_MS. */
const RECONNECT_BASE_MS = 1_000;
/** After a move to the next node the wait starts shorter: nothing there has failed yet. */
const MOVE_BASE_MS = 500;
const RECONNECT_MAX_MS = 30_000;
/** A connection not open after this long counts as failed (a node whose packets vanish never refuses). */
const CONNECT_TIMEOUT_MS = 4_000;
const PROBE_TIMEOUT_MS = 2_000;
/** A viewer on a later node asks the earlier ones this often (× 0.5–1.5). */
const MOVE_BACK_MS = 7_500;

export class TrackerFailover {
  private readonly states = new Map<LibraryTracker, TrackerState>();
  private currentIndex: number;
  private moveBackTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly plan: FailoverPlan,
    private readonly deps: { fetch?: typeof fetch; random?: () => number } = {},
  ) {
    this.currentIndex = plan.start;
    this.scheduleMoveBack();
  }

  /** The node the swarm's viewers meet on now (the integrity questions follow it). */
  node(): string {
    return this.plan.order[this.currentIndex] as string;
  }

  /** Takes over the reconnects of a tracker of this swarm (once; others are left alone). */
  adopt(t: LibraryTracker): void {
    if (this.stopped || this.states.has(t)) return;
    const index = this.plan.order.findIndex((n) => this.plan.urlOn(n) === t.announceUrl);
    if (index === -1) return;
    const st: TrackerState = { index, attempts: 0, generation: 0 };
    this.states.set(t, st);
    t._startReconnectTimer = () => this.lost(t, st);
    // Its first connection failed before it was found: the library's timer (minutes) is replaced.
    if (t.reconnecting) this.lost(t, st);
    else if (t.socket && !t.destroyed) this.watch(t, st);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.moveBackTimer);
    for (const [t, st] of this.states) {
      clearTimeout(st.connectTimer);
      if (t.reconnecting && t.reconnectTimer) clearTimeout(t.reconnectTimer);
    }
    this.states.clear();
  }

  private gone(t: LibraryTracker): boolean {
    if (this.stopped || t.client?.destroyed === true) {
      this.states.delete(t);
      return true;
    }
    return false;
  }

  private jitter(ms: number): number {
    return Math.round(ms * (0.5 + (this.deps.random ?? Math.random)()));
  }

  /** The library lost (or never got) the tracker's connection and has torn it down. */
  private lost(t: LibraryTracker, st: TrackerState): void {
    // As the library's own timer does: announces and scrapes wait while this is set.
    t.reconnecting = true;
    if (t.reconnectTimer) clearTimeout(t.reconnectTimer);
    t.reconnectTimer = null;
    clearTimeout(st.connectTimer);
    if (this.gone(t)) return;
    st.attempts += 1;
    const generation = ++st.generation;
    const node = this.plan.order[st.index] as string;
    const asked: Promise<Liveness> = this.plan.order.length > 1 ? this.probe(node) : Promise.resolve('busy');
    void asked.then((liveness) => {
      if (generation !== st.generation || this.gone(t)) return;
      const moved = liveness === 'dead';
      if (moved) st.index = (st.index + 1) % this.plan.order.length;
      const base = (moved ? MOVE_BASE_MS : RECONNECT_BASE_MS) * 1.5 ** (st.attempts - 1);
      t.reconnectTimer = setTimeout(
        () => this.open(t, st, generation),
        this.jitter(Math.min(RECONNECT_MAX_MS, base)),
      );
    });
  }

  private open(t: LibraryTracker, st: TrackerState, generation: number): void {
    if (generation !== st.generation || this.gone(t)) return;
    t.reconnectTimer = null;
    t.announceUrl = this.plan.urlOn(this.plan.order[st.index] as string);
    // With `reconnecting` set, the library announces anew once the socket connects (and resets it).
    t.reconnecting = true;
    t._openSocket();
    this.watch(t, st);
  }

  /** Counts the connection a success once open; a failure if it takes too long. */
  private watch(t: LibraryTracker, st: TrackerState): void {
    const socket = t.socket;
    if (!socket) return;
    const generation = st.generation;
    const connected = () => {
      if (generation !== st.generation || t.socket !== socket) return;
      clearTimeout(st.connectTimer);
      st.attempts = 0;
      this.currentIndex = st.index;
    };
    if (socket.connected) {
      connected();
      return;
    }
    socket.once('connect', connected);
    clearTimeout(st.connectTimer);
    st.connectTimer = setTimeout(() => {
      if (generation === st.generation && t.socket === socket && !socket.connected && !t.destroyed)
        t._onSocketError(new Error('tracker connection timed out'));
    }, CONNECT_TIMEOUT_MS);
  }

  /** What a node says of itself: 'dead' when it does not answer at all. */
  private async probe(node: string): Promise<Liveness> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), PROBE_TIMEOUT_MS);
    try {
      const res = await (this.deps.fetch ?? fetch)(`${node}${PLAYER_PATHS.alive}?shard=${this.plan.shard}`, {
        credentials: 'omit',
        cache: 'no-store',
        signal: abort.signal,
      });
      return res.status === 204 || res.status === 200 ? 'alive' : 'busy';
    } catch {
      return 'dead';
    } finally {
      clearTimeout(timer);
    }
  }

  private scheduleMoveBack(): void {
    if (this.stopped || this.plan.order.length < 2) return;
    this.moveBackTimer = setTimeout(() => {
      void this.moveBack().finally(() => this.scheduleMoveBack());
    }, this.jitter(MOVE_BACK_MS));
  }

  /** Trackers on a later node than an earlier one that answers go back to it. */
  private async moveBack(): Promise<void> {
    for (const t of [...this.states.keys()]) this.gone(t);
    const furthest = Math.max(0, ...[...this.states.values()].map((s) => s.index));
    for (let j = 0; j < furthest; j++) {
      if ((await this.probe(this.plan.order[j] as string)) !== 'alive' || this.stopped) continue;
      for (const [t, st] of this.states) if (st.index > j && !this.gone(t)) this.switchTo(t, st, j);
      return;
    }
  }

  private switchTo(t: LibraryTracker, st: TrackerState, index: number): void {
    st.index = index;
    st.attempts = 0;
    const generation = ++st.generation;
    clearTimeout(st.connectTimer);
    // Waiting to reconnect: it goes to the new node when its timer fires.
    if (t.reconnecting) {
      if (t.reconnectTimer) clearTimeout(t.reconnectTimer);
      t.reconnectTimer = setTimeout(() => this.open(t, st, generation), this.jitter(MOVE_BASE_MS));
      return;
    }
    // Connected elsewhere: the library's own teardown (its socket closes once no stream of the page
    // uses it, which leaves the old node's swarm), then the new node.
    t.destroy();
    this.open(t, st, generation);
  }
}

/**
 * Has `failover` take over each tracker the engine makes: its P2P loaders come and go with the
 * streams, so they are looked for every second and at each tracker warning (a failed connection says
 * so just before the library schedules its reconnect). Returns the stop.
 */
export function followTrackers(
  engine: { addEventListener(name: 'onTrackerWarning' | 'onTrackerError', l: () => void): void },
  failover: TrackerFailover,
): () => void {
  const look = () => {
    for (const t of engineTrackers(engine)) failover.adopt(t);
  };
  engine.addEventListener('onTrackerWarning', look);
  engine.addEventListener('onTrackerError', look);
  const timer = setInterval(look, 1_000);
  return () => {
    clearInterval(timer);
    failover.stop();
  };
}
