import { readFileSync } from 'node:fs';
import type { Config } from '../../config.js';

/** The tracker's limits (config.ts `tracker`, README "Configuration"). */
export type TrackerLimits = Config['tracker'];

/**
 * WebSocket close codes (RFC 6455 §7.4.1) the tracker ends a connection with, each with a reason text:
 * a client that breaks a rule no honest player breaks (too many messages or swarms, a second peer id in
 * a swarm, silence) gets 1008; a message above the size limit gets 1009 from `ws` itself. Limits on
 * whole sockets are answered before the upgrade, as HTTP statuses (tracker.ts).
 */
export const CLOSE_POLICY = 1008;
/** @internal `ws` sends it itself; the tests expect it by name. */
export const CLOSE_TOO_BIG = 1009;

/** Without TRACKER_MAX_SOCKETS, at most this many however high the open-file limit: memory, not
 *  descriptors, is then what runs out first (about 11 kB a held peer: README "Performance"). */
const MAX_SOCKETS_CEILING = 20_000;

/** The soft limit of open files of this process (Node raises it to the hard one at start), or
 *  undefined where /proc is not there. */
function openFileLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    const n = Number(soft);
    return Number.isFinite(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cap of tracker sockets of a process when none is configured. Every socket holds a file
 * descriptor, and the HTTP API, the event streams and the database need theirs: under an open-file
 * limit of 1,024, a thousand idle tracker sockets made every sign-in fail. Half the limit stays for the
 * rest, or `reserve` descriptors in a tracker worker, which holds nothing else.
 */
export function defaultMaxSockets({ reserve }: { reserve?: number } = {}): number {
  const limit = openFileLimit();
  if (limit === undefined) return 1000;
  const room = reserve === undefined ? Math.floor(limit / 2) : limit - reserve;
  return Math.max(1, Math.min(MAX_SOCKETS_CEILING, room));
}

/**
 * Messages a connection may send: `rate` a second on average, bursts up to `capacity`. A player sends an
 * announce per stream every two minutes and one answer per offer it receives; many viewers joining at
 * once make a burst of offers, hence the room above the rate.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rate: number,
    private readonly capacity: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.at = now;
  }

  take(now: number): boolean {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) * this.rate) / 1000);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Open tracker sockets, on the node and per address group; a slot is taken before the upgrade. */
export class SocketBudget {
  private total = 0;
  private readonly perGroup = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly maxPerGroup: number,
  ) {}

  /** Takes a slot for `group`, or answers which limit is reached. */
  take(group: string): 'node' | 'address' | undefined {
    if (this.total >= this.max) return 'node';
    const n = this.perGroup.get(group) ?? 0;
    if (n >= this.maxPerGroup) return 'address';
    this.total += 1;
    this.perGroup.set(group, n + 1);
    return undefined;
  }

  release(group: string): void {
    const n = this.perGroup.get(group) ?? 0;
    if (n <= 1) this.perGroup.delete(group);
    else this.perGroup.set(group, n - 1);
    this.total = Math.max(0, this.total - 1);
  }

  get open(): number {
    return this.total;
  }
}
