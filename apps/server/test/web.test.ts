import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import {
  DICTIONARY_NAMES,
  MSG,
  PATHS,
  ZDictionariesResponse,
  ZServerTimeResponse,
  ZTimeZoneListResponse,
} from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, uniqueEmail } from './factories.js';
import { Api } from './helpers/http.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';

const WEB_DIST = fileURLToPath(new URL('./fixtures/web', import.meta.url));
const html = { accept: 'text/html,application/xhtml+xml' };

describe('web app, mailbox, docs and reference data (no SMTP_URL)', () => {
  let server: TestServer;
  let api: Api;

  beforeAll(async () => {
    server = await startServer({ env: { WEB_DIST } });
    api = new Api(server.base);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('history fallback: HTML GETs outside the API answer index.html', async () => {
    for (const path of [
      '/',
      '/settings',
      '/createPassword/abc',
      '/email_invite_handler/new/h?teamIdInvite=3',
    ]) {
      const r = await fetch(server.base + path, { headers: html });
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/text\/html/);
      expect(await r.text()).toContain('fixture-index');
    }
    const asset = await fetch(`${server.base}/app.js`);
    expect(await asset.text()).toContain('asset');
  });

  it('serves the runtime settings script with the configured support contact', async () => {
    const r = await fetch(`${server.base}/app-config.js`, { headers: html });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/javascript/);
    expect(await r.text()).toBe(
      `window.__TLPRT__ = ${JSON.stringify({ supportEmail: 'help@dashboard.test' })};\n`,
    );
  });

  it('unknown API paths are JSON 404s, even when asking for HTML', async () => {
    for (const path of ['/api/nope', '/auth/nope', '/stats/nope', '/mailbox/999999']) {
      const r = await fetch(server.base + path, { headers: html });
      expect(r.status, path).toBe(404);
      expect(await r.json()).toEqual({ message: MSG.notFound });
    }
    const missingAsset = await fetch(`${server.base}/missing.js`);
    expect(missingAsset.status).toBe(404);
  });

  it('sets security headers with a CSP that allows the SPA', async () => {
    const r = await fetch(`${server.base}/settings`, { headers: html });
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data:");
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps mails in the outbox and lists them at /mailbox, newest first', async () => {
    const first = uniqueEmail('outbox');
    const second = uniqueEmail('outbox');
    for (const login of [first, second]) {
      const r = await api.post(PATHS.auth.register, {
        login,
        createPath: `${PUBLIC_URL}/createPassword/`,
        resetPath: `${PUBLIC_URL}/resPassword/`,
        loginPath: `${PUBLIC_URL}/`,
        offer: true,
      });
      expect(r.status).toBe(201);
    }
    const list = await api.get('/mailbox.json');
    expect(list.status).toBe(200);
    const mails = list.body.data as Array<{ id: number; to: string; links: string[]; text: string }>;
    expect(mails[0]?.to).toBe(second);
    expect(mails[1]?.to).toBe(first);
    expect(mails[0]?.links[0]).toMatch(new RegExp(`^${PUBLIC_URL}/createPassword/[A-Za-z0-9_-]{43}$`));
    expect(mails[0]?.text).toContain('help@dashboard.test');

    const page = await fetch(`${server.base}/mailbox`, { headers: html });
    const text = await page.text();
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(text.indexOf(second)).toBeLessThan(text.indexOf(first));
    expect(text).toContain(`href="${mails[0]?.links[0]}"`);

    const one = await fetch(`${server.base}/mailbox/${mails[0]?.id}`);
    expect(await one.text()).toContain(mails[0]?.links[0] ?? 'missing');
  });

  it('serves the OpenAPI description', async () => {
    const r = await api.get('/api/docs/json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toMatch(/^3\./);
    expect(Object.keys(r.body.paths)).toEqual(
      expect.arrayContaining([
        PATHS.auth.login,
        PATHS.auth.register,
        PATHS.auth.check,
        PATHS.teams.create,
        '/api/v1/user/{id}',
      ]),
    );
    expect(r.body.paths[PATHS.auth.login].post.requestBody).toBeDefined();
    const ui = await fetch(`${server.base}/api/docs`, { headers: html });
    expect(ui.status).toBe(200);
  });

  it('GET /api/dictionaries/45 has all 18 lists with real ISO data', async () => {
    const r = await api.get(PATHS.dictionaries.dictionaries(45));
    expect(r.status).toBe(200);
    const d = ZDictionariesResponse.parse(r.body).data;
    expect(Object.keys(d).sort()).toEqual([...DICTIONARY_NAMES].sort());
    const countries = new Map(d.countries_ISO.map((c) => [c.id, c.name]));
    expect(countries.size).toBe(249);
    expect(countries.get('DE')).toBe('Germany');
    for (const fake of ['EU', 'UN', 'ZZ', 'XK', 'QO', 'SU', 'YU', 'AC'])
      expect(countries.has(fake), fake).toBe(false);
    const currencies = new Map(d.currency_ISO.map((c) => [c.id, c.name]));
    expect(currencies.get('USD')).toBe('US Dollar');
    expect(currencies.get('EUR')).toBe('Euro');
    expect((await api.get(PATHS.dictionaries.dictionaries(44))).status).toBe(404);
  });

  it('GET /auth/time_zone_list and /auth/get_time_server', async () => {
    const zones = ZTimeZoneListResponse.parse((await api.get(PATHS.dictionaries.timeZoneList)).body).data;
    expect(zones.find((z) => z.id === 37)).toEqual({ id: 37, text: 'UTC', name: 'UTC' });
    expect(zones.find((z) => z.name === 'Asia/Kolkata')?.text).toBe('(UTC+05:30) Asia/Kolkata');
    const time = ZServerTimeResponse.parse((await api.get(PATHS.dictionaries.serverTime)).body).data
      .timestamp;
    expect(Math.abs(time - Date.now() / 1000)).toBeLessThan(5);
  });
});

describe('without a built web app, and in production', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ env: { NODE_ENV: 'production' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a small page saying the web app is not built', async () => {
    const r = await fetch(`${server.base}/settings`, { headers: html });
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('The web app is not built');
  });

  it('has no /mailbox in production', async () => {
    for (const path of ['/mailbox', '/mailbox.json', '/mailbox/1']) {
      const r = await fetch(server.base + path, { headers: html });
      expect(r.status, path).toBe(404);
    }
  });
});

