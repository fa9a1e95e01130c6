import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One canned answer, or a handler for anything the canned form cannot say. */
export type Route =
  | { status?: number; headers?: Record<string, string>; body?: string | Buffer; delayMs?: number }
  | ((req: IncomingMessage, res: ServerResponse) => void);

export interface SiteRequest {
  method: string | undefined;
  path: string;
  host: string | undefined;
  userAgent: string | undefined;
}

export interface TestSite {
  port: number;
  /** Sets the answer for a path (query string included, as sent). Unknown paths answer 404. */
  route(path: string, route: Route): void;
  clear(): void;
  /** Every request received, in order. */
  requests: SiteRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that plays the customer's web site in tests (`port` 0: a free one). */
export async function startTestSite(port = 0): Promise<TestSite> {
  const routes = new Map<string, Route>();
  const requests: SiteRequest[] = [];
  const pending = new Set<NodeJS.Timeout>();

  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ method: req.method, path, host: req.headers.host, userAgent: req.headers['user-agent'] });
    const route = routes.get(path);
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (typeof route === 'function') {
      route(req, res);
      return;
    }
    const send = (): void => {
      res.writeHead(route.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...route.headers });
      res.end(route.body ?? '');
    };
    if (!route.delayMs) return send();
    const timer = setTimeout(() => {
      pending.delete(timer);
      if (!res.destroyed) send();
    }, route.delayMs);
    pending.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    port: (server.address() as AddressInfo).port,
    route: (path, route) => routes.set(path, route),
    clear: () => {
      routes.clear();
      requests.length = 0;
    },
    requests,
    close: async () => {
      for (const timer of pending) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 where nothing listens: connections are refused at once. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
