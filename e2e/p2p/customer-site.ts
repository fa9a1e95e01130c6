import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Browser, BrowserType, LaunchOptions, Page } from '@playwright/test';
import { PLAYER_PATHS, PLAYER_TABLE, STREAM_PLACEHOLDER } from '@tlprt/contract';
import { livePlaylist, vodLoop } from '../../apps/server/src/features/player/demo-live';
import { playerSnippet } from '../../apps/web/src/platform/integration/snippets';
import { keepHandle, watchStalls } from './viewers';

/**
 * A customer's own web site for e2e/p2p/origin-savings.spec.ts: its pages (the Add domain snippets as
 * pasted), the players' files, and three streams made of the demo's segments, on port 80 of the test's
 * network namespace. It counts, as the origin's access log would, every body byte it serves and to whom:
 * the integrity service (its User-Agent) or a viewer.
 */
const DEMO = join(import.meta.dirname, '../../apps/server/assets/demo-stream');
const INTEGRITY_AGENT = 'tlprt-integrity/';
const NODE_MODULES = join(import.meta.dirname, '../../node_modules');
/** The players' files the site serves itself, where the snippets name a public CDN. */
const VENDOR: Record<string, string> = {
  'hls.min.js': join(NODE_MODULES, 'hls.js/dist/hls.min.js'),
  'shaka-player.compiled.js': join(NODE_MODULES, 'shaka-player/dist/shaka-player.compiled.js'),
};

/** One answered request, as an access log line has it. */
export interface Hit {
  method: string;
  path: string;
  status: number;
  /** Body bytes sent (a HEAD: 0). */
  bytes: number;
  integrity: boolean;
  at: number;
}

interface Stream {
  /** Files of the stream by name (playlists and segments). */
  files: Map<string, Buffer>;
  /** States each segment's SHA-256 in `Repr-Digest` (RFC 9530) on HEAD and GET. */
  digests: boolean;
  /** The live playlist, made at each request; else the folder's own. */
  playlist?: () => string;
}

const isSegment = (name: string) => /\.(ts|m4s)$/.test(name);
const typeOf = (name: string) =>
  name.endsWith('.m3u8')
    ? 'application/vnd.apple.mpegurl'
    : name.endsWith('.mpd')
      ? 'application/dash+xml'
      : name.endsWith('.ts')
        ? 'video/mp2t'
        : name.endsWith('.m4s')
          ? 'video/iso.segment'
          : name.endsWith('.js')
            ? 'text/javascript'
            : 'application/octet-stream';

function filesOf(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isFile()) files.set(entry.name, readFileSync(join(dir, entry.name)));
  return files;
}

