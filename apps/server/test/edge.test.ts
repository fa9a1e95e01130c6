import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Edge } from '../src/http/edge.js';
import { startServer, type TestServer } from './helpers/server.js';

// The node's HTTP server (http/edge.ts): paths ahead of Fastify's router, Node's limits applied, and
// every request left to the router once the node closes.

const SETTINGS = {
  requestTimeoutMs: 7000,
  headersTimeoutMs: 6000,
  keepAliveTimeoutMs: 72_000,
  maxHeaderSize: 128 * 1024,
  connectionsCheckingIntervalMs: 1500,
};

const answer = (res: ServerResponse, text: string): true => {
  res.writeHead(200).end(text);
  return true;
};

describe('the edge', () => {
  it('offers each request to the paths ahead in order, then to the router, and only to the router once stopped', async () => {
    const edge = new Edge(SETTINGS);
    edge.add((req, res) => req.url === '/a' && answer(res, 'first'));
    edge.add((req, res) => req.url?.startsWith('/a') === true && answer(res, 'second'));
    const server = edge.serverFactory((_req: IncomingMessage, res: ServerResponse) => answer(res, 'router'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const text = async (path: string) => (await fetch(base + path)).text();
    try {
      expect([await text('/a'), await text('/ab'), await text('/b')]).toEqual(['first', 'second', 'router']);
      edge.stop();
      expect([await text('/a'), await text('/ab')]).toEqual(['router', 'router']);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("sets Node's limits on the server it makes", () => {
    const server = new Edge(SETTINGS).serverFactory(() => {});
    expect({
      requestTimeout: server.requestTimeout,
      headersTimeout: server.headersTimeout,
      keepAliveTimeout: server.keepAliveTimeout,
      maxHeaderSize: (server as unknown as { maxHeaderSize: number }).maxHeaderSize,
    }).toEqual({
      requestTimeout: 7000,
      headersTimeout: 6000,
      keepAliveTimeout: 72_000,
      maxHeaderSize: 131_072,
    });
  });
});

describe("the app's edge", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { REQUEST_TIMEOUT_MS: '9000' } });
  });
  afterAll(() => server?.close());

  it('is the server Fastify listens on, with the configured limits', async () => {
    expect(server.app.server.requestTimeout).toBe(9000);
    // Headers past Node's default 16 KiB (an export URL of many keys) are read, not answered 431.
    const long = await fetch(`${server.base}/api/v1/nowhere?k=${'a'.repeat(60_000)}`);
    expect(long.status).toBe(404);
    const tooLong = await fetch(`${server.base}/api/v1/nowhere?k=${'a'.repeat(140_000)}`);
    expect(tooLong.status).toBe(431);
  });
});

describe('the shutdown', () => {
  it('runs its steps in order, the HTTP server closing between the two lists, past a failing step', async () => {
    const { default: Fastify } = await import('fastify');
    const { shutdownInOrder } = await import('../src/shutdown.js');
    const app = Fastify({ logger: false });
    const ran: string[] = [];
    const step = (what: string) =>
      [what, () => void ran.push(`${what}${app.server.listening ? ' (listening)' : ''}`)] as const;
    shutdownInOrder(app, {
      stopTaking: [step('a'), ['fails', () => Promise.reject(new Error('no'))], step('b')],
      close: [step('c'), step('d')],
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    await app.close();
    expect(ran).toEqual(['a (listening)', 'b (listening)', 'c', 'd']);
  });
});
