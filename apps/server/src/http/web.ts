import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { MSG, PRODUCT_NAME } from '@tlprt/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Prefixes that belong to the server, never to the single-page app: unknown paths there are JSON 404s. */
const SERVER_PREFIXES = [
  '/auth',
  '/api',
  '/stats',
  '/mailbox',
  '/app-config.js',
  '/player',
  '/demo',
  '/tracker',
];

/** Runtime settings the web app reads as `window.__TLPRT__` (a script file, since the CSP forbids
 *  inline scripts): the same build then shows each deployment's own support contact. */
interface WebRuntimeConfig {
  supportEmail: string;
}

const isServerPath = (path: string) =>
  SERVER_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}.`));

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${PRODUCT_NAME}</title></head>
<body style="font-family:sans-serif;margin:2rem"><h1>The web app is not built</h1>
<p>The API is running. Build the web app with <code>npm run build</code> and reload this page.</p></body></html>`;

/**
 * Serves the built web app and its history-mode fallback: any GET for HTML outside the server's
 * prefixes answers index.html, so /settings or /createPassword/{hash} load the app on a fresh visit.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDist: string,
  runtime: WebRuntimeConfig,
): Promise<void> {
  const script = `window.__TLPRT__ = ${JSON.stringify(runtime).replace(/</g, '\\u003c')};\n`;
  app.get('/app-config.js', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(script),
  );
  const hasApp = existsSync(join(webDist, 'index.html'));
  if (hasApp) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: 'index.html',
      // The web build writes .br/.gz next to its text files (apps/web/precompress.ts).
      preCompressed: true,
      // Hashed bundle names can be cached for good; index.html must always be revalidated.
      setHeaders: (res, path) => {
        res.setHeader(
          'Cache-Control',
          path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
        );
        // The body depends on Accept-Encoding (preCompressed): caches on the way must keep them apart.
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
  }

  app.setNotFoundHandler(async (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0] ?? '/';
    const wantsHtml =
      (req.method === 'GET' || req.method === 'HEAD') && (req.headers.accept ?? '').includes('text/html');
    if (!isServerPath(path) && wantsHtml) {
      if (hasApp)
        return reply.header('Cache-Control', 'no-cache').sendFile('index.html', { cacheControl: false });
      return reply.type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
    }
    return reply.code(404).send({ message: MSG.notFound });
  });
}