/** RFC 9530's Repr-Digest value of a whole file. */
const reprDigest = (body: Buffer) => `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
export const sha256Hex = (body: Buffer) => createHash('sha256').update(body).digest('hex');

/**
 * The site on 127.0.0.1:80 under any of its names (each test's verified domain): the same files for
 * each, the hits of each stream apart by their path's first folder.
 */
export class CustomerSite {
  readonly hits: Hit[] = [];
  private readonly streams = new Map<string, Stream>();
  private readonly pages = new Map<string, string>();
  private server: Server | undefined;

  constructor(private readonly port = 80) {
    const hls = filesOf(DEMO);
    // /live/: the demo's segments looped by the clock (six listed, as the demo's live stream), each
    // with its digest; /vod/: the demo's VOD playlist, no digests; /dash/: its DASH copy, none either.
    const loop = vodLoop(hls.get('index.m3u8')?.toString('utf8') ?? '', 6, Date.now());
    this.streams.set('live', { files: hls, digests: true, playlist: () => livePlaylist(loop, Date.now()) });
    this.streams.set('vod', { files: hls, digests: false });
    this.streams.set('dash', { files: filesOf(join(DEMO, 'dash')), digests: false });
  }

  /** The segment files of a stream folder (`vod`, `dash`), by name. */
  segments(stream: 'vod' | 'dash' | 'live'): [string, Buffer][] {
    return [...(this.streams.get(stream)?.files ?? [])].filter(([name]) => isSegment(name));
  }

  /**
   * A page of the site made of `player`'s Add domain snippet as the dashboard shows it, the site's
   * `stream` in SRC, the provider's CDN file replaced by the site's own copy (nothing leaves the
   * namespace). Returns its address.
   */
  addPage(
    host: string,
    name: string,
    player: 'HLS.js' | 'Shaka',
    key: string,
    dashboard: string,
    stream: string,
  ) {
    const origin = this.originOf(host);
    let snippet = playerSnippet(player, key, `${dashboard}${PLAYER_PATHS.bundle}`).replace(
      STREAM_PLACEHOLDER,
      `${origin}${stream}`,
    );
    for (const url of PLAYER_TABLE[player].snippet.scripts)
      snippet = snippet.replace(url, `/vendor/${url.slice(url.lastIndexOf('/') + 1)}`);
    this.pages.set(
      `/${name}`,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title></head><body>\n${snippet}\n</body></html>`,
    );
    return `${origin}/${name}`;
  }

  originOf(host: string) {
    return `http://${host}${this.port === 80 ? '' : `:${this.port}`}`;
  }

  async start() {
    this.server = createServer((req, res) => this.answer(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(this.port, '127.0.0.1', resolve);
    });
  }

  async close() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Requests of the integrity service under `prefix` (e.g. `/dash/`). */
  integrityHits(prefix: string) {
    return this.hits.filter((h) => h.integrity && h.path.startsWith(prefix));
  }

  /** Segment body bytes the viewers fetched under `prefix` since `since` (ms). */
  viewerSegmentBytes(prefix: string, since = 0) {
    return this.hits
      .filter(
        (h) =>
          !h.integrity && h.at >= since && h.path.startsWith(prefix) && isSegment(h.path.split('?')[0] ?? ''),
      )
      .reduce((n, h) => n + h.bytes, 0);
  }

  private answer(req: IncomingMessage, res: ServerResponse) {
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    const integrity = (req.headers['user-agent'] ?? '').startsWith(INTEGRITY_AGENT);
    let bytes = 0;
    res.on('finish', () =>
      this.hits.push({ method, path, status: res.statusCode, bytes, integrity, at: Date.now() }),
    );
    const send = (status: number, headers: Record<string, string>, body: Buffer | string = '') => {
      const data = typeof body === 'string' ? Buffer.from(body) : body;
      res.writeHead(status, { 'Content-Length': String(data.length), ...headers });
      if (method === 'HEAD') return res.end();
      bytes = data.length;
      res.end(data);
    };
    if (method !== 'GET' && method !== 'HEAD') return send(405, { Allow: 'GET, HEAD' });
    const [pathname = '/'] = path.split('?');
    const page = this.pages.get(pathname);
    if (page !== undefined) return send(200, { 'Content-Type': 'text/html; charset=utf-8' }, page);
    const [, folder = '', name = ''] = /^\/([a-z]+)\/([^/]+)$/.exec(pathname) ?? [];
    const vendor = folder === 'vendor' ? VENDOR[name] : undefined;
    if (vendor)
      return send(
        200,
        { 'Content-Type': typeOf(name), 'Cache-Control': 'max-age=3600' },
        readFileSync(vendor),
      );
    const stream = this.streams.get(folder);
    if (!stream) return send(404, { 'Content-Type': 'text/plain' }, 'not found');
    if (stream.playlist && name === 'index.m3u8')
      return send(200, { 'Content-Type': typeOf(name), 'Cache-Control': 'no-cache' }, stream.playlist());
    const file = stream.files.get(name);
    if (!file) return send(404, { 'Content-Type': 'text/plain' }, 'not found');
    const headers: Record<string, string> = {
      'Content-Type': typeOf(name),
      'Accept-Ranges': 'bytes',
      'Cache-Control': isSegment(name) ? 'public, max-age=3600' : 'no-cache',
      ...(stream.digests && isSegment(name) ? { 'Repr-Digest': reprDigest(file) } : {}),
    };
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (!range) return send(200, headers, file);
    const start = Number(range[1]);
    const end = Math.min(range[2] ? Number(range[2]) : file.length - 1, file.length - 1);
    if (start > end) return send(416, { 'Content-Range': `bytes */${file.length}` });
    return send(
      206,
      { ...headers, 'Content-Range': `bytes ${start}-${end}/${file.length}` },
      file.subarray(start, end + 1),
    );
  }
}

/**
 * Viewers of the site's pages, each in a browser of its own (viewers.ts explains why), which resolves
 * the site's name to 127.0.0.1 and no other name at all: the dashboard server is 127.0.0.1, and nothing
 * else is reachable from the namespace anyway.
 */
export class SiteViewers {
  private readonly browsers: Browser[] = [];

  constructor(
    private readonly browserType: BrowserType,
    private readonly launchOptions: LaunchOptions,
    private readonly host: string,
  ) {}

  async open(address: string): Promise<Page> {
    const args = (this.launchOptions.args ?? []).map((a) =>
      // The page is on a name Chromium maps to loopback, its plugin's server on loopback too; Local
      // Network Access would still ask the viewer first for a page it sees as coming from a name.
      a.startsWith('--disable-features=') ? `${a},LocalNetworkAccessChecks` : a,
    );
    args.push(`--host-resolver-rules=MAP ${this.host} 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1`);
    const browser = await this.browserType.launch({ ...this.launchOptions, args });
    this.browsers.push(browser);
    const context = await browser.newContext({ viewport: { width: 640, height: 480 } });
    await context.addInitScript(watchStalls);
    await context.addInitScript(keepHandle);
    const page = await context.newPage();
    await page.goto(address);
    return page;
  }

  async close() {
    for (const b of this.browsers) await b.close();
  }
}
