// The part of bittorrent-tracker's server (ESM, untyped) that the tracker feature uses.
declare module 'bittorrent-tracker/server' {
  import type { EventEmitter } from 'node:events';
  import type { IncomingMessage } from 'node:http';
  import type { Duplex } from 'node:stream';

  interface TrackerWebSocket {
    terminate(): void;
  }
  interface TrackerWebSocketServer extends EventEmitter {
    handleUpgrade(
      req: IncomingMessage,
      socket: Duplex,
      head: Buffer,
      done: (ws: TrackerWebSocket) => void,
    ): void;
  }
  interface ServerOptions {
    http?: boolean;
    udp?: boolean;
    stats?: boolean;
    trustProxy?: boolean;
    interval?: number;
    ws?: { noServer: true; maxPayload?: number };
    filter?: (infoHash: string, params: unknown, cb: (err: Error | null) => void) => void;
  }
  export default class Server extends EventEmitter {
    constructor(opts?: ServerOptions);
    ws: TrackerWebSocketServer;
    torrents: Record<string, { peers: { length: number } }>;
    close(cb?: (err: Error | null) => void): void;
  }
}
