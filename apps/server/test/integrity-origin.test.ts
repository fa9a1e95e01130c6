import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MSG_INTEGRITY } from '@tlprt/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OriginFetchLimits } from '../src/features/integrity/fetch-limits.js';
import {
  type OriginHash,
  OriginReadFailed,
  type OriginReadOptions,
  readOriginHash,
} from '../src/features/integrity/origin.js';
import { HttpError } from '../src/http/errors.js';
import { Metrics } from '../src/metrics/index.js';
import { classifyAddress } from '../src/net/address.js';
import { manualClock } from './helpers/server.js';

/**
 * readOriginHash and OriginFetchLimits against a real local HTTP origin that counts, per request, the
 * body bytes it served. The team's hosts are *.team.test; evil.test is another's. All resolve to
 * 127.0.0.1, which the address policy (narrowed as in integrity.test.ts) takes for a public address.
 */

interface Served {
  method: string;
  path: string;
  host: string;
  headers: IncomingHttpHeaders;
  /** Body bytes handed to the socket. */
  bytes: number;
  /** The whole body was sent. */
  finished: boolean;
}

interface Answer {
  status?: number;
  headers?: Record<string, string>;
  /** Sent `repeat` times (a large body without holding it whole). */
  body?: Buffer;
  repeat?: number;
  /** The answer waits for this first. */
  hold?: Promise<void>;
  /** The body is sent, then the answer never ends (a stalled origin). */
  stall?: boolean;
}

type Handler = (req: IncomingMessage) => Answer;

let server: Server;
let port: number;
const routes = new Map<string, Handler>();
const served: Served[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const log: Served = {
      method: req.method ?? '',
      path: req.url ?? '',
      host: (req.headers.host ?? '').replace(/:\d+$/, ''),
      headers: req.headers,
      bytes: 0,
      finished: false,
    };
    served.push(log);
    const handler = routes.get(log.path);
    const answer: Answer = handler ? handler(req) : { status: 404, body: Buffer.from('not found') };
    const send = (): void => {
      const body = answer.body;
      let left = body ? (answer.repeat ?? 1) : 0;
      res.writeHead(answer.status ?? 200, {
        'content-length': String((body?.length ?? 0) * left),
        ...answer.headers,
      });
      res.on('finish', () => {
        log.finished = true;
      });
      if (req.method === 'HEAD' || !body) {
        res.end();
        return;
      }
      // Written with backpressure, as a real server streams a file: what the reader does not take is
      // never sent.
      const pump = (): void => {
        while (left > 0 && !res.destroyed) {
          left--;
          log.bytes += body.length;
          if (!res.write(body)) {
            res.once('drain', pump);
            return;
          }
        }
        if (left === 0 && !res.destroyed && !answer.stall) res.end();
      };
      pump();
    };
    if (answer.hold) answer.hold.then(send, send);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  routes.clear();
  served.length = 0;
});

const MAX_BYTES = 40 * 1024 * 1024;

function options(overrides: Partial<OriginReadOptions> = {}): OriginReadOptions {
  return {
    ports: { http: port, https: 443 },
    allowPrivate: false,
    classify: (ip) => (ip === '127.0.0.1' ? 'public' : classifyAddress(ip)),
    timeoutMs: 5000,
    maxBytes: MAX_BYTES,
    maxRedirects: 5,
    userAgent: 'tlprt-integrity-test',
    resolveAddresses: async () => ['127.0.0.1'],
    allowHost: (host) => host === 'team.test' || host.endsWith('.team.test'),
    allowedHosts: "the team's",
    ...overrides,
  };
}

const on = (host: string, path: string) => new URL(`http://${host}:${port}${path}`);
const sha = (...parts: Buffer[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex');
};
const b64 = (b: Buffer) => createHash('sha256').update(b).digest('base64');
/** Bytes that differ per seed, so two bodies never hash alike by accident. */
const bytes = (n: number, seed = 1) =>
  Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff));
const CHUNK = bytes(64 * 1024, 7);
const of = (method: string) => served.filter((s) => s.method === method);
const servedBytes = () => served.reduce((n, s) => n + s.bytes, 0);

