import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { MSG_PLAYER, PLAYER_PATHS } from '@tlprt/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEMO_ASSETS } from '../../config.js';
import type { AppContext } from '../../context.js';
import { HttpError } from '../../http/errors.js';
import { livePlaylist, vodLoop } from './demo-live.js';

/** A file served as it is, compressed once per encoding when first asked for, revalidated by its ETag
 *  (the URL stays the same across releases, so it may be cached for an hour, not for good). Compressing
 *  at start would make every start pay a second of brotli, enough to miss Fastify's plugin timeout on a
 *  loaded machine. */
interface Asset {
  type: string;
  etag: string;
  raw: Buffer;
  br(): Buffer;
  gzip(): Buffer;
}

const once = (make: () => Buffer) => {
  let made: Buffer | undefined;
  return () => {
    made ??= make();
    return made;
  };
};

function asset(body: Buffer, type: string): Asset {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return {
    type,
    etag,
    raw: body,
    br: once(() => brotliCompressSync(body)),
    gzip: once(() => gzipSync(body)),
  };
}

function send(req: FastifyRequest, reply: FastifyReply, a: Asset, maxAgeS: number): FastifyReply {
  reply
    .type(a.type)
    .header('ETag', a.etag)
    .header('Cache-Control', `public, max-age=${maxAgeS}`)
    .header('Vary', 'Accept-Encoding');
  if (req.headers['if-none-match'] === a.etag) return reply.code(304).send();
  const accepts = String(req.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepts)) return reply.header('Content-Encoding', 'br').send(a.br());
  if (/\bgzip\b/.test(accepts)) return reply.header('Content-Encoding', 'gzip').send(a.gzip());
  return reply.send(a.raw);
}

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
function optionalAsset(name: string, module: string, type = JS): Record<string, Asset> {
  try {
    return { [name]: asset(readFileSync(require.resolve(module)), type) };
  } catch {
    return {};
  }
}

/**
 * GET /player/v1/tlprt-p2p.min.js (the plugin, for every customer page: loadable cross-origin) and,
 * outside production, the demo page with its stream (DESIGN §11).
 */
export function playerRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const bundlePath = join(ctx.config.playerDist, 'tlprt-p2p.min.js');
    const bundle = existsSync(bundlePath) ? asset(readFileSync(bundlePath), JS) : undefined;
    if (!bundle) ctx.log.warn({ bundlePath }, 'the player plugin is not built (npm run build)');
    app.get(PLAYER_PATHS.bundle, { schema: { hide: true } }, async (req, reply) => {
      if (!bundle) throw new HttpError(503, MSG_PLAYER.notBuilt);
      // Customers' pages load it with a <script> tag from their own origin.
      reply.header('Cross-Origin-Resource-Policy', 'cross-origin').header('Access-Control-Allow-Origin', '*');
      return send(req, reply, bundle, 3600);
    });

    if (!ctx.config.demoPages) return;
    const demo = (file: string, type: string) => asset(readFileSync(join(DEMO_ASSETS, 'demo', file)), type);
    const page = demo('player.html', 'text/html; charset=utf-8');
    const files: Record<string, Asset> = {
      'player.js': demo('player.js', JS),
      'player.css': demo('player.css', 'text/css; charset=utf-8'),
      // The demo's players come from the project's own dependencies, not from a public CDN.
      'hls.min.js': asset(readFileSync(require.resolve('hls.js/dist/hls.min.js')), JS),
      ...optionalAsset('shaka-player.compiled.js', 'shaka-player/dist/shaka-player.compiled.js'),
      ...optionalAsset('flowplayer.min.js', '@flowplayer/player/default.js'),
      ...optionalAsset('flowplayer-hls.min.js', '@flowplayer/player/plugins/hls.js'),
      ...optionalAsset('flowplayer.css', '@flowplayer/player/flowplayer.css', 'text/css; charset=utf-8'),
    };
    app.get(PLAYER_PATHS.demo, { schema: { hide: true } }, async (req, reply) => {
      reply.header('Content-Security-Policy', DEMO_CSP);
      return send(req, reply, page, 0);
    });
    app.get('/demo/:file', { schema: { hide: true } }, async (req, reply) => {
      const a = files[(req.params as { file: string }).file];
      if (!a) throw new HttpError(404, MSG_PLAYER.noSuchDemoFile);
      return send(req, reply, a, 300);
    });
    // Six segments listed, as the live streams the P2P share is measured on (issue 21).
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
