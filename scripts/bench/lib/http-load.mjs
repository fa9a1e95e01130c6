// The load generator of ingest-keepalive.mjs when `wrk` is not installed: its own process, a fixed
// number of keep-alive connections, one request in flight on each (no pipelining), as browsers post
// reports. Slower than wrk (its own CPU competes with the server's on a small machine), so the bench
// says which one measured. Prints {requests, non2xx, errors, seconds} as JSON.
// Usage: node http-load.mjs <url> <connections> <seconds> <origin> <key,key,...>
import http from 'node:http';

const [url, connArg, secArg, origin, keyList] = process.argv.slice(2);
const connections = Number(connArg);
const seconds = Number(secArg);
const keys = keyList.split(',');
// About 100,000 sessions reporting every 10 s: each session's seq increases from one lap to the next.
const SESSIONS = 100_000;
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const target = new URL(url);
let counter = 0;
let requests = 0;
let non2xx = 0;
let errors = 0;
const end = performance.now() + seconds * 1000;

const once = () =>
  new Promise((resolve) => {
    const n = counter++;
    const body = `{"reports":[{"apiKey":"${keys[n % keys.length]}","sessionId":"n-${n % SESSIONS}","ts":${Math.floor(Date.now() / 1000)},"cdnBytes":1000000,"p2pBytes":500000,"seq":${Math.floor(n / SESSIONS)}}]}`;
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          origin,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          requests++;
          if (res.statusCode < 200 || res.statusCode > 299) non2xx++;
          resolve();
        });
      },
    );
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end(body);
  });

const t0 = performance.now();
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (performance.now() < end) await once();
  }),
);
const elapsed = (performance.now() - t0) / 1000;
agent.destroy();
process.stdout.write(`${JSON.stringify({ requests, non2xx, errors, seconds: elapsed })}\n`);
