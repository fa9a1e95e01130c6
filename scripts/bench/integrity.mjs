#!/usr/bin/env node
// The integrity service of docs/DESIGN.md §11 and what it costs a P2P segment. The built server runs in its own
// process with the demo stream on; its segments are hashed from disk, so every answer after the first
// comes from the hash cache, as it does for a popular segment that many viewers take from peers.
// 1. Hashes answered per second from the cache: keep-alive connections each with one request in flight,
//    cycling over the stream's segments.
// 2. The delay verification adds to a segment from a peer, from its last byte received to its hand-over
//    to the player: the plugin's own SegmentGuard (packages/player/src/integrity.ts, bundled here for
//    Node) with a fresh memory per segment, so each one pays the question to the server and the SHA-256
//    of its bytes; the hash is asked at the moment the last byte arrives (the plugin asks when the first
//    byte does, so this is the worst case). Target (the issue): p95 ≤ 50 ms with the hash cached.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { pct, printResult, round, startServer } from './lib/common.mjs';

const SECONDS = Number(process.env.BENCH_INTEGRITY_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_INTEGRITY_CONNECTIONS ?? 32);
const SEGMENTS_CHECKED = Number(process.env.BENCH_INTEGRITY_SEGMENTS ?? 400);
const TARGET_P95_MS = 50;
const log = (m) => process.stderr.write(`  ${m}\n`);

const root = new URL('../../', import.meta.url).pathname;
const streamDir = join(root, 'apps/server/assets/demo-stream');
const segments = readdirSync(streamDir)
  .filter((f) => f.endsWith('.ts'))
  .sort();

const server = await startServer('app', {
  keys: 1,
  env: {
    NODE_ENV: 'development',
    INTEGRITY_PER_ADDRESS_PER_MINUTE: '10000000',
    INTEGRITY_PER_KEY_PER_MINUTE: '100000000',
    INGEST_REPORTS_PER_ADDRESS_PER_MINUTE: '100000000',
    INGEST_REPORTS_PER_KEY_PER_MINUTE: '1000000000',
  },
});
const key = server.keys[0];
const segmentUrl = (name) => `${server.origin}/demo/stream/${name}`;
const integrityPath = (name) => `/player/v1/integrity?${new URLSearchParams({ key, url: segmentUrl(name) })}`;

// --- 1. Cached answers per second --------------------------------------------------------------------
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
const get = (path) =>
  new Promise((resolve) => {
    const req = http.get({ agent, host: '127.0.0.1', port: server.port, path }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(0));
  });
