import { PLAYER_PATHS } from '@tlprt/contract';

/** How often a node asks every TRACKER_NODES node whether it is alive. */
export const LIVENESS_POLL_MS = 2_000;
/** A poll not answered within this long is a failure (a node that hangs is as dead as a closed one). */
const LIVENESS_TIMEOUT_MS = 1_000;
/** Failed polls in a row before a node is left out of the settings answer (one lost packet is not a
 *  death); one answer brings it back. */
const FAILURES_TO_DOWN = 2;

interface NodeState {
  failures: number;
  up: boolean;
}

/**
 * Which TRACKER_NODES answer, seconds old at most: every node polls every node's liveness route
 * (itself included: what counts is whether viewers reach it by its public origin). A poll over HTTP,
 * not a heartbeat row in the shared database: it needs no table nor write every two seconds on
 * either database, and it fails exactly when a viewer's connection would (the node down, its port
 * unreachable, a proxy in front of it gone), where a heartbeat only says the process still writes.
 * At most 2 × 2 s + 1 s after a node dies it is out of the settings answer; one answer puts it back.
 */
export class TrackerLiveness {
  private readonly state = new Map<string, NodeState>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(
    private readonly nodes: readonly string[],
    private readonly log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void },
    private readonly options: { pollMs?: number; timeoutMs?: number } = {},
  ) {
    // Until the first polls, every node is taken as alive (a node that starts does not drop the others).
    for (const n of nodes) this.state.set(n, { failures: 0, up: true });
  }

  start(): void {
    if (this.nodes.length < 2 || this.timer) return;
    const tick = () => {
      if (this.polling === undefined) this.polling = this.pollAll().finally(() => (this.polling = undefined));
    };
    tick();
    this.timer = setInterval(tick, this.options.pollMs ?? LIVENESS_POLL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.polling;
  }

  /** The nodes that answer, in TRACKER_NODES order; all of them when none does (this node cannot
   *  reach any, itself included: its view is worth nothing, and an empty list would leave viewers
   *  with no tracker at all). */
  live(): string[] {
    const up = this.nodes.filter((n) => this.state.get(n)?.up !== false);
    return up.length > 0 ? up : [...this.nodes];
  }

  private async pollAll(): Promise<void> {
    await Promise.all(this.nodes.map((n) => this.poll(n)));
  }

  private async poll(node: string): Promise<void> {
    let ok = false;
    try {
      const res = await fetch(node + PLAYER_PATHS.alive, {
        signal: AbortSignal.timeout(this.options.timeoutMs ?? LIVENESS_TIMEOUT_MS),
        headers: { 'Cache-Control': 'no-cache' },
      });
      ok = res.ok;
      await res.body?.cancel();
    } catch {
      // Refused, reset, timed out: the node is not reachable.
    }
    const s = this.state.get(node) as NodeState;
    if (ok) {
      if (!s.up) this.log.info({ node }, 'tracker node answers again: back in the settings answer');
      s.failures = 0;
      s.up = true;
      return;
    }
    s.failures += 1;
    if (s.up && s.failures >= FAILURES_TO_DOWN) {
      s.up = false;
      this.log.warn({ node }, 'tracker node does not answer: left out of the settings answer');
    }
  }
}
