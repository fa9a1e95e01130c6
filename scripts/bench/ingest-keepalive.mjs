#!/usr/bin/env node
// Ingest as browsers send it: one report per POST /stats/v1/ingest over keep-alive connections, with
// the Origin of a page of a customer's verified domain and a JSON body (the server built as in
// production, NODE_ENV=production: lib/bench-server.mjs), against a bare Fastify route answering 202 `{}` (the
// ceiling), both measured in this run with the same client and concurrency, in alternating rounds so
// that the machine's other load weighs on both alike. Targets (docs/DESIGN.md §7): requests/s and the
// server's CPU per request each ≥ 70 % of the ceiling's, by the median ratio of the rounds (what other
// jobs on the machine skew least). Each server runs in its own
// process; the client is `wrk` when installed (C, one thread, cheap per request), else
// lib/http-load.mjs in another process.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printResult, round, startServer } from './lib/common.mjs';

const SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_INGEST_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_INGEST_CONNECTIONS ?? 50);
const TARGET = 0.7;
const CPU_TARGET = 0.7;
const log = (m) => process.stderr.write(`  ${m}\n`);

const hasWrk = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk prints its version and exits with 1; only a missing binary is ENOENT.
    return err.code !== 'ENOENT';
  }
})();

const dir = mkdtempSync(join(tmpdir(), 'tlprt-bench-ingest-'));

/** The wrk script: a fresh body per request, about 100,000 sessions reporting in turn (seq increases
 *  from one lap to the next), ts = now, the keys in turn. */
function wrkScript(keys, origin) {
  const file = join(dir, `ingest-${keys.length}.lua`);
  writeFileSync(
    file,
    `local keys = {${keys.map((k) => `"${k}"`).join(',')}}
local counter = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Origin"] = "${origin}"
request = function()
  counter = counter + 1
  local body = string.format('{"reports":[{"apiKey":"%s","sessionId":"w-%d","ts":%d,"cdnBytes":1000000,"p2pBytes":500000,"seq":%d}]}',
    keys[(counter % #keys) + 1], counter % 100000, os.time(), math.floor(counter / 100000))
  return wrk.format(nil, "/stats/v1/ingest", nil, body)
end
`,
  );
  return file;
}