async function failure(read: Promise<unknown>): Promise<OriginReadFailed> {
  const error = await read.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OriginReadFailed);
  return error as OriginReadFailed;
}

/** An origin that answers HEAD 405 and GET with the body: no digest anywhere. */
function plain(body: Buffer, repeat = 1, extra: Record<string, string> = {}): Handler {
  return (req) => (req.method === 'HEAD' ? { status: 405 } : { body, repeat, headers: extra });
}

/** An origin that honours Range like a CDN (206 with Content-Range, clipped at the end). */
function ranged(body: Buffer): Handler {
  return (req) => {
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!m) return { body };
    const start = Number(m[1]);
    const end = Math.min(Number(m[2]), body.length - 1);
    return {
      status: 206,
      headers: { 'content-range': `bytes ${start}-${end}/${body.length}` },
      body: body.subarray(start, end + 1),
    };
  };
}

describe('hash stated by the origin', () => {
  it('a HEAD with Repr-Digest: no GET, no body byte', async () => {
    const body = bytes(5000);
    routes.set('/s.ts', (req) =>
      req.method === 'HEAD'
        ? {
            headers: {
              'repr-digest': `sha-512=:${createHash('sha512').update(body).digest('base64')}:, sha-256=:${b64(body)}:`,
            },
          }
        : { body },
    );
    const r = await readOriginHash(on('cdn.team.test', '/s.ts'), undefined, options());
    expect(r).toEqual({ sha256: sha(body), source: 'stated', originBytes: 0 });
    expect(served.map((s) => s.method)).toEqual(['HEAD']);
    expect(served[0]?.headers['x-amz-checksum-mode']).toBe('ENABLED');
    expect(served[0]?.headers['want-repr-digest']).toMatch(/sha-256/);
  });

  it("S3's single-part checksum on the HEAD is used; a multipart one is not (the body is fetched)", async () => {
    const body = bytes(7000, 2);
    routes.set('/single.ts', (req) =>
      req.method === 'HEAD' && req.headers['x-amz-checksum-mode'] === 'ENABLED'
        ? { headers: { 'x-amz-checksum-sha256': b64(body) } }
        : { body },
    );
    expect(await readOriginHash(on('cdn.team.test', '/single.ts'), undefined, options())).toEqual({
      sha256: sha(body),
      source: 'stated',
      originBytes: 0,
    });
    expect(of('GET')).toHaveLength(0);

    served.length = 0;
    // A checksum of the parts' checksums looks like a hash but is not the file's.
    const multipart = { 'x-amz-checksum-sha256': `${b64(bytes(10))}-2` };
    routes.set('/multi.ts', () => ({ body, headers: multipart }));
    const r = await readOriginHash(on('cdn.team.test', '/multi.ts'), undefined, options());
    expect(r).toEqual({ sha256: sha(body), source: 'fetched', originBytes: body.length });
    expect(served.map((s) => s.method)).toEqual(['HEAD', 'GET']);

    served.length = 0;
    routes.set('/composite.ts', () => ({
      body,
      headers: { 'x-amz-checksum-sha256': b64(bytes(10)), 'x-amz-checksum-type': 'COMPOSITE' },
    }));
    expect((await readOriginHash(on('cdn.team.test', '/composite.ts'), undefined, options())).source).toBe(
      'fetched',
    );
  });

  it('a HEAD refused (405), then a GET with Content-Digest: the body is not read', async () => {
    // 16 MiB: more than the sockets' buffers hold, so an origin that finished would mean a full read.
    const repeat = 256;
    const whole = sha(...Array.from({ length: repeat }, () => CHUNK));
    const digest = Buffer.from(whole, 'hex').toString('base64');
    routes.set('/cd.ts', plain(CHUNK, repeat, { 'content-digest': `sha-256=:${digest}:` }));
    const r = await readOriginHash(on('cdn.team.test', '/cd.ts'), undefined, options());
    expect(r.sha256).toBe(whole);
    expect(r.source).toBe('stated');
    expect(r.originBytes).toBeLessThan(CHUNK.length);
    expect(served.map((s) => s.method)).toEqual(['HEAD', 'GET']);
    expect(served[1]?.headers['want-content-digest']).toMatch(/sha-256/);
    await until(() => served[1]?.finished === false && servedBytes() > 0);
    expect(servedBytes()).toBeLessThan(repeat * CHUNK.length);
  });

  it('a GET Repr-Digest counts too; a malformed or sha-512-only digest does not', async () => {
    const body = bytes(3000, 3);
    routes.set('/repr.ts', plain(body, 1, { 'repr-digest': `sha-256=:${b64(body)}:` }));
    expect((await readOriginHash(on('cdn.team.test', '/repr.ts'), undefined, options())).source).toBe(
      'stated',
    );
    for (const digest of [
      'sha-256=:abc:',
      `sha-512=:${createHash('sha512').update(body).digest('base64')}:`,
    ]) {
      routes.set('/bad.ts', plain(body, 1, { 'repr-digest': digest, 'content-digest': digest }));
      expect(await readOriginHash(on('cdn.team.test', '/bad.ts'), undefined, options())).toEqual({
        sha256: sha(body),
        source: 'fetched',
        originBytes: body.length,
      });
    }
  });
});

