import { fileURLToPath } from 'node:url';
import { PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { buildUser } from './factories.js';
import { Api } from './helpers/http.js';
import { dropDatabase, freshDatabaseUrl, PUBLIC_URL } from './helpers/server.js';

/**
 * The server's log (issue 39): a walk through the dashboard adds no line per request at the default
 * level (info), so the start banner stays in sight; a server error is still logged, with its URL.
 * LOG_LEVEL=debug shows every request.
 */

const WEB_DIST = fileURLToPath(new URL('./fixtures/web', import.meta.url));

interface Line {
  level: number;
  msg: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
}

const lines: string[] = [];
const parsed = (): Line[] => lines.map((l) => JSON.parse(l) as Line);
let app: App;
let base: string;
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl();
  const config = loadConfig({ DATABASE_URL: databaseUrl, PUBLIC_URL, WEB_DIST });
  // The configured level (info, the default outside tests), its lines captured.
  app = await buildApp(config, {
    logger: { level: config.logLevel, stream: { write: (line: string) => void lines.push(line) } },
    // The mail server is down: a recovery request fails with a 500 (an unexpected error).
    mailer: {
      description: 'a mail server that is down',
      send: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      },
      close: async () => undefined,
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await app?.close();
  await dropDatabase(databaseUrl);
});

/** A walk: the app's page and files, reference data, the session check, a missing file and call. */
async function walk(): Promise<number[]> {
  const statuses: number[] = [];
  const pages = ['/', '/statistics'];
  for (const path of [
    ...pages,
    '/app.js',
    PATHS.dictionaries.dictionaries(45),
    PATHS.auth.check,
    '/missing.js',
    '/api/no-such-call',
  ]) {
    const accept = pages.includes(path) ? 'text/html' : '*/*';
    const res = await fetch(`${base}${path}`, { headers: { accept } });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

describe('request logs', () => {
  it('LOG_LEVEL: info by default (warn in tests), any pino level, anything else refused by name', () => {
    expect(loadConfig({}).logLevel).toBe('info');
    expect(loadConfig({ NODE_ENV: 'test' }).logLevel).toBe('warn');
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL/);
  });

  it('at the default level, requests (files, API, 401, 404) write nothing; a 500 is logged with its URL', async () => {
    lines.length = 0;
    const statuses = await walk();
    expect(statuses).toEqual([200, 200, 200, 200, 401, 404, 404]);
    expect(parsed()).toEqual([]);

    const user = await buildUser(app);
    const res = await new Api(base).post(PATHS.auth.recoveryPassword, {
      login: user.email,
      url: `${PUBLIC_URL}/passwordRecovery/`,
    });
    expect(res.status).toBe(500);
    const errors = parsed().filter((l) => l.level >= 50);
    expect(errors.map((l) => l.msg)).toEqual(['unexpected error', 'request failed']);
    expect(errors[1]).toMatchObject({
      req: { method: 'POST', url: PATHS.auth.recoveryPassword },
      res: { statusCode: 500 },
    });
    // Nothing else: no "incoming request" line before it.
    expect(parsed()).toHaveLength(2);
  });

  it('at debug, one line per request with its URL and status', async () => {
    app.log.level = 'debug';
    try {
      lines.length = 0;
      await walk();
      const requests = parsed().filter((l) => l.msg === 'request completed');
      expect(requests.map((l) => [l.req?.url, l.res?.statusCode])).toEqual([
        ['/', 200],
        ['/statistics', 200],
        ['/app.js', 200],
        [PATHS.dictionaries.dictionaries(45), 200],
        [PATHS.auth.check, 401],
        ['/missing.js', 404],
        ['/api/no-such-call', 404],
      ]);
      expect(parsed().every((l) => l.level <= 30)).toBe(true);
    } finally {
      app.log.level = 'info';
    }
  });
});
