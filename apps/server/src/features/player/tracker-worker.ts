import { Socket } from 'node:net';
import { refuse, SwarmHost, type TrackerLog } from './tracker-host.js';
import { defaultMaxSockets } from './tracker-limits.js';
import type { FromWorker, ToWorker, WorkerInit } from './tracker-workers.js';

/**
 * A tracker worker (tracker-workers.ts): the swarms of the shards the server's process hands it, and
 * the connections of their peers, whose upgrades that process has checked.
 */

/** How often the worker tells its swarms and peers (the metrics' gauges). */
const COUNTS_MS = 1_000;

const init = JSON.parse(process.argv[2] ?? '{}') as WorkerInit;
const tell = (m: FromWorker): void => {
  if (process.connected) process.send?.(m);
};
/** Only what survives IPC's JSON: an error's message. */
const detailOf = (obj: object): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = v instanceof Error ? { message: v.message } : v;
  return out;
};
const log: TrackerLog = {
  debug: (obj, msg) => {
    if (init.debug) tell({ t: 'log', level: 'debug', msg, detail: detailOf(obj) });
  },
  error: (obj, msg) => tell({ t: 'log', level: 'error', msg, detail: detailOf(obj) }),
};
const host = new SwarmHost(init.limits, log);
// This process holds nothing but tracker sockets, so nearly all its descriptors can be theirs; the
// shards a node hands out are not even, so each worker still guards its own.
const cap = defaultMaxSockets({ reserve: 256 });
let held = 0;

process.on('message', (m: ToWorker, handle: unknown) => {
  if (m.t === 'drain') {
    host.close().then(() => tell({ t: 'drained' }));
    return;
  }
  if (m.t === 'close') {
    process.disconnect();
    return;
  }
  // A connection that closed before it could be sent arrives without its handle: nothing to hold.
  if (!(handle instanceof Socket)) return tell({ t: 'closed', id: m.id });
  held += 1;
  handle.once('close', () => {
    held -= 1;
    tell({ t: 'closed', id: m.id });
  });
  // A reset connection before ws listens for errors would otherwise end the process.
  handle.on('error', () => {});
  if (held > cap) return refuse(handle, '503 Service Unavailable', true);
  const peer = { remoteAddress: handle.remoteAddress, remotePort: handle.remotePort };
  host.accept({
    req: { method: m.method, url: m.url, headers: m.headers, socket: peer, connection: peer },
    socket: handle,
    head: Buffer.from(m.head, 'base64'),
    key: m.key,
    group: m.group,
    place: m.place,
  });
});
// The server's process is gone: so is the budget these connections were counted in.
process.on('disconnect', () => process.exit(0));
// A terminal's Ctrl-C or a service manager's stop reaches the whole process group: the server's
// process drives the shutdown (drain, then exit), so a worker does not die ahead of it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => {});
setInterval(() => tell({ t: 'counts', swarms: host.swarmCount, peers: host.peerCount }), COUNTS_MS).unref();
tell({ t: 'ready' });
