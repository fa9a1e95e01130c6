import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay to `target` on `port` that can be cut (listener closed, every connection destroyed), or
 * lose the answer to the next request whose text holds `loseAnswerTo(text)`: the request goes through
 * and ClickHouse applies it, then the node's connection is destroyed instead of getting the answer.
 */
export function relay(port: number, target: URL) {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  let losing: string | undefined;
  let lost = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        let sent = '';
        let drop = false;
        client.on('data', (d: Buffer) => {
          sent = (sent + d.toString('latin1')).slice(-4096);
          if (losing && sent.includes(losing)) {
            losing = undefined;
            drop = true;
          }
          upstream.write(d);
        });
        upstream.on('data', (d: Buffer) => {
          if (!drop) return void client.write(d);
          lost++;
          client.destroy();
          upstream.destroy();
        });
        client.on('close', () => upstream.end());
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const loseAnswerTo = (text: string) => {
    losing = text;
  };
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server?.close(() => resolve());
    });
  return { open, cut, loseAnswerTo, lost: () => lost };
}
