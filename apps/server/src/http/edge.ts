import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** A call answered before Fastify's router: true when it took the request (and answers it). */
export type AheadPath = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Node's HTTP server settings that Fastify would otherwise apply itself (its `http` options and
 *  timeouts are not used once the app makes its own server). */
export interface EdgeSettings {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxHeaderSize: number;
  connectionsCheckingIntervalMs: number;
}

/**
 * The node's HTTP server, made for Fastify through its `serverFactory` (docs/DESIGN.md §7). Each request
 * is offered to the paths ahead, in the order they were added, then goes to Fastify's handler. The paths
 * ahead are the few public calls every viewer makes many times a minute (a browser's report, an
 * integrity question, a flood past its token budget): through Fastify's request and reply objects, hooks
 * and serializers they cost more CPU than their own work: a no-op handler on a Fastify route already
 * costs more than the ingest's target leaves (README "Performance"). Each applies its route's checks through the
 * same functions as the route, and a test sends the same requests both ways and compares the answers.
 * Once the node is closing (`stop`), every request goes to Fastify, whose routes answer it as they
 * always do (a 503 for the ingest).
 */
export class Edge {
  private readonly ahead: AheadPath[] = [];
  private closing = false;

  constructor(private readonly settings: EdgeSettings) {}

  /** Fastify's `serverFactory`: the HTTP server with the paths ahead in front of `handler`. */
  readonly serverFactory = (handler: (req: IncomingMessage, res: ServerResponse) => void): Server => {
    const s = this.settings;
    const server = createServer(
      {
        headersTimeout: s.headersTimeoutMs,
        requestTimeout: s.requestTimeoutMs,
        maxHeaderSize: s.maxHeaderSize,
        connectionsCheckingInterval: s.connectionsCheckingIntervalMs,
      },
      (req, res) => {
        if (!this.closing) for (const path of this.ahead) if (path(req, res)) return;
        handler(req, res);
      },
    );
    server.keepAliveTimeout = s.keepAliveTimeoutMs;
    return server;
  };

  /** Adds a path ahead of Fastify's router. */
  add(path: AheadPath): void {
    this.ahead.push(path);
  }

  /** From now on every request goes to Fastify (the first step of the node's shutdown). */
  stop(): void {
    this.closing = true;
  }
}
