import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configureApi } from '../platform/api/client';

export interface Recorded {
  method: string;
  url: string;
  authorization: string | undefined;
  body: unknown;
}
type Reply = { status: number; body?: unknown };
type Handler = (req: Recorded) => Reply | undefined;

/**
 * A real HTTP server on 127.0.0.1 for the API client to talk to (no fetch mocking): each test states the
 * replies it needs, and reads back what the client sent.
 */
export async function startTestServer(handler: Handler) {
  const requests: Recorded[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const rec: Recorded = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      authorization: req.headers.authorization,
      body: raw ? (JSON.parse(raw) as unknown) : undefined,
    };
    requests.push(rec);
    const reply = handler(rec) ?? { status: 404, body: { message: 'Not found' } };
    res.writeHead(reply.status, { 'Content-Type': 'application/json' });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  configureApi({ baseUrl });
  return {
    baseUrl,
    requests,
    close: () => {
      configureApi({ baseUrl: '' });
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A refetch the test did not wait for leaves a kept-alive connection that close() would wait
      // out (about 3 s a test, a fifth of the suite): the test is over, so it is cut.
      server.closeAllConnections();
      return closed;
    },
  };
}
