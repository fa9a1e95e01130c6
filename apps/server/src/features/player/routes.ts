import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { MSG_PLAYER, PLAYER_PATHS } from '@tlprt/contract';
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { DEMO_ASSETS } from '../../config.js';
import type { AppContext } from '../../context.js';
import { HttpError } from '../../http/errors.js';
import { livePlaylist, vodLoop } from './demo-live.js';

/** The plugin's and the demo's files go through @fastify/static (ETag, Last-Modified, 304, max-age)
 *  and, compressed, through @fastify/compress, which the app registers for JSON only: these routes
 *  widen it to their text files. The bundle's URL stays the same across releases, so it is cached for
 *  an hour and revalidated, not cached for good. */
const FILE_ROUTE: RouteShorthandOptions = {
  schema: { hide: true },
  compress: { customTypes: /^(text\/|application\/javascript)/, encodings: ['br', 'gzip'] },
};

/** The demo page plays a stream through MSE (blob: media, hls.js's blob: worker) and talks to this server. */
const DEMO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self' blob:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

const JS = 'text/javascript; charset=utf-8';
const require = createRequire(import.meta.url);

/** A demo file from a package installed for development only (Shaka, Flowplayer: the plugin's dev
 *  dependencies, absent from a production install). */
function optionalFile(name: string, module: string): Record<string, string> {
  try {
    return { [name]: require.resolve(module) };
  } catch {
    return {};
  }
}

/**
 * GET /player/v1/tlprt-p2p.min.js (the plugin, for every customer page: loadable cross-origin) and,
 * outside production, the demo page with its stream (docs/DESIGN.md §11).
 */
export function playerRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    // reply.sendFile for this plugin's routes; each call names its file's folder.
    await app.register(fastifyStatic, { root: DEMO_ASSETS, serve: false });
    const bundleFile = 'tlprt-p2p.min.js';
    const built = existsSync(join(ctx.config.playerDist, bundleFile));
    if (!built)
      ctx.log.warn(
        { bundleFile, playerDist: ctx.config.playerDist },
        'the player plugin is not built (npm run build)',
      );
    app.get(PLAYER_PATHS.bundle, FILE_ROUTE, async (_req, reply) => {
      if (!built) throw new HttpError(503, MSG_PLAYER.notBuilt);
      // Customers' pages load it with a <script> tag from their own origin.
      reply.header('Cross-Origin-Resource-Policy', 'cross-origin').header('Access-Control-Allow-Origin', '*');
      // The mime table names scripts application/javascript; the type of the plugin's snippet is kept.
      reply.type(JS);
      return reply.sendFile(bundleFile, ctx.config.playerDist, { maxAge: 3600_000, contentType: false });
    });

    if (!ctx.config.demoPages) return;
    const demo = join(DEMO_ASSETS, 'demo');
    const files: Record<string, string> = {
      'player.js': join(demo, 'player.js'),
      'player.css': join(demo, 'player.css'),
      // The demo's players come from the project's own dependencies, not from a public CDN.
      'hls.min.js': require.resolve('hls.js/dist/hls.min.js'),
      ...optionalFile('shaka-player.compiled.js', 'shaka-player/dist/shaka-player.compiled.js'),
      ...optionalFile('flowplayer.min.js', '@flowplayer/player/default.js'),
      ...optionalFile('flowplayer-hls.min.js', '@flowplayer/player/plugins/hls.js'),
      ...optionalFile('flowplayer.css', '@flowplayer/player/flowplayer.css'),
    };
    app.get(PLAYER_PATHS.demo, FILE_ROUTE, async (_req, reply) => {
      reply.header('Content-Security-Policy', DEMO_CSP);
      return reply.sendFile('player.html', demo, { maxAge: 0 });
    });
    app.get('/demo/:file', FILE_ROUTE, async (req, reply) => {
      const path = files[(req.params as { file: string }).file];
      if (!path) throw new HttpError(404, MSG_PLAYER.noSuchDemoFile);
      return reply.sendFile(basename(path), dirname(path), { maxAge: 300_000 });
    });
    // Six segments listed, as the live streams the P2P share is measured on.
    const loop = vodLoop(readFileSync(join(DEMO_ASSETS, 'demo-stream', 'index.m3u8'), 'utf8'), 6, ctx.now());
    app.get(PLAYER_PATHS.demoLiveStream, { schema: { hide: true } }, async (_req, reply) =>
      reply
        .header('Content-Type', 'application/vnd.apple.mpegurl')
        .header('Cache-Control', 'no-cache')
        .header('Access-Control-Allow-Origin', '*')
        .send(livePlaylist(loop, ctx.now())),
    );
    await app.register(fastifyStatic, {
      root: join(DEMO_ASSETS, 'demo-stream'),
      prefix: '/demo/stream/',
      decorateReply: false,
      wildcard: false,
      setHeaders: (res, path) => {
        res.setHeader('Cache-Control', path.endsWith('.m3u8') ? 'no-cache' : 'public, max-age=3600');
        res.setHeader('Access-Control-Allow-Origin', '*');
      },
    });
  };
}
