import type { ServerResponse } from 'node:http';
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

/** Which of these session ids are still live. */
type LiveSessionCheck = (sessionIds: number[]) => Promise<Set<number>>;

/**
 * The open event streams of this node. Subscribes to the bus and writes each message to the streams
 * it targets; forced-logout messages also end those streams.
 */
export class StreamHub {
  private readonly streams = new Set<LiveStream>();
  /** The same streams by user and by session: an event for a few users is written to their streams
   *  without looking at every stream the node holds. */
  private readonly byUser = new Map<number, Set<LiveStream>>();
  private readonly bySession = new Map<number, Set<LiveStream>>();
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
    indexed(this.byUser, stream.userId).add(stream);
    indexed(this.bySession, stream.sessionId).add(stream);
    res.on('close', () => this.forget(stream));
  }

  private deliver({ target, event, close }: BusMessage): void {
    // A stream of a targeted user and of a targeted session gets the event once.
    const recipients = new Set<LiveStream>();
    for (const id of target.userIds ?? []) for (const s of this.byUser.get(id) ?? []) recipients.add(s);
    for (const id of target.sessionIds ?? []) for (const s of this.bySession.get(id) ?? []) recipients.add(s);
    if (recipients.size === 0) return;
    const frame = framed(`data: ${JSON.stringify(event)}\n\n`);
    for (const s of recipients) {
      send(s.res, frame);
      if (close) this.end(s);
    }
  }

  private forget(s: LiveStream): void {
    this.streams.delete(s);
    unindex(this.byUser, s.userId, s);
    unindex(this.bySession, s.sessionId, s);
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
      else send(s.res, PING);
    }
  }

  private end(s: LiveStream): void {
    this.forget(s);
    s.res.end();
  }

  /** Shutdown: end every stream so the HTTP server can close instead of waiting on them. */
  closeAll(): void {
    clearInterval(this.heartbeat);
    this.unsubscribe();
    for (const s of this.streams) this.end(s);
  }
}

function indexed(index: Map<number, Set<LiveStream>>, id: number): Set<LiveStream> {
  let set = index.get(id);
  if (!set) {
    set = new Set();
    index.set(id, set);
  }
  return set;
}

function unindex(index: Map<number, Set<LiveStream>>, id: number, s: LiveStream): void {
  const set = index.get(id);
  if (set?.delete(s) && set.size === 0) index.delete(id);
}

/** A message as it goes on the wire, encoded once for all the streams it is written to. */
interface Frame {
  text: Buffer;
  /** The same as one HTTP/1.1 chunk (RFC 9112 §7.1): size in hex, CRLF, data, CRLF. */
  chunk: Buffer;
}

function framed(message: string): Frame {
  const text = Buffer.from(message);
  return { text, chunk: Buffer.concat([Buffer.from(`${text.length.toString(16)}\r\n`), text, CRLF]) };
}

const CRLF = Buffer.from('\r\n');
const PING = framed(': ping\n\n');

/**
 * Writes a message to one stream. `res.write` on a chunked response corks the socket, queues the size
 * line, the data and a CRLF, and sends them as one writev on the next tick: with one event for thousands
 * of streams nothing leaves before every stream's copy is queued, and each costs more work and memory
 * than one plain write. So the chunk, made once per event, goes straight to the socket; that is what
 * brings one event to 5,000 streams near the 100 ms of scripts/bench/fanout.mjs. The bytes are the ones
 * Node would send, and they stay in order: once the headers are out (`open` writes a first message)
 * every write of the response goes through this socket. A response Node does not chunk (an HTTP/1.0
 * client) takes the plain path.
 */
function send(res: ServerResponse, frame: Frame): void {
  const socket = res.socket;
  if (res.chunkedEncoding && res.headersSent && socket?.writable) socket.write(frame.chunk);
  else res.write(frame.text);
}
