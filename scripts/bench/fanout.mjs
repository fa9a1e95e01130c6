#!/usr/bin/env node
// Live-event fan-out (docs/DESIGN.md §5): 5,000 open streams of `GET /auth/v1/sse/handle` (500 team
// members, 10 signed-in sessions each, one stream per session), then ONE HTTP request that publishes to
// every member: a key rename (PUT /api/v1/keys/{teamId}/{id}, event 92 to the team). Per stream, the time
// from just before the request is sent to the arrival of the event. Target: p99 ≤ 100 ms with every
// stream served, as the median of ROUNDS rounds (after a warm-up round). The server is the built app in
// its own process (lib/fanout-server.mjs) with the production heartbeat (15 s: a round may meet one, as
// a real event may). This process is the client; both share the machine's CPUs, so it is kept cheap:
// plain TCP sockets with a hand-written request, reading into one shared buffer, and per read only a
// byte search for the event (no HTTP or SSE parsing, no fetch). With BENCH_DATABASE_URL it runs again
// on PostgreSQL, where the event goes through NOTIFY/LISTEN.
import { fork } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { alsoOnPostgres, pct, printResult, round } from './lib/common.mjs';

const MEMBERS = Number(process.env.BENCH_FANOUT_MEMBERS ?? 500);
const SESSIONS = Number(process.env.BENCH_FANOUT_SESSIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_FANOUT_ROUNDS ?? 5);
const STREAMS = MEMBERS * SESSIONS;
const TARGET_MS = 100;
// Far beyond any plausible delivery: a stream that has nothing by then counts as not served.
const ROUND_TIMEOUT_MS = 10_000;
// Streams being opened at once: the server authenticates each (a database lookup) before it is held.
const OPENING = 64;
// The event of a key change as the server frames it (`data: {"code":92,...}`); pings never contain it.
const MARK = '"code":92';
const log = (m) => process.stderr.write(`  ${m}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

function startServer(pgUrl) {
  const script = new URL('./lib/fanout-server.mjs', import.meta.url);
  const args = [String(MEMBERS), String(SESSIONS), ...(pgUrl ? [pgUrl] : [])];
  const child = fork(script, args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ask = () =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send('measure');
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fan-out server exited with ${code}`)));
    child.once('message', (first) =>
      resolve({
        ...first,
        stats: ask,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.send('stop');
          }),
      }),
    );
  });
}

/** Every stream's arrival time of the current round's event (0: not yet), and who to tell when all are in. */
const arrivals = new Float64Array(STREAMS);
let armed = false;
let received = 0;
let allIn = () => {};

// Every socket reads into this one buffer (a read is handled before the next one starts): no Buffer and
// no stream event per read, as the client's CPU time is taken from the server's on a small machine.
const readBuffer = Buffer.alloc(64 * 1024);

/** Opens stream `i` and resolves once the server's `: connected` comment has arrived (it is then held). */
function openStream(port, token, i) {
  return new Promise((resolve, reject) => {
    let head = '';
    let open = false;
    const onRead = (nread, buf) => {
      if (open) {
        if (!armed || arrivals[i] !== 0) return;
        // The first match is in this read only if it ends before nread (beyond lies an older read).
        const at = buf.indexOf(MARK);
        if (at === -1 || at + MARK.length > nread) return;
        arrivals[i] = performance.now();
        if (++received === STREAMS) allIn();
        return;
      }
      head += buf.toString('latin1', 0, nread);
      const status = head.slice(0, head.indexOf('\r\n'));
      if (head.includes('\r\n') && !status.startsWith('HTTP/1.1 200')) {
        socket.destroy();
        return reject(new Error(`stream ${i}: ${status}`));
      }
      if (!head.includes(': connected\n\n')) return;
      open = true;
      resolve(socket);
    };
    const socket = net.connect({ port, host: '127.0.0.1', onread: { buffer: readBuffer, callback: onRead } });
    socket.on('error', reject);
    socket.write(
      `GET /auth/v1/sse/handle HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${token}\r\n\r\n`,
    );
  });
}

async function openAll(server) {
  const sockets = new Array(STREAMS);
  let next = 0;
  await Promise.all(
    Array.from({ length: OPENING }, async () => {
      while (next < STREAMS) {
        const i = next++;
        sockets[i] = await openStream(server.port, server.tokens[i].token, i);
      }
    }),
  );
  return sockets;
}

