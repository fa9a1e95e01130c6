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
    /** Announce interval of HTTP/UDP clients (ms); WebSocket clients are told a fifth of it. */
    interval?: number;
    ws?: { noServer: true; maxPayload?: number };
    filter?: (infoHash: string, params: unknown, cb: (err: Error | null) => void) => void;
  }
  /** The interface of lib/server/swarm.js that the server calls (announce, scrape, peers.get). */
  interface SwarmLike {
    announce(params: unknown, cb?: (err: Error | null, response?: unknown) => void): void;
    scrape(params: unknown, cb: (err: Error | null, response: unknown) => void): void;
    peers: { get(peerId: string): unknown };
  }
  export default class Server extends EventEmitter {
    constructor(opts?: ServerOptions);
    ws: TrackerWebSocketServer;
    /** hex info hash → swarm, as createSwarm made them. */
    torrents: Record<string, SwarmLike>;
    /** Replaceable (the library's documented way to bring one's own swarms); infoHash is hex. */
    createSwarm(infoHash: string, cb: (err: Error | null, swarm: SwarmLike) => void): void;
    getSwarm(infoHash: string, cb: (err: Error | null, swarm: SwarmLike | undefined) => void): void;
    close(cb?: (err: Error | null) => void): void;
  }
}
