import { randomUUID } from 'node:crypto';
import { type TLiveEvent, ZLiveEvent } from '@tlprt/contract';
import { sql } from 'kysely';
import pg from 'pg';
import { z } from 'zod';
import type { Db } from '../db/index.js';

/** Who receives an event: every open stream of these users and of these sessions. */
export interface EventTarget {
  userIds?: number[];
  sessionIds?: number[];
}

export interface BusMessage {
  target: EventTarget;
  event: TLiveEvent;
  /** Forced logout: the matching streams get the event and are then closed. */
  close?: boolean;
}

const ZBusMessage = z.object({
  target: z.object({
    userIds: z.array(z.number().int()).optional(),
    sessionIds: z.array(z.number().int()).optional(),
  }),
  event: ZLiveEvent,
  close: z.boolean().optional(),
  /** One of the notifications a message too long for one was split into (see PgBus.publish). */
  part: z.object({ id: z.string(), index: z.number().int(), count: z.number().int() }).optional(),
});
type WireMessage = z.output<typeof ZBusMessage>;

export type BusListener = (message: BusMessage) => void;

/** Fan-out of live events (docs/DESIGN.md §5). Every server node subscribes and delivers to its own streams. */
export interface EventBus {
  publish(target: EventTarget, event: TLiveEvent, options?: { close?: boolean }): Promise<void>;
  subscribe(listener: BusListener): () => void;
  close(): Promise<void>;
}

abstract class ListenerSet {
  private listeners = new Set<BusListener>();

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected deliver(message: BusMessage): void {
    for (const listener of this.listeners) listener(message);
  }
}

function busMessage(target: EventTarget, event: TLiveEvent, close?: boolean): BusMessage {
  // Validate at the source: a malformed event is a programming error and must fail where it is made.
  return { target, event: ZLiveEvent.parse(event), ...(close ? { close } : {}) };
}

/** One process (SQLite deployments): publishing is delivering. */
export class InProcessBus extends ListenerSet implements EventBus {
  async publish(target: EventTarget, event: TLiveEvent, options?: { close?: boolean }): Promise<void> {
    this.deliver(busMessage(target, event, options?.close));
  }

  async close(): Promise<void> {}
}

export const PG_CHANNEL = 'tlprt_events';

/** A NOTIFY payload must be shorter than 8000 bytes (PostgreSQL's default build). */
const NOTIFY_MAX_BYTES = 7999;

/**
 * The notifications of one message: itself when it fits, else its recipients split over parts that each
 * fit, every part with the event (a team of a thousand members or more does not fit in one).
 */
export function notifyPayloads(message: BusMessage, maxBytes = NOTIFY_MAX_BYTES): string[] {
  const whole = JSON.stringify(message);
  if (Buffer.byteLength(whole) <= maxBytes) return [whole];
  const id = randomUUID();
  const frame = { ...message, target: { userIds: [], sessionIds: [] }, part: { id, index: 0, count: 0 } };
  // The part's own numbers may take a few more digits than the zeros measured here.
  const room = maxBytes - Buffer.byteLength(JSON.stringify(frame)) - 12;
  if (room < 32) throw new Error('A live event is too long for a PostgreSQL notification');
  const targets: EventTarget[] = [];
  let target: EventTarget = {};
  let used = 0;
  for (const key of ['userIds', 'sessionIds'] as const) {
    for (const recipient of message.target[key] ?? []) {
      const cost = String(recipient).length + 1;
      if (used + cost > room) {
        targets.push(target);
        target = {};
        used = 0;
      }
      const list = target[key] ?? [];
      list.push(recipient);
      target[key] = list;
      used += cost;
    }
  }
  targets.push(target);
  return targets.map((t, index) =>
    JSON.stringify({ ...message, target: t, part: { id, index, count: targets.length } }),
  );
}

type Log = (msg: string, err?: unknown) => void;

/**
 * Several nodes on one PostgreSQL: publish is a NOTIFY, and every node (this one included) delivers
 * what its dedicated LISTEN connection receives, so an event reaches streams open on any node.
 */
export class PgBus extends ListenerSet implements EventBus {
  private client: pg.Client | undefined;
  /** The parts received so far of split messages, by message. */
  private readonly parts = new Map<string, BusMessage>();
  private closed = false;
  private retryMs = 1000;
  private retryTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly db: Db,
    private readonly clientConfig: pg.ClientConfig,
    private readonly log: Log,
  ) {
    super();
  }

  static async start(db: Db, clientConfig: pg.ClientConfig, log: Log): Promise<PgBus> {
    const bus = new PgBus(db, clientConfig, log);
    await bus.connect();
    return bus;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.clientConfig);
    client.on('notification', (n) => {
      if (n.channel !== PG_CHANNEL || !n.payload) return;
      const parsed = ZBusMessage.safeParse(safeJson(n.payload));
      if (parsed.success) this.receive(parsed.data);
      else this.log('Ignored a malformed live event notification');
    });
    client.on('error', (err) => this.onLost(client, err));
    client.on('end', () => this.onLost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_CHANNEL}`);
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw err;
    }
    this.client = client;
    this.retryMs = 1000;
  }

  /** A split message is delivered once, whole, when its last part arrives: a stream named in two parts
   *  (by user and by session) still gets the event once. The parts of one message arrive together and
   *  in order, as the notifications of one transaction do. */
  private receive({ part, ...message }: WireMessage): void {
    if (!part) {
      this.deliver(message);
      return;
    }
    const whole = this.parts.get(part.id) ?? { ...message, target: { userIds: [], sessionIds: [] } };
    whole.target.userIds?.push(...(message.target.userIds ?? []));
    whole.target.sessionIds?.push(...(message.target.sessionIds ?? []));
    if (part.index < part.count - 1) {
      this.parts.set(part.id, whole);
      return;
    }
    this.parts.delete(part.id);
    this.deliver(whole);
  }

  /** Events sent while the listener is down are lost (NOTIFY is not queued), so reconnect promptly. */
  private onLost(client: pg.Client, err?: unknown): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    // Messages whose last parts were missed are lost with the connection.
    this.parts.clear();
    this.log('Live event listener lost its PostgreSQL connection; reconnecting', err);
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    this.scheduleConnect();
  }

  private scheduleConnect(): void {
    this.retryTimer = setTimeout(() => {
      this.connect().catch((e) => {
        this.log('Live event listener could not reconnect', e);
        this.retryMs = Math.min(this.retryMs * 2, 30_000);
        if (!this.closed) this.scheduleConnect();
      });
    }, this.retryMs);
    this.retryTimer.unref();
  }

  async publish(target: EventTarget, event: TLiveEvent, options?: { close?: boolean }): Promise<void> {
    const payloads = notifyPayloads(busMessage(target, event, options?.close));
    if (payloads.length === 1) {
      await sql`select pg_notify(${PG_CHANNEL}, ${payloads[0]})`.execute(this.db);
      return;
    }
    // One transaction: its notifications are delivered at commit, all together and in order.
    await this.db.transaction().execute(async (trx) => {
      for (const payload of payloads) await sql`select pg_notify(${PG_CHANNEL}, ${payload})`.execute(trx);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
