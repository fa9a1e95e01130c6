import { type AddressInfo, createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 now: for servers that must know each other's address before they start
 *  (the nodes of TRACKER_NODES). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