describe('hash of the body, as it streams', () => {
  it('a HEAD without a digest, then the GET hashed: the real SHA-256, originBytes what the origin served', async () => {
    const repeat = 100;
    routes.set('/big.ts', () => ({ body: CHUNK, repeat }));
    const r = await readOriginHash(on('cdn.team.test', '/big.ts'), undefined, options());
    expect(r).toEqual({
      sha256: sha(...Array.from({ length: repeat }, () => CHUNK)),
      source: 'fetched',
      originBytes: repeat * CHUNK.length,
    });
    expect(served.map((s) => s.method)).toEqual(['HEAD', 'GET']);
    expect(r.originBytes).toBe(servedBytes());
  });

  it('fails with the reasons of before, and the bytes received', async () => {
    routes.set('/gone.ts', () => ({ status: 404, body: Buffer.from('gone') }));
    const gone = await failure(readOriginHash(on('cdn.team.test', '/gone.ts'), undefined, options()));
    expect(gone.message).toBe('HTTP 404');
    // The body of an error page is not read.
    expect(gone.originBytes).toBe(0);

    routes.set('/huge.ts', plain(CHUNK, 20));
    const huge = await failure(
      readOriginHash(on('cdn.team.test', '/huge.ts'), undefined, options({ maxBytes: 5 * CHUNK.length })),
    );
    expect(huge.message).toBe(`larger than ${5 * CHUNK.length} bytes`);
    expect(huge.originBytes).toBeGreaterThan(5 * CHUNK.length);
    expect(huge.originBytes).toBeLessThan(20 * CHUNK.length);
  });

  it('one time budget for the HEAD and the GET', async () => {
    routes.set('/hang.ts', () => ({ hold: new Promise<void>(() => {}), body: bytes(10) }));
    const started = Date.now();
    const e = await failure(
      readOriginHash(on('cdn.team.test', '/hang.ts'), undefined, options({ timeoutMs: 400 })),
    );
    expect(e.message).toBe('timed out after 400 ms');
    expect(Date.now() - started).toBeLessThan(800);
    expect(of('GET')).toHaveLength(0);

    // A body that stops midway: the bytes already received are counted.
    served.length = 0;
    routes.set('/stall.ts', (req) =>
      req.method === 'HEAD'
        ? { status: 405 }
        : { headers: { 'content-length': String(10 * CHUNK.length) }, body: CHUNK, stall: true },
    );
    const stalled = await failure(
      readOriginHash(on('cdn.team.test', '/stall.ts'), undefined, options({ timeoutMs: 400 })),
    );
    expect(stalled.message).toBe('timed out after 400 ms');
    expect(stalled.originBytes).toBe(CHUNK.length);
  });
});

