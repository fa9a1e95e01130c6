import type { Server, Socket } from 'node:net';

// Everything the tracker's handover of connections to its worker processes (tracker-workers.ts) reads
// or writes of Node's internals, and only here. Node offers no public way to do either; the test
// node-handover.test.ts exercises both on the running Node, so a Node release that renames or drops
// these fields fails it rather than the handover.

/** The part of a socket's native handle this module uses. */
interface ReadingHandle {
  reading?: boolean;
  readStop?: () => number;
}

/**
 * Stops this process reading a socket it hands over. Node's HTTP server leaves an upgraded socket
 * reading, and `send` only mutes this process's copy until the worker's acknowledgement closes it:
 * meanwhile the worker has answered the handshake, and the client's first announce, if this copy read
 * it, was lost (1–2 peers in 20,000 never answered in the tracker bench). `pause()` does not stop a
 * plain socket's reading, so the handle is told directly. Without a handle (already closed) it does
 * nothing.
 */
export function stopReading(socket: Socket): void {
  const handle = (socket as unknown as { _handle?: ReadingHandle | null })._handle;
  if (handle?.readStop === undefined) return;
  handle.reading = false;
  handle.readStop();
}

/**
 * Lets `server` close although every child process it handed sockets to has died. Node's server, once
 * it has sent sockets to child processes, asks the live ones whether their sockets are closed before it
 * closes; when none is left (a crash, and no socket for its restart yet) it has no one to ask and never
 * closes, and what runs after it (the statistics' last flush) would never run. With a live one left,
 * or no socket ever sent, it changes nothing.
 */
export function closeWithoutDeadWorkers(server: Server): void {
  const s = server as unknown as { _usingWorkers?: boolean; _workers?: unknown[] };
  if (s._usingWorkers === true && s._workers?.length === 0) s._usingWorkers = false;
}
