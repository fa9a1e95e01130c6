import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { PLAYER_PATHS } from '@tlprt/contract';
import TrackerServer from 'bittorrent-tracker/server';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

/** An announce with its offers is a few kB; nothing a tracker client sends needs more. */
const MAX_MESSAGE_BYTES = 256 * 1024;

function refuse(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

/**
 * The WebTorrent tracker of DESIGN §11 on the server's own port: bittorrent-tracker's server without
 * its HTTP, UDP and statistics listeners, fed the WebSocket upgrades of `/tracker` whose Origin is the
 * dashboard's or a usable customer domain's (a page elsewhere cannot join any swarm). Swarms are per key
 * and stream: the plugin names them (the info hash hides the name, so the tracker cannot check it).
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
  const open = new Set<{ terminate(): void }>();
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== PLAYER_PATHS.tracker) return refuse(socket, '404 Not Found');
    const origin = req.headers.origin;
    // Browsers always send an Origin on WebSocket connections: none means a script, refused.
    if (!origin) return refuse(socket, '403 Forbidden');
    ctx.origins.forAnyKey(origin).then(
      (ok) => {
        if (!ok || socket.destroyed) return refuse(socket, '403 Forbidden');
        tracker.ws.handleUpgrade(req, socket, head, (ws) => {
          open.add(ws);
          socket.once('close', () => open.delete(ws));
          tracker.ws.emit('connection', ws, req);
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
