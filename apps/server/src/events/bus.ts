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
});

export type BusListener = (message: BusMessage) => void;

/** Fan-out of live events (DESIGN §5). Every server node subscribes and delivers to its own streams. */
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

type Log = (msg: string, err?: unknown) => void;

/**
 * Several nodes on one PostgreSQL: publish is a NOTIFY, and every node (this one included) delivers
 * what its dedicated LISTEN connection receives, so an event reaches streams open on any node.
 */
export class PgBus extends ListenerSet implements EventBus {
  private client: pg.Client | undefined;
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
      if (parsed.success) this.deliver(parsed.data);
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

  /** Events sent while the listener is down are lost (NOTIFY is not queued), so reconnect promptly. */
  private onLost(client: pg.Client, err?: unknown): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
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
    const payload = JSON.stringify(busMessage(target, event, options?.close));
    await sql`select pg_notify(${PG_CHANNEL}, ${payload})`.execute(this.db);
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