for (const s of segments) {
  const status = await get(integrityPath(s));
  if (status !== 200) throw new Error(`integrity answered ${status} for ${s}`);
}
const cpuBefore = (await server.stats()).cpuUs;
let answered = 0;
let refused = 0;
const end = performance.now() + SECONDS * 1000;
const started = performance.now();
await Promise.all(
  Array.from({ length: CONNECTIONS }, async (_, c) => {
    for (let n = c; performance.now() < end; n += CONNECTIONS) {
      if ((await get(integrityPath(segments[n % segments.length]))) === 200) answered++;
      else refused++;
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;
const { cpuUs, rss } = await server.stats();
const perSecond = answered / elapsed;
const cpuPerAnswer = (cpuUs - cpuBefore) / answered;
log(
  `${answered} cached hashes in ${elapsed.toFixed(1)} s (${refused} not 200), server CPU ${round(cpuPerAnswer)} µs each`,
);

// --- 1b. A browser's single report on the same server, client and connections: the yardstick -------------
// Issue 36: a cached answer must cost the server no more CPU than one ingest report (a viewer asks ~4
// answers per report).
const post = (body) =>
  new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port: server.port,
        path: '/stats/v1/ingest',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          origin: server.origin,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
const report = (n) =>
  `{"reports":[{"apiKey":"${key}","sessionId":"b-${n % 5000}","ts":${Math.floor(Date.now() / 1000)},"cdnBytes":1000000,"p2pBytes":500000,"seq":${Math.floor(n / 5000)}}]}`;
const ingestCpuBefore = (await server.stats()).cpuUs;
let reported = 0;
const ingestEnd = performance.now() + SECONDS * 1000;
await Promise.all(
  Array.from({ length: CONNECTIONS }, async (_, c) => {
    for (let n = c; performance.now() < ingestEnd; n += CONNECTIONS)
      if ((await post(report(n))) === 202) reported++;
  }),
);
const cpuPerReport = ((await server.stats()).cpuUs - ingestCpuBefore) / reported;
log(`${reported} single reports, server CPU ${round(cpuPerReport)} µs each`);

// --- 2. Delay added to a P2P segment --------------------------------------------------------------------
const bundleDir = join(tmpdir(), `tlprt-bench-integrity-${process.pid}`);
await build({
  entryPoints: [join(root, 'packages/player/src/integrity.ts')],
  outfile: join(bundleDir, 'integrity.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
});
const { IntegrityReferences, SegmentGuard } = await import(join(bundleDir, 'integrity.mjs'));
rmSync(bundleDir, { recursive: true, force: true });
const bytes = segments.map((s) => readFileSync(join(streamDir, s)));
const serverBase = `http://127.0.0.1:${server.port}`;
const delays = [];
let verified = 0;
for (let i = 0; i < SEGMENTS_CHECKED; i++) {
  const n = i % segments.length;
  const data = bytes[n].buffer.slice(bytes[n].byteOffset, bytes[n].byteOffset + bytes[n].byteLength);
  const sink = { accepted() {}, rejected() {}, unverifiable() {}, streamRefused() {}, dropPeer() {} };
  const guard = new SegmentGuard(new IntegrityReferences({ server: serverBase, key }), sink);
  const t0 = performance.now();
  if (await guard.validateP2P(segmentUrl(segments[n]), undefined, data)) verified++;
  delays.push(performance.now() - t0);
}
if (verified !== SEGMENTS_CHECKED)
  throw new Error(`${SEGMENTS_CHECKED - verified} segments failed verification`);
const meanSize = bytes.reduce((a, b) => a + b.length, 0) / bytes.length;
log(`${verified} segments of ${Math.round(meanSize / 1000)} kB verified, p95 ${round(pct(delays, 95))} ms`);
await server.stop();

const p95 = round(pct(delays, 95));
await printResult('integrity', { connections: CONNECTIONS }, [
  {
    case: `cached hashes answered (${CONNECTIONS} keep-alive connections)`,
    n: answered,
    p50: round(perSecond),
    p95: round(perSecond),
    max: round(perSecond),
    unit: 'hashes/s',
  },
  {
    case: 'server CPU per cached answer',
    n: answered,
    p50: round(cpuPerAnswer),
    p95: round(cpuPerAnswer),
    max: round(cpuPerAnswer),
    unit: 'µs',
  },
  {
    case: 'server CPU per single ingest report (same server, client and connections)',
    n: reported,
    p50: round(cpuPerReport),
    p95: round(cpuPerReport),
    max: round(cpuPerReport),
    unit: 'µs',
  },
  {
    case: 'server CPU: cached answer / single report',
    n: answered,
    p50: round(cpuPerAnswer / cpuPerReport),
    p95: round(cpuPerAnswer / cpuPerReport),
    max: round(cpuPerAnswer / cpuPerReport),
    unit: '×',
    target: '≤ 1',
    ok: cpuPerAnswer <= cpuPerReport,
  },
  {
    case: `delay added to a P2P segment (${Math.round(meanSize / 1000)} kB, hash cached on the server)`,
    n: delays.length,
    p50: round(pct(delays, 50)),
    p95,
    p99: round(pct(delays, 99)),
    max: round(Math.max(...delays)),
    unit: 'ms',
    target: `p95 ≤ ${TARGET_P95_MS} ms`,
    ok: p95 <= TARGET_P95_MS,
  },
  {
    case: 'server RSS after the run',
    n: 1,
    p50: round(rss / 1e6),
    p95: round(rss / 1e6),
    max: round(rss / 1e6),
    unit: 'MB',
  },
]);