function runClient(server, seconds) {
  const url = `http://127.0.0.1:${server.port}/stats/v1/ingest`;
  const keys = server.keys.length ? server.keys : ['bare'];
  const [cmd, args] = hasWrk
    ? ['wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '-s', wrkScript(keys, server.customerOrigin), url]]
    : [
        process.execPath,
        [
          new URL('./lib/http-load.mjs', import.meta.url).pathname,
          url,
          String(CONNECTIONS),
          String(seconds),
          server.customerOrigin,
          keys.join(','),
        ],
      ];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${cmd} exited with ${code}: ${out}`));
      if (!hasWrk) {
        const r = JSON.parse(out.trim().split('\n').pop());
        return resolve({ rps: r.requests / r.seconds, requests: r.requests, bad: r.non2xx + r.errors });
      }
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
      const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
      const bad =
        Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) +
        [...(/Socket errors:(.*)/.exec(out)?.[1] ?? '').matchAll(/\d+/g)].reduce(
          (s, m) => s + Number(m[0]),
          0,
        );
      resolve({ rps, requests, bad });
    });
    child.on('error', reject);
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

const ceiling = await startServer('bare');
// The load comes from one address: its anonymous budget is lifted (the hot path is measured, not the 429).
const ours = await startServer('app', {
  keys: 10,
  env: {
    INGEST_REPORTS_PER_ADDRESS_PER_MINUTE: '100000000',
    INGEST_REPORTS_PER_KEY_PER_MINUTE: '1000000000',
  },
});
const results = [];
try {
  // What a browser gets back, checked once before timing.
  const probe = await fetch(`http://127.0.0.1:${ours.port}/stats/v1/ingest`, {
    method: 'POST',
    headers: { origin: ours.customerOrigin, 'content-type': 'application/json' },
    body: JSON.stringify({
      reports: [
        {
          apiKey: ours.keys[0],
          sessionId: 'probe',
          ts: Math.floor(Date.now() / 1000),
          cdnBytes: 1,
          p2pBytes: 0,
          seq: 1,
        },
      ],
    }),
  });
  const answer = await probe.text();
  if (probe.status !== 202 || answer !== '{"accepted":1,"rejected":0,"errors":[]}')
    throw new Error(`ingest probe → ${probe.status} ${answer}`);
  if (probe.headers.get('access-control-allow-origin') !== ours.customerOrigin)
    throw new Error("ingest probe: no CORS answer for the customer domain's origin");

  log(
    `client: ${hasWrk ? 'wrk, 1 thread' : 'lib/http-load.mjs (wrk not installed)'}, ${CONNECTIONS} connections`,
  );
  for (const s of [ceiling, ours]) await runClient(s, 2); // warm-up (JIT, caches)
  const runs = { ceiling: [], ours: [] };
  // The server's CPU time per request: what other jobs on the machine skew least.
  const cpuPer = { ceiling: [], ours: [] };
  let requests = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? ['ceiling', 'ours'] : ['ours', 'ceiling'];
    for (const which of order) {
      const server = which === 'ceiling' ? ceiling : ours;
      const before = (await server.stats()).cpuUs;
      const res = await runClient(server, SECONDS);
      const cpu = ((await server.stats()).cpuUs - before) / res.requests;
      if (res.bad) throw new Error(`${which}: ${res.bad} answers were not 2xx`);
      if (which === 'ours') requests += res.requests;
      runs[which].push(res.rps);
      cpuPer[which].push(cpu);
      log(
        `round ${r + 1}: ${which} ${Math.round(res.rps)} req/s, ${round(cpu)} µs of server CPU per request`,
      );
    }
  }
  const counted = await ours.stats();
  log(`server: ${counted.reportsReceived} reports received, RSS ${Math.round(counted.rss / 2 ** 20)} MB`);
  if (counted.reportsReceived < requests)
    throw new Error('the server received fewer reports than were answered');

  /** Median, least and most of a figure over the rounds, `scale`d and rounded. */
  const spread = (xs, scale, rounded) => ({
    n: xs.length,
    p50: rounded(median(xs) * scale),
    min: rounded(Math.min(...xs) * scale),
    max: rounded(Math.max(...xs) * scale),
  });
  /** Each round's ratio of ours to the ceiling, in percent, against `target` (a fraction). */
  const ratioRow = (name, ratios, target) => ({
    case: name,
    ...spread(ratios, 100, round),
    unit: '%',
    target: `≥ ${target * 100}`,
    ok: median(ratios) >= target,
  });
  const row = (name, xs) => ({ case: name, ...spread(xs, 1, Math.round), unit: 'req/s' });
  const cpuRow = (name, xs) => ({ case: name, ...spread(xs, 1, round), unit: 'µs CPU/req' });
  results.push(row(`bare Fastify ceiling (keep-alive, c=${CONNECTIONS})`, runs.ceiling));
  results.push(row(`ingest single report (keep-alive, c=${CONNECTIONS})`, runs.ours));
  const byRate = ratioRow(
    'ingest / ceiling, by requests/s',
    runs.ours.map((x, i) => x / runs.ceiling[i]),
    TARGET,
  );
  results.push(byRate);
  results.push(cpuRow('bare Fastify ceiling, server CPU', cpuPer.ceiling));
  results.push(cpuRow('ingest single report, server CPU', cpuPer.ours));
  // Each round's ceiling CPU per request over ours: 100 % would be a report as cheap as a bare route.
  const byCpu = ratioRow(
    'ingest / ceiling, by server CPU per request',
    cpuPer.ours.map((x, i) => cpuPer.ceiling[i] / x),
    CPU_TARGET,
  );
  results.push(byCpu);
  log(
    `ingest / ceiling: ${byRate.p50} % by requests/s (target ≥ ${TARGET * 100} %), ${byCpu.p50} % by server CPU per request (target ≥ ${CPU_TARGET * 100} %)`,
  );
} finally {
  await Promise.all([ceiling.stop(), ours.stop()]);
  rmSync(dir, { recursive: true, force: true });
}

await printResult(
  'ingest-keepalive',
  {
    client: hasWrk ? 'wrk -t1' : 'node http-load',
    origin: ours.customerOrigin,
    nodeEnv: 'production',
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds: ROUNDS,
  },
  results,
);
