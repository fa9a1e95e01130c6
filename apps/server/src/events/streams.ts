import type { ServerResponse } from 'node:http';
import type { TLiveEvent } from '@tlprt/contract';
import type { Clock } from '../lib/clock.js';
import type { BusMessage, EventBus } from './bus.js';

/** Who an open stream belongs to. */
interface StreamOwner {
  userId: number;
  sessionId: number;
  /** The session's expiry: the stream ends with it, so an expired token stops receiving events. */
  expiresAt: number;
}

interface LiveStream extends StreamOwner {
  res: ServerResponse;
}

/**
 * The open event streams of this node. Subscribes to the bus and writes each message to the streams
 * it targets; forced-logout messages also end those streams.
 */
/** Which of these session ids are still live. */
type LiveSessionCheck = (sessionIds: number[]) => Promise<Set<number>>;

export class StreamHub {
  private readonly streams = new Set<LiveStream>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(
    bus: EventBus,
    private readonly now: Clock,
    heartbeatMs: number,
    private readonly liveSessions: LiveSessionCheck,
  ) {
    this.unsubscribe = bus.subscribe((m) => this.deliver(m));
    // One timer for every stream: keeps proxies from closing idle connections and drops dead sessions.
    this.heartbeat = setInterval(() => void this.ping(), heartbeatMs);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.streams.size;
  }

  /** Takes over a response (already hijacked from Fastify) as an event stream. */
  open(res: ServerResponse, owner: StreamOwner, headers: Record<string, string>): void {
    res.writeHead(200, {
      ...headers,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // Tells nginx-like proxies not to buffer the stream.
      'X-Accel-Buffering': 'no',
    });
    res.write(': connected\n\n');
    const stream: LiveStream = { ...owner, res };
    this.streams.add(stream);
    res.on('close', () => this.streams.delete(stream));
  }

  private deliver({ target, event, close }: BusMessage): void {
    const users = new Set(target.userIds ?? []);
    const sessions = new Set(target.sessionIds ?? []);
    for (const s of this.streams) {
      if (!users.has(s.userId) && !sessions.has(s.sessionId)) continue;
      write(s, event);
      if (close) this.end(s);
    }
  }

  /** Heartbeat: ends the streams of expired or revoked sessions (one query for all), pings the rest. A
   *  failed check pings anyway: a database hiccup must not sign everybody out. */
  private async ping(): Promise<void> {
    const now = this.now();
    const open = [...this.streams].filter((s) => {
      if (s.expiresAt > now) return true;
      this.end(s);
      return false;
    });
    let live: Set<number> | null = null;
    try {
      live = await this.liveSessions([...new Set(open.map((s) => s.sessionId))]);
    } catch {
      live = null;
    }
    for (const s of open) {
      if (!this.streams.has(s)) continue;
      if (live && !live.has(s.sessionId)) this.end(s);
      else s.res.write(': ping\n\n');
    }
  }

  private end(s: LiveStream): void {
    this.streams.delete(s);
    s.res.end();
  }

  /** Shutdown: end every stream so the HTTP server can close instead of waiting on them. */
  closeAll(): void {
    clearInterval(this.heartbeat);
    this.unsubscribe();
    for (const s of this.streams) this.end(s);
  }
}

function write(s: LiveStream, event: TLiveEvent): void {
  s.res.write(`data: ${JSON.stringify(event)}\n\n`);
}
