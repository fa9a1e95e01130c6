import { connect, type Socket } from 'node:net';
import { PATHS } from '@tlprt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKey, buildTeam } from './factories.js';
import { Api } from './helpers/http.js';
import { dropDatabase, freshDatabaseUrl, startServer, type TestServer } from './helpers/server.js';

/** Opens a raw connection to the server and sends `head`, then one byte of `trickle` every `everyMs`. */
function slowClient(base: string, head: string, trickle: string, everyMs: number) {
  const { hostname, port } = new URL(base);
  const socket: Socket = connect(Number(port), hostname);
  let answer = '';
  socket.on('data', (d) => {
    answer += d.toString();
  });
  socket.on('error', () => {});
  socket.write(head);
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= trickle.length) return;
    socket.write(trickle[i++] as string);
  }, everyMs);
  const closed = new Promise<number>((resolve) => {
    const t0 = Date.now();
    socket.on('close', () => {
      clearInterval(timer);
      resolve(Date.now() - t0);
    });
  });
  return { closed, answer: () => answer, stop: () => socket.destroy() };
}

const slowBodyHead = (length: number) =>
  `POST ${PATHS.statistics.ingest} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('request timeouts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('closes a socket whose body comes a byte at a time once the request timeout passes (408)', async () => {
    const c = slowClient(server.base, slowBodyHead(1000), `{"reports":[${' '.repeat(980)}]}`, 200);
    const ms = await c.closed;
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3000);
    expect(c.answer()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a socket whose headers never end', async () => {
    const c = slowClient(
      server.base,
      'GET / HTTP/1.1\r\n',
      'X-Slow: a-header-sent-very-slowly-never-ending',
      200,
    );
    const ms = await c.closed;
    expect(ms).toBeLessThan(3000);
  });

  it('keeps answering others meanwhile', async () => {
    const clients = Array.from({ length: 20 }, () =>
      slowClient(server.base, slowBodyHead(1000), 'x'.repeat(1000), 500),
    );
    const t0 = Date.now();
    const r = await new Api(server.base).get(PATHS.dictionaries.serverTime);
    expect(r.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(1000);
    await Promise.all(clients.map((c) => c.closed));
  });
});

describe('graceful stop', () => {
  it('with a slow body still arriving: closes it within the deadline, flushes every accepted report and closes the database', async () => {
    const databaseUrl = await freshDatabaseUrl();
    // Neither the request timeout nor a timed flush helps here: only the stop itself.
    const env = {
      STATS_INGEST_FLUSH_MS: '600000',
      REQUEST_TIMEOUT_MS: '600000',
      SHUTDOWN_TIMEOUT_MS: '2000',
    };
    try {
      const first = await startServer({ databaseUrl, env });
      const team = await buildTeam(first.app);
      const key = (await buildKey(first.app, team.id, null)).keyHash;
      const ts = Math.floor(Date.now() / 1000);
      const r = await new Api(first.base).post(PATHS.statistics.ingest, {
        reports: [{ apiKey: key, sessionId: 'stop', ts, cdnBytes: 4321, p2pBytes: 0, seq: 0 }],
      });
      expect(r.body.accepted).toBe(1);
      const slow = slowClient(first.base, slowBodyHead(100_000), 'x'.repeat(100_000), 1000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const t0 = Date.now();
      await first.app.close();
      const took = Date.now() - t0;
      expect(took).toBeLessThan(2000);
      expect(await slow.closed).toBeGreaterThan(0);

      const second = await startServer({ databaseUrl, env });
      try {
        const q = await new Api(second.base).as(team.owner.token).post(PATHS.statistics.day, {
          apiKeys: [key],
          startTimestamp: ts - 3600,
          endTimestamp: ts + 60,
          team_id: team.id,
        });
        expect(q.status).toBe(200);
        expect((q.body.data as Array<{ cdnDwSize: number }>).reduce((n, p) => n + p.cdnDwSize, 0)).toBe(4321);
      } finally {
        await second.app.close();
      }
    } finally {
      await dropDatabase(databaseUrl);
    }
  });
});
