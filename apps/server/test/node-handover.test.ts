import { fork } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeWithoutDeadWorkers, stopReading } from '../src/features/player/node-handover.js';

// The tracker's handover relies on two pieces of Node's internals (node-handover.ts). These tests run
// them on this Node: a release that changes either fails here, not in production.

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
};

/** A server and one connection to it: the client's end and the server's. */
async function connectedPair(): Promise<{ server: Server; client: Socket; socket: Socket }> {
  const server = createServer();
  const port = await listen(server);
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const client = connect(port, '127.0.0.1');
  return { server, client, socket: await accepted };
}

describe("Node's internals the tracker's handover uses", () => {
  it('stopReading stops a socket reading what its peer sends', async () => {
    const { server, client, socket } = await connectedPair();
    let read = 0;
    socket.on('data', (d) => {
      read += d.length;
    });
    client.write('before');
    await new Promise((r) => setTimeout(r, 100));
    expect(read).toBe(6);
    stopReading(socket);
    client.write('after');
    await new Promise((r) => setTimeout(r, 200));
    expect(read).toBe(6);
    client.destroy();
    socket.destroy();
    server.close();
  });

  it('closeWithoutDeadWorkers lets a server close whose child process, handed a socket, died', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tlprt-handover-'));
    const script = join(dir, 'child.mjs');
    // The child takes the socket and dies.
    writeFileSync(script, "process.on('message', () => process.exit(0));\n");
    const child = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const { server, client, socket } = await connectedPair();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send('take', socket);
    await exited;
    client.destroy();
    // What Node holds after the child died: a server still "using workers", with none left to ask.
    const internals = server as unknown as { _usingWorkers?: boolean; _workers?: unknown[] };
    expect(internals._usingWorkers).toBe(true);
    expect(internals._workers).toEqual([]);
    const closedWithin = (ms: number) =>
      new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(false), ms);
        server.close(() => {
          clearTimeout(t);
          resolve(true);
        });
      });
    closeWithoutDeadWorkers(server);
    expect(await closedWithin(2000)).toBe(true);
  });
});