/** A GET through node:http, not fetch: fetch would decompress and hide what was sent. Stops reading
 *  after `maxMs` (for streams) and answers what came by then. */
function rawGet(url: string, headers: Record<string, string>, maxMs = 5000) {
  return new Promise<{ status: number; encoding?: string; vary?: string; body: Buffer }>(
    (resolve, reject) => {
      const req = httpGet(url, { headers }, (res) => {
        const parts: Buffer[] = [];
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            encoding: res.headers['content-encoding'],
            vary: res.headers.vary,
            body: Buffer.concat(parts),
          });
        const timer = setTimeout(() => {
          done();
          req.destroy();
        }, maxMs);
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => {
          clearTimeout(timer);
          done();
        });
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    },
  );
}

describe('pre-compressed web app files', () => {
  let server: TestServer;
  const js = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;

  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'tlprt-web-'));
    mkdirSync(join(dist, 'assets'));
    const index = `<!doctype html><title>compressed-index</title>${'<!-- padding -->'.repeat(100)}`;
    for (const [file, body] of [
      ['index.html', index],
      ['assets/app-1.js', js],
    ] as const) {
      writeFileSync(join(dist, file), body);
      writeFileSync(join(dist, `${file}.gz`), gzipSync(body));
      writeFileSync(join(dist, `${file}.br`), brotliCompressSync(body));
    }
    server = await startServer({ env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the .br or .gz made by the build to a browser that accepts it, the plain file otherwise', async () => {
    const get = (path: string, encoding: string, accept = '*/*') =>
      rawGet(`${server.base}${path}`, { 'accept-encoding': encoding, accept });
    const br = await get('/assets/app-1.js', 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(js);
    const gz = await get('/assets/app-1.js', 'gzip');
    expect(gz.encoding).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(js);
    const plain = await get('/assets/app-1.js', 'identity');
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.toString()).toBe(js);
    expect(br.vary ?? '').toMatch(/accept-encoding/i);
    // The history fallback's index.html too.
    const page = await get('/statistics', 'gzip', 'text/html');
    expect(page.status).toBe(200);
    expect(page.encoding).toBe('gzip');
    expect(gunzipSync(page.body).toString()).toContain('compressed-index');
  });
});

describe('compressed JSON answers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends JSON over 1 KiB as br or gzip when accepted, plain otherwise; small ones plain', async () => {
    const url = `${server.base}${PATHS.dictionaries.timeZoneList}`;
    const plain = await rawGet(url, { 'accept-encoding': 'identity' });
    expect(plain.encoding).toBeUndefined();
    const zones = ZTimeZoneListResponse.parse(JSON.parse(plain.body.toString()));
    const br = await rawGet(url, { 'accept-encoding': 'gzip, br' });
    expect(br.encoding).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(zones);
    const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
    expect(gz.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(zones);
    const small = await rawGet(`${server.base}${PATHS.dictionaries.serverTime}`, {
      'accept-encoding': 'gzip, br',
    });
    expect(small.encoding).toBeUndefined();
  });

  it('leaves the live stream uncompressed so each event goes out at once', async () => {
    const u = await buildUser(server.app);
    const r = await rawGet(
      `${server.base}${PATHS.live.stream}`,
      { authorization: `Bearer ${u.token}`, 'accept-encoding': 'gzip, br' },
      500,
    );
    expect(r.status).toBe(200);
    expect(r.encoding).toBeUndefined();
    expect(r.body.toString()).toContain(': connected');
  });
});

describe('the outbox page on an open interface (docs/DESIGN.md §3)', () => {
  const outboxStatus = async (env: Record<string, string>) => {
    const server = await startServer({ env });
    try {
      const codes: number[] = [];
      for (const path of ['/mailbox', '/mailbox.json']) {
        codes.push((await fetch(server.base + path, { headers: html })).status);
      }
      return codes;
    } finally {
      await server.close();
    }
  };

  it('is off when the server listens beyond loopback, unless MAILBOX=on', async () => {
    expect(await outboxStatus({ HOST: '0.0.0.0' })).toEqual([404, 404]);
    expect(await outboxStatus({ HOST: '::' })).toEqual([404, 404]);
    expect(await outboxStatus({ HOST: '192.0.2.10' })).toEqual([404, 404]);
    expect(await outboxStatus({ HOST: '0.0.0.0', MAILBOX: 'on' })).toEqual([200, 200]);
  });

  it('stays on loopback (npm start), and MAILBOX=off turns it off there too', async () => {
    expect(await outboxStatus({ HOST: '127.0.0.1' })).toEqual([200, 200]);
    expect(await outboxStatus({ HOST: 'localhost' })).toEqual([200, 200]);
    expect(await outboxStatus({ HOST: '::1' })).toEqual([200, 200]);
    expect(await outboxStatus({ HOST: '127.0.0.1', MAILBOX: 'off' })).toEqual([404, 404]);
    expect(await outboxStatus({ NODE_ENV: 'production', MAILBOX: 'on' })).toEqual([404, 404]);
  });
});
