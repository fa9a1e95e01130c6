import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Puts `first` ahead of the server's request listener (Fastify's): a request it takes (true) is its own.
 * For the few public calls every viewer makes many times a minute (the browsers' reports, the integrity
 * questions), whose cost through Fastify's request and reply objects and hooks exceeds their own work;
 * each path applies the route's own checks and a test compares its answers with the route's.
 */
export function serveAhead(server: Server, first: (req: IncomingMessage, res: ServerResponse) => boolean) {
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  const [rest] = listeners;
  if (listeners.length !== 1 || !rest) throw new Error('expected exactly one request listener (Fastify)');
  server.removeListener('request', rest);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!first(req, res)) rest(req, res);
  });
}