describe('byte ranges: always their bytes, never a HEAD', () => {
  const body = bytes(10_000, 4);

  it('a 206 with the exact Content-Range', async () => {
    routes.set('/r.ts', ranged(body));
    const r = await readOriginHash(on('cdn.team.test', '/r.ts'), { start: 100, end: 1099 }, options());
    expect(r).toEqual({ sha256: sha(body.subarray(100, 1100)), source: 'fetched', originBytes: 1000 });
    expect(served.map((s) => s.method)).toEqual(['GET']);
    expect(served[0]?.headers.range).toBe('bytes=100-1099');
    expect(servedBytes()).toBe(1000);
  });

  it('a range past the end: the 206 up to the last byte', async () => {
    routes.set('/r.ts', ranged(body));
    const r = await readOriginHash(on('cdn.team.test', '/r.ts'), { start: 9000, end: 19_999 }, options());
    expect(r.sha256).toBe(sha(body.subarray(9000)));
    expect(r.originBytes).toBe(1000);
  });

  it('a digest is never taken for a range', async () => {
    routes.set('/r.ts', (req) => {
      const a = ranged(body)(req);
      return {
        ...a,
        headers: {
          ...a.headers,
          'repr-digest': `sha-256=:${b64(body)}:`,
          'content-digest': `sha-256=:${b64(body)}:`,
        },
      };
    });
    const r = await readOriginHash(on('cdn.team.test', '/r.ts'), { start: 0, end: 99 }, options());
    expect(r).toEqual({ sha256: sha(body.subarray(0, 100)), source: 'fetched', originBytes: 100 });
  });

  it('a 206 of other bytes, or a body longer than its Content-Range, fails', async () => {
    routes.set('/wrong.ts', () => ({
      status: 206,
      headers: { 'content-range': 'bytes 0-99/10000' },
      body: body.subarray(0, 100),
    }));
    expect(
      (await failure(readOriginHash(on('cdn.team.test', '/wrong.ts'), { start: 50, end: 149 }, options())))
        .message,
    ).toBe('the origin answered bytes 0-99 for 50-149');
    routes.set('/long.ts', () => ({
      status: 206,
      headers: { 'content-range': 'bytes 0-99/10000', 'content-length': '200' },
      body: body.subarray(0, 200),
    }));
    expect(
      (await failure(readOriginHash(on('cdn.team.test', '/long.ts'), { start: 0, end: 99 }, options())))
        .message,
    ).toBe('the body does not match its Content-Range');
  });

  it('a 200 (Range ignored) is cut to the range as it streams, and read no further', async () => {
    const repeat = 256; // 16 MiB
    routes.set('/all.ts', () => ({ body: CHUNK, repeat }));
    const r = await readOriginHash(on('cdn.team.test', '/all.ts'), { start: 100, end: 70_099 }, options());
    const whole = Buffer.concat([CHUNK, CHUNK]);
    expect(r.sha256).toBe(sha(whole.subarray(100, 70_100)));
    expect(r.originBytes).toBeGreaterThanOrEqual(70_100);
    expect(r.originBytes).toBeLessThan(4 * CHUNK.length);
    await until(() => served[0]?.finished === false && servedBytes() > 0);
    expect(servedBytes()).toBeLessThan(repeat * CHUNK.length);
  });

  it('a 200 shorter than the range: up to its end; a range that starts past it fails', async () => {
    routes.set('/short.ts', () => ({ body }));
    const r = await readOriginHash(on('cdn.team.test', '/short.ts'), { start: 9500, end: 20_000 }, options());
    expect(r).toEqual({ sha256: sha(body.subarray(9500)), source: 'fetched', originBytes: body.length });
    const past = await failure(
      readOriginHash(on('cdn.team.test', '/short.ts'), { start: 10_000, end: 10_100 }, options()),
    );
    expect(past.message).toBe('the range starts past the end of the segment');
    expect(past.originBytes).toBe(body.length);
  });

  it('a range larger than maxBytes is not asked', async () => {
    const e = await failure(
      readOriginHash(on('cdn.team.test', '/r.ts'), { start: 0, end: 2000 }, options({ maxBytes: 1024 })),
    );
    expect(e.message).toBe('the range is larger than 1024 bytes');
    expect(served).toHaveLength(0);
  });
});