/** The call that causes the event, on a connection opened beforehand (a browser's keep-alive one). */
function renameKey(server, agent, name) {
  const body = JSON.stringify({ name });
  const req = http.request({
    agent,
    host: '127.0.0.1',
    port: server.port,
    path: `/api/v1/keys/${server.teamId}/${server.keyId}`,
    method: 'PUT',
    headers: {
      authorization: `Bearer ${server.adminToken}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    },
  });
  const answered = new Promise((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, at: performance.now() }));
    });
    req.on('error', reject);
  });
  const sentAt = performance.now();
  req.end(body);
  return { sentAt, answered };
}

async function oneRound(server, agent, name) {
  arrivals.fill(0);
  received = 0;
  armed = true;
  const everyone = new Promise((resolve) => {
    allIn = resolve;
  });
  const { sentAt, answered } = renameKey(server, agent, name);
  const timer = new AbortController();
  const timeout = sleep(ROUND_TIMEOUT_MS, undefined, { signal: timer.signal }).catch(() => {});
  let answer;
  try {
    answer = await answered;
    if (answer.status !== 200) throw new Error(`key rename → ${answer.status}`);
    await Promise.race([everyone, timeout]);
  } finally {
    armed = false;
    timer.abort();
  }
  const ms = [];
  for (const at of arrivals) if (at !== 0) ms.push(at - sentAt);
  return {
    received: ms.length,
    p50: pct(ms, 50),
    p95: pct(ms, 95),
    p99: pct(ms, 99),
    max: Math.max(0, ...ms),
    answerMs: answer.at - sentAt,
  };
}

async function benchOn(label, pgUrl) {
  log(`${label}: seeding ${MEMBERS} members with ${SESSIONS} sessions each…`);
  const server = await startServer(pgUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let sockets = [];
  try {
    const opening = performance.now();
    sockets = await openAll(server);
    const held = (await server.stats()).streams;
    log(`${label}: ${STREAMS} streams open in ${Math.round(performance.now() - opening)} ms`);
    if (held !== STREAMS) throw new Error(`the server holds ${held} streams, not ${STREAMS}`);

    await oneRound(server, agent, 'warm-up');
    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) {
      await sleep(500);
      const before = (await server.stats()).cpuUs;
      const clientBefore = process.cpuUsage();
      const res = await oneRound(server, agent, `round ${r + 1}`);
      const client = process.cpuUsage(clientBefore);
      res.serverCpuMs = ((await server.stats()).cpuUs - before) / 1000;
      res.clientCpuMs = (client.user + client.system) / 1000;
      rounds.push(res);
      log(
        `${label} round ${r + 1}: ${res.received}/${STREAMS} received, p50 ${round(res.p50)} p95 ${round(res.p95)} p99 ${round(res.p99)} max ${round(res.max)} ms (request answered in ${round(res.answerMs)} ms, CPU: server ${round(res.serverCpuMs)} ms, client ${round(res.clientCpuMs)} ms)`,
      );
    }
    const { rss } = await server.stats();
    log(`${label}: server RSS ${Math.round(rss / 2 ** 20)} MB with ${STREAMS} streams`);
    const p99 = median(rounds.map((x) => x.p99));
    const served = Math.min(...rounds.map((x) => x.received));
    const cpu = rounds.map((x) => x.serverCpuMs);
    const latency = {
      case: `${label} 1 event → ${STREAMS} streams (${MEMBERS} members), median of ${ROUNDS} rounds`,
      n: served,
      p50: round(median(rounds.map((x) => x.p50))),
      p95: round(median(rounds.map((x) => x.p95))),
      p99: round(p99),
      max: round(Math.max(...rounds.map((x) => x.max))),
      unit: 'ms',
      target: `p99 ≤ ${TARGET_MS}, all ${STREAMS}`,
      ok: p99 <= TARGET_MS && served === STREAMS,
      rounds: rounds.map((x) => ({
        received: x.received,
        p50: round(x.p50),
        p95: round(x.p95),
        p99: round(x.p99),
        max: round(x.max),
        answerMs: round(x.answerMs),
        serverCpuMs: round(x.serverCpuMs),
        clientCpuMs: round(x.clientCpuMs),
      })),
    };
    // What the server spent on a round (the request and the fan-out): of all figures here, the one that
    // other jobs on the machine skew least, whereas they stretch the latencies.
    const serverCpu = {
      case: `${label} server CPU per event to ${STREAMS} streams`,
      n: cpu.length,
      p50: round(median(cpu)),
      min: round(Math.min(...cpu)),
      max: round(Math.max(...cpu)),
      unit: 'ms CPU',
    };
    return [latency, serverCpu];
  } finally {
    for (const s of sockets) s?.destroy();
    agent.destroy();
    await server.stop();
  }
}

const started = Date.now();
const results = await benchOn('sqlite', undefined);
results.push(...(await alsoOnPostgres(benchOn)));
await printResult(
  'fanout',
  {
    streams: STREAMS,
    members: MEMBERS,
    sessionsPerMember: SESSIONS,
    rounds: ROUNDS,
    client: 'net sockets, shared read buffer, byte search per read',
    seconds: Math.round((Date.now() - started) / 1000),
  },
  results,
);
