import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { KEY_HASH_PATTERN, PLAYER_PATHS } from '@tlprt/contract';
import TrackerServer from 'bittorrent-tracker/server';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { KeyedSocket, type RawSocket } from './tracker-keyed-socket.js';

/** An announce with its offers is a few kB; nothing a tracker client sends needs more. */
const MAX_MESSAGE_BYTES = 256 * 1024;

function refuse(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

/** The one `key` of the upgrade's query, or undefined when it is missing, repeated or malformed. */
function keyOf(url: string): string | undefined {
  const q = url.indexOf('?');
  const keys = new URLSearchParams(q === -1 ? '' : url.slice(q + 1)).getAll('key');
  return keys.length === 1 && KEY_HASH_PATTERN.test(keys[0] as string) ? keys[0] : undefined;
}

/**
 * The WebTorrent tracker of DESIGN §11 on the server's own port: bittorrent-tracker's server without
 * its HTTP, UDP and statistics listeners, fed the WebSocket upgrades of `/tracker?key=<hash>` whose
 * Origin may use that key (the Origin rule of the ingest; a page elsewhere cannot join any swarm). The
 * key hash is public, so the Origin alone does not fence a customer in: every connection's info hashes
 * are namespaced by its key (tracker-keyed-socket.ts), so two keys never share a swarm, an offer or a
 * scrape line. Within a key, swarms are per stream: the plugin names them (the info hash hides the
 * name, so the tracker cannot check it).
 * Announces live in this node's memory: several nodes need sticky routing of /tracker by swarm, or one
 * tracker node (README).
 */
export function startTracker(app: FastifyInstance, ctx: AppContext): TrackerServer {
  const tracker = new TrackerServer({
    http: false,
    udp: false,
    stats: false,
    trustProxy: ctx.config.trustProxy,
    ws: { noServer: true, maxPayload: MAX_MESSAGE_BYTES },
  });
  // The library reports client mistakes (bad announces) as errors: they are the client's, not ours.
  tracker.on('error', (err: unknown) => ctx.log.debug({ err }, 'tracker error'));
  tracker.on('warning', (err: unknown) => ctx.log.debug({ err }, 'tracker warning'));

  // The library's WebSocket server keeps no client list (clientTracking: false): closing needs one.
  const open = new Set<RawSocket>();
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = req.url ?? '';
    if (url.split('?')[0] !== PLAYER_PATHS.tracker) return refuse(socket, '404 Not Found');
    const key = keyOf(url);
    if (key === undefined) return refuse(socket, '400 Bad Request');
    const origin = req.headers.origin;
    // Browsers always send an Origin on WebSocket connections: none means a script, refused.
    if (!origin) return refuse(socket, '403 Forbidden');
    ctx.origins.forKey(key, origin).then(
      (ok) => {
        if (!ok || socket.destroyed) return refuse(socket, '403 Forbidden');
        tracker.ws.handleUpgrade(req, socket, head, (upgraded) => {
          const ws = upgraded as unknown as RawSocket;
          open.add(ws);
          socket.once('close', () => open.delete(ws));
          const keyed = new KeyedSocket(ws, key, (reason) =>
            ctx.log.debug({ reason }, 'tracker: message refused'),
          );
          tracker.ws.emit('connection', keyed, req);
        });
      },
      (err: unknown) => {
        ctx.log.error({ err }, 'tracker: origin check failed');
        refuse(socket, '503 Service Unavailable');
      },
    );
  };
  app.server.on('upgrade', onUpgrade);
  app.addHook('preClose', async () => {
    app.server.off('upgrade', onUpgrade);
    for (const ws of open) ws.terminate();
    await new Promise<void>((resolve) => tracker.close(() => resolve()));
  });
  return tracker;
}