describe('redirects stay on the allowed hosts', () => {
  it('to another host of the team: followed', async () => {
    const body = bytes(4000, 5);
    routes.set('/moved.ts', () => ({
      status: 302,
      headers: { location: on('edge.team.test', '/edge.ts').href },
    }));
    routes.set('/edge.ts', plain(body));
    const r = await readOriginHash(on('cdn.team.test', '/moved.ts'), undefined, options());
    expect(r).toEqual({ sha256: sha(body), source: 'fetched', originBytes: body.length });
    expect(served.map((s) => `${s.method} ${s.host}${s.path}`)).toEqual([
      'HEAD cdn.team.test/moved.ts',
      'HEAD edge.team.test/edge.ts',
      'GET cdn.team.test/moved.ts',
      'GET edge.team.test/edge.ts',
    ]);
  });

  it('to a host outside the team: refused, that host never asked', async () => {
    routes.set('/away.ts', () => ({ status: 301, headers: { location: on('evil.test', '/x.ts').href } }));
    routes.set('/x.ts', plain(bytes(100)));
    const e = await failure(readOriginHash(on('cdn.team.test', '/away.ts'), undefined, options()));
    expect(e.message).toBe("redirect to a host outside the team's");
    expect(served.filter((s) => s.host === 'evil.test')).toHaveLength(0);
    // Nor is a host outside the team read when named first.
    const first = await failure(readOriginHash(on('evil.test', '/x.ts'), undefined, options()));
    expect(first.message).toBe("a host outside the team's");
    expect(served.filter((s) => s.host === 'evil.test')).toHaveLength(0);
  });
});

