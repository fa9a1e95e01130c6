import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PLAYER_PATHS } from '@tlprt/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { TrackerLiveness } from '../src/features/player/tracker-liveness.js';

/** TRACKER_NODES' liveness on real HTTP servers answering the alive route as a node does. */

const quiet = { warn() {}, info() {} };
const servers: Server[] = [];
async function node(port = 0): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    res.writeHead(req.url?.startsWith(PLAYER_PATHS.alive) ? 204 : 404).end();
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
const stop = (s: Server) => new Promise((r) => s.close(r));
afterEach(async () => {
  for (const s of servers.splice(0)) if (s.listening) await stop(s);
});

describe('TrackerLiveness', () => {
  it('leaves a node out after two failed polls and lists it again at its first answer', async () => {
    const [a, b] = [await node(), await node()];
    const liveness = new TrackerLiveness([a.url, b.url], quiet, { pollMs: 100, timeoutMs: 200 });
    liveness.start();
    expect(liveness.live()).toEqual([a.url, b.url]);
    const port = Number(new URL(b.url).port);
    await stop(b.server);
    await expect.poll(() => liveness.live(), { timeout: 2000, interval: 20 }).toEqual([a.url]);
    await node(port);
    await expect.poll(() => liveness.live(), { timeout: 2000, interval: 20 }).toEqual([a.url, b.url]);
    await liveness.stop();
  });

  it('a node that hangs is as dead as a closed one; none answering lists them all, never none', async () => {
    const hung = createServer(() => {});
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    servers.push(hung);
    const hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
    const a = await node();
    const liveness = new TrackerLiveness([a.url, hungUrl], quiet, { pollMs: 100, timeoutMs: 150 });
    liveness.start();
    await expect.poll(() => liveness.live(), { timeout: 2000, interval: 20 }).toEqual([a.url]);
    await stop(a.server);
    hung.closeAllConnections();
    await new Promise((r) => setTimeout(r, 700));
    expect(liveness.live()).toEqual([a.url, hungUrl]);
    await liveness.stop();
  });
});
