import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';

/**
 * A WebSocket client for the tracker tests. Node 20 has no global WebSocket, and `ws` (already installed
 * for bittorrent-tracker) ships no types: it is loaded through require with the little of it used here.
 */
export interface WsClient {
  readyState: number;
  send(data: string): void;
  close(): void;
  terminate(): void;
  once(event: 'open', cb: () => void): void;
  once(event: 'message', cb: (data: Buffer) => void): void;
  once(event: 'close', cb: () => void): void;
  once(event: 'error', cb: (err: Error) => void): void;
  once(event: 'unexpected-response', cb: (req: unknown, res: IncomingMessage) => void): void;
  on(event: 'message', cb: (data: Buffer) => void): void;
}
type WsClass = new (url: string, opts?: { headers?: Record<string, string> }) => WsClient;

const WebSocket = createRequire(import.meta.url)('ws') as WsClass;

type Connected = { status: 101; ws: WsClient };
export type Refused = { status: number; closed: boolean };

/** Opens `url`; answers the open socket, or the status of a refused upgrade and whether the server then
 *  closed the connection. */
export function connectWs(url: string, origin?: string): Promise<Connected | Refused> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { headers: { Origin: origin } } : {});
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`no answer to the upgrade of ${url}`));
    }, 5000);
    ws.once('open', () => {
      clearTimeout(timer);
      resolve({ status: 101, ws });
    });
    ws.once('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      const status = res.statusCode ?? 0;
      // The server must end the connection itself: waiting for it proves the socket was not left open.
      const closed = new Promise<boolean>((done) => {
        const t = setTimeout(() => done(false), 2000);
        res.socket.once('close', () => {
          clearTimeout(t);
          done(true);
        });
        res.resume();
      });
      void closed.then((c) => resolve({ status, closed: c }));
    });
    ws.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** The next message of `ws`, parsed as JSON. */
export function nextMessage(ws: WsClient, timeoutMs = 5000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('no message')), timeoutMs);
    ws.once('message', (data) => {
      clearTimeout(t);
      resolve(JSON.parse(data.toString()) as Record<string, unknown>);
    });
  });
}

type Message = Record<string, unknown>;

/** Every message `ws` receives from now on, kept: a test can wait for one and check what never came. */
export interface Inbox {
  readonly received: Message[];
  /** The first message (already received or still to come) that `match` accepts, once. */
  next(match?: (m: Message) => boolean, timeoutMs?: number): Promise<Message>;
}

export function inbox(ws: WsClient): Inbox {
  const received: Message[] = [];
  const taken = new Set<Message>();
  const waiting: Array<{ match: (m: Message) => boolean; take: (m: Message) => void }> = [];
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as Message;
    received.push(m);
    const i = waiting.findIndex((w) => w.match(m));
    if (i === -1) return;
    taken.add(m);
    waiting.splice(i, 1)[0]?.take(m);
  });
  return {
    received,
    next(match = () => true, timeoutMs = 5000) {
      const ready = received.find((m) => !taken.has(m) && match(m));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const w = {
          match,
          take: (m: Message) => {
            clearTimeout(t);
            resolve(m);
          },
        };
        const t = setTimeout(() => {
          waiting.splice(waiting.indexOf(w), 1);
          reject(new Error(`no matching message in ${timeoutMs} ms; received ${JSON.stringify(received)}`));
        }, timeoutMs);
        waiting.push(w);
      });
    },
  };
}