describe('OriginFetchLimits', () => {
  const clock = manualClock();

  function gate() {
    let open = (): void => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    return { opened, open };
  }

  async function refusal(p: Promise<unknown>): Promise<HttpError> {
    const error = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(429);
    return error as HttpError;
  }

  const refusedCount = async (metrics: Metrics, reason: string) =>
    (await metrics.integrityRefused.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

  it('caps reads per team and per node: past a cap they wait in a short queue, past the queue 429', async () => {
    const metrics = new Metrics();
    const limits = new OriginFetchLimits(
      { perNode: 3, perTeam: 2, teamBytesPerMinute: 1e9, maxWaitMs: 5000 },
      clock,
      metrics,
    );
    const g = gate();
    const body = bytes(1000, 6);
    routes.set('/slow.ts', (req) => (req.method === 'HEAD' ? { status: 405 } : { hold: g.opened, body }));
    const read = (team: number) =>
      limits.run(team, () => readOriginHash(on('cdn.team.test', '/slow.ts'), undefined, options()));
    const a1 = read(1);
    const a2 = read(1);
    await until(() => limits.active === 2);
    // Team 1 at its cap: two more of it wait, the next is refused at once.
    const a3 = read(1);
    const a4 = read(1);
    const tooMany = await refusal(read(1));
    expect(tooMany.message).toBe(MSG_INTEGRITY.tooManyFetches);
    expect(tooMany.headers?.['Retry-After']).toBe('1');
    expect(limits.waiting).toBe(2);
    // Another team takes the node's last slot; a third team then waits for the node.
    const b1 = read(2);
    await until(() => limits.active === 3);
    const c1 = read(3);
    expect(limits.waiting).toBe(3);
    await until(() => of('GET').length === 3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(of('GET')).toHaveLength(3);
    g.open();
    const all = await Promise.all([a1, a2, a3, a4, b1, c1]);
    for (const r of all)
      expect(r).toEqual({ sha256: sha(body), source: 'fetched', originBytes: body.length });
    expect(limits.active).toBe(0);
    expect(limits.waiting).toBe(0);
    expect(await refusedCount(metrics, 'concurrency')).toBe(1);
    expect(limits.bytesOf(1)).toBe(4 * body.length);
  });

  it('a read that waits longer than maxWaitMs is refused', async () => {
    const metrics = new Metrics();
    const limits = new OriginFetchLimits(
      { perNode: 10, perTeam: 1, teamBytesPerMinute: 1e9, maxWaitMs: 150 },
      clock,
      metrics,
    );
    const g = gate();
    routes.set('/slow.ts', () => ({ hold: g.opened, body: bytes(10) }));
    const first = limits.run(1, () =>
      readOriginHash(on('cdn.team.test', '/slow.ts'), { start: 0, end: 9 }, options()),
    );
    const second = await refusal(
      limits.run(1, () => readOriginHash(on('cdn.team.test', '/slow.ts'), undefined, options())),
    );
    expect(second.message).toBe(MSG_INTEGRITY.tooManyFetches);
    g.open();
    await first;
    expect(await refusedCount(metrics, 'concurrency')).toBe(1);
    expect(served).toHaveLength(1);
  });

  it("a team's bytes per minute: 429 past the budget until the window frees; failures count too", async () => {
    const metrics = new Metrics();
    const limits = new OriginFetchLimits(
      { perNode: 10, perTeam: 10, teamBytesPerMinute: 1_000_000 },
      clock,
      metrics,
    );
    const body = bytes(600_000, 8);
    routes.set('/b.ts', plain(body));
    routes.set('/404.ts', (req) => (req.method === 'HEAD' ? { status: 405 } : { status: 404 }));
    const read = (team: number, path = '/b.ts') =>
      limits.run(team, () => readOriginHash(on('cdn.team.test', path), undefined, options()));
    await read(1);
    clock.advance(20_000);
    await read(1);
    expect(limits.bytesOf(1)).toBe(1_200_000);
    const spent = await refusal(read(1));
    expect(spent.message).toBe(MSG_INTEGRITY.fetchBudgetSpent);
    // The first read leaves the count 60-65 s after it was made, 40-45 s from now.
    const retry = Number(spent.headers?.['Retry-After']);
    expect(retry).toBeGreaterThanOrEqual(40);
    expect(retry).toBeLessThanOrEqual(45);
    expect(await refusedCount(metrics, 'budget')).toBe(1);
    // Another team's budget is its own.
    await read(2);
    clock.advance(retry * 1000);
    expect(limits.bytesOf(1)).toBe(600_000);
    await read(1);

    // A failed read's bytes are charged: a body cut by maxBytes was received all the same.
    const failing = await failure(
      limits.run(3, () =>
        readOriginHash(on('cdn.team.test', '/b.ts'), undefined, options({ maxBytes: 100_000 })),
      ),
    );
    expect(limits.bytesOf(3)).toBe(failing.originBytes);
    expect(failing.originBytes).toBeGreaterThan(100_000);
    // The refused reads never reached the origin.
    expect(of('GET')).toHaveLength(5);
  });
});

describe('memory while reading many large segments at once', () => {
  /** The bound documented in the README (Security): RSS growth of the process while 60 readers stream
   *  31 MiB each through the limits. Measured: ~10-25 MB (Node's socket and parser buffers; the origin
   *  runs in this same process). Buffering whole bodies would take 1.9 GB. */
  const RSS_BOUND = 64 * 1024 * 1024;

  it('60 concurrent 31 MiB segments keep the RSS growth under 64 MB', { timeout: 120_000 }, async () => {
    const repeat = 31 * 16; // 64 KiB chunks: 31 MiB
    const whole = sha(...Array.from({ length: repeat }, () => CHUNK));
    for (let i = 0; i < 60; i++) routes.set(`/big-${i}.ts`, plain(CHUNK, repeat));
    const limits = new OriginFetchLimits(
      { perNode: 60, perTeam: 60, teamBytesPerMinute: 1024 ** 4 },
      Date.now,
      new Metrics(),
    );
    const start = process.memoryUsage().rss;
    let peak = start;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    let results: OriginHash[];
    try {
      results = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          limits.run(i % 4, () =>
            readOriginHash(on('cdn.team.test', `/big-${i}.ts`), undefined, options({ timeoutMs: 100_000 })),
          ),
        ),
      );
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    for (const r of results)
      expect(r).toEqual({ sha256: whole, source: 'fetched', originBytes: repeat * CHUNK.length });
    const growth = peak - start;
    console.log(`RSS growth with 60 concurrent 31 MiB reads: ${(growth / 1024 / 1024).toFixed(1)} MB`);
    expect(growth).toBeLessThan(RSS_BOUND);
  });
});

async function until(ok: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
