import { createHash, randomBytes } from 'node:crypto';
import { PLAYER_PATHS, swarmIdOf, trackerNodeFor } from '@tlprt/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildDomain, buildKey, buildTeam } from './factories.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import { freePort } from './helpers/free-port.js';
import { startTestSite, type TestSite } from './helpers/http-site.js';
import { PUBLIC_URL, startServer, type TestServer } from './helpers/server.js';

/**
 * Issue 36: one origin read per segment for a whole cluster. Two nodes on one database (SQLite file or
 * PostgreSQL, as two nodes of a deployment share it) with TRACKER_NODES: a hash one node learned is read
 * from the shared table by the other, and viewers who ask their swarm's node (as the plugin does) make
 * one fetch between them, however many ask at once.
 */

const ORIGIN = new URL(PUBLIC_URL).origin;

let dns: TestDns;
let site: TestSite;
let nodes: TestServer[] = [];
let urls: string[] = [];

beforeAll(async () => {
  dns = await startTestDns();
  site = await startTestSite();
  const ports = [await freePort(), await freePort()];
  urls = ports.map((p) => `http://127.0.0.1:${p}`);
  const env = {
    TRACKER_NODES: urls.join(','),
    DNS_SERVERS: dns.server,
    VERIFY_HTTP_PORT: String(site.port),
    VERIFY_ALLOW_PRIVATE: 'true',
  };
  const first = await startServer({ env, port: ports[0] });
  nodes = [first, await startServer({ env, port: ports[1], databaseUrl: first.databaseUrl })];
});
afterAll(async () => {
  // The second shares the first's database: it goes first, the owner drops the database after.
  for (const node of [...nodes].reverse()) await node.close();
  await site?.close();
  await dns?.close();
});
beforeEach(() => site.clear());

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const fetchesOf = (path: string) => site.requests.filter((r) => r.path === path && r.method === 'GET').length;

async function customer() {
  const first = nodes[0] as TestServer;
  const team = await buildTeam(first.app);
  const host = `c-${randomBytes(4).toString('hex')}.example.test`;
  dns.set(host, { A: ['127.0.0.1'] });
  await buildDomain(first.app, team.id, { host, promoted: true });
  const { keyHash } = await buildKey(first.app, team.id, null);
  return { host, keyHash };
}

async function ask(node: string, keyHash: string, url: string) {
  const q = new URLSearchParams({ key: keyHash, url });
  const res = await fetch(`${node}${PLAYER_PATHS.integrity}?${q}`, { headers: { Origin: ORIGIN } });
  return { status: res.status, body: (await res.json()) as { sha256?: string } };
}

describe('two nodes on one database', () => {
  it('a hash one node fetched is answered by the other from the shared table: one fetch', async () => {
    const c = await customer();
    const body = randomBytes(4000);
    site.route('/live/s1.ts', { body });
    const url = `http://${c.host}:${site.port}/live/s1.ts`;
    const [a, b] = urls as [string, string];
    expect(await ask(a, c.keyHash, url)).toEqual({ status: 200, body: { sha256: sha(body) } });
    expect(await ask(b, c.keyHash, url)).toEqual({ status: 200, body: { sha256: sha(body) } });
    expect(fetchesOf('/live/s1.ts')).toBe(1);
  });

  it('viewers asking their swarm node, 20 at once per segment, make one fetch per segment', async () => {
    const c = await customer();
    for (let s = 0; s < 6; s++) {
      const stream = `http://${c.host}:${site.port}/stream-${s}/index.m3u8`;
      const node = trackerNodeFor(swarmIdOf(c.keyHash, stream), urls) as string;
      const body = randomBytes(3000 + s);
      site.route(`/stream-${s}/seg.ts`, { body, delayMs: 100 });
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          ask(node, c.keyHash, `http://${c.host}:${site.port}/stream-${s}/seg.ts`),
        ),
      );
      expect(new Set(answers.map((r) => r.body.sha256))).toEqual(new Set([sha(body)]));
      expect(fetchesOf(`/stream-${s}/seg.ts`)).toBe(1);
    }
  });
});
