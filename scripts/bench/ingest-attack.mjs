#!/usr/bin/env node
// Attacks on the ingest, rerun with bounded loops against the built server (its own process,
// reports sent without a reporting token and without Origin, as a script would), while a side client (a
// process of its own at 127.0.0.9, keep-alive) reads the server time every 100 ms and posts its own
// viewer's report every second:
// 1. one address floods: for a minute (the budget window), 50 keep-alive connections from 127.0.0.1 post
//    single reports, each of a new made-up session (the attack that added 822,000 viewers in 43 s);
//    counted: the reports accepted (the fake viewers this address added) in the busiest 60 s, and the
//    429s (the budget counts fixed windows: a run longer than 60 s shows up to twice it across a window's
//    end);
// 2. replay memory flood: on a fresh server with INGEST_REPLAY_MEMORY_MB=64, zero-byte reports of new
//    sessions (200-character ids, a seq each) from 1,000 loopback addresses in turn (127.1.x.y: Linux
//    routes all of 127/8 to loopback), ~50 in flight, for 45 s; the server's RSS sampled every second;
// 3. failed authentication: for 10 s, 50 connections from 127.0.0.1 post 1 MiB JSON bodies (a batch of
//    reports) each with a made-up `Authorization: Bearer tlprt_api_…` token (a new one per request),
//    while the side client posts its single report every 100 ms (its figures are the point here).
// Targets: the accepted reports of one address per minute ≤ its budget (INGEST_REPORTS_PER_ADDRESS_
// PER_MINUTE); the side client's p99 latency ≤ 1000 ms and every one of its reports accepted in each
// phase; the server's RSS growth during the replay flood ≤ 500 MB; during the made-up token flood the
// side client's reports at p99 ≤ 100 ms. The attacker runs in a process of its own (Node http,
// keep-alive agent, bodies built from fixed parts).
// Environment: BENCH_INGEST_ATTACK_FLOOD_SECONDS (60), BENCH_INGEST_ATTACK_REPLAY_SECONDS (45),
// BENCH_INGEST_ATTACK_TOKEN_SECONDS (10) — 0 skips that phase —, BENCH_INGEST_ATTACK_CONNECTIONS (50),
// BENCH_INGEST_ATTACK_ADDRESSES (1000), BENCH_INGEST_ATTACK_REPLAY_MB (64).
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { pct, printResult, round, startServer } from './lib/common.mjs';

const FLOOD_SECONDS = Number(process.env.BENCH_INGEST_ATTACK_FLOOD_SECONDS ?? 60);
const REPLAY_SECONDS = Number(process.env.BENCH_INGEST_ATTACK_REPLAY_SECONDS ?? 45);
const CONNECTIONS = Number(process.env.BENCH_INGEST_ATTACK_CONNECTIONS ?? 50);
const ADDRESSES = Number(process.env.BENCH_INGEST_ATTACK_ADDRESSES ?? 1000);
const REPLAY_MB = Number(process.env.BENCH_INGEST_ATTACK_REPLAY_MB ?? 64);
const TOKEN_SECONDS = Number(process.env.BENCH_INGEST_ATTACK_TOKEN_SECONDS ?? 10);
const TARGET_TOKEN_FLOOD_P99_MS = 100;
const SIDE_ADDRESS = '127.0.0.9';
const FLOOD_ADDRESS = '127.0.0.1';
const TARGET_P99_MS = 1000;
const TARGET_RSS_MB = 500;
const TIMEOUT_MS = 2000;
const INGEST = '/stats/v1/ingest';
const SERVER_TIME = '/auth/get_time_server';
const log = (m) => process.stderr.write(`  ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes) => Math.round(bytes / 2 ** 20);
const nowSec = () => Math.floor(Date.now() / 1000);

/** One request over `agent` from `localAddress`; resolves {status, body, ms} (status 0: no answer in
 *  time or a socket error). */
function request(agent, port, localAddress, method, path, body, extraHeaders = {}) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const headers = body === undefined ? {} : { 'content-type': 'application/json' };
    if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
    Object.assign(headers, extraHeaders);
    const req = http.request(
      { agent, host: '127.0.0.1', port, localAddress, method, path, headers, timeout: TIMEOUT_MS },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode, body: text, ms: performance.now() - t0 }));
        res.on('error', () => resolve({ status: 0, body: '', ms: performance.now() - t0 }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, body: '', ms: Math.max(TIMEOUT_MS, performance.now() - t0) }));
    req.end(body);
  });
}

const acceptedOf = (body) => Number(/"accepted":(\d+)/.exec(body)?.[1] ?? 0);

/**
 * The side client: from its own address, reads the server time every 100 ms and posts one report of its
 * own session every `reportEveryMs` (1 s; seq increasing), until its parent says stop; then answers the read latencies
 * (ms; no answer within 2 s counts as 2000), the report latencies, and how many failed or were refused.
 */
async function sideClientProcess([port, key, reportEveryMs = '1000']) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  const reads = [];
  const posts = [];
  /** When each report was sent (epoch ms): a phase tells the attack's window from the calm around it. */
  const postedAt = [];
  let readFailures = 0;
  let sent = 0;
  let accepted = 0;
  const refusals = {};
  let running = true;
  process.on('message', () => {
    running = false;
  });
  const session = `side-${randomBytes(6).toString('hex')}`;
  const reading = (async () => {
    while (running) {
      const next = sleep(100);
      const r = await request(agent, Number(port), SIDE_ADDRESS, 'GET', SERVER_TIME);
      if (r.status !== 200) readFailures++;
      reads.push(r.ms);
      await next;
    }
  })();
  const reporting = (async () => {
    for (let seq = 1; running; seq++) {
      const next = sleep(Number(reportEveryMs));
      postedAt.push(Date.now());
      const body = `{"reports":[{"apiKey":"${key}","sessionId":"${session}","ts":${nowSec()},"cdnBytes":2000000,"p2pBytes":1000000,"seq":${seq}}]}`;
      const r = await request(agent, Number(port), SIDE_ADDRESS, 'POST', INGEST, body);
      sent++;
      if (r.status === 202 && acceptedOf(r.body) === 1) accepted++;
      else {
        const why = `${r.status} ${r.body.slice(0, 120)}`;
        refusals[why] = (refusals[why] ?? 0) + 1;
      }
      posts.push(r.ms);
      await next;
    }
  })();
  await Promise.all([reading, reporting]);
  agent.destroy();
  process.send({ reads, posts, postedAt, readFailures, sent, accepted, refusals }, () => process.exit(0));
}

/**
 * The attacker: `connections` requests in flight for `seconds`, each one report of a new session
 * (`sessionLength` characters) from `addresses` in turn, over a keep-alive agent. Answers what came
 * back, and the accepted reports per 100 ms (by answer time) for the per-minute count.
 */
async function floodProcess([json]) {
  const { port, keys, addresses, seconds, connections, sessionLength, bytes } = JSON.parse(json);
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: connections,
    maxFreeSockets: 1024,
    maxTotalSockets: Math.max(connections, addresses.length) + connections,
  });
  // The bodies from fixed parts: only the session id's counter and ts change.
  const run = randomBytes(4).toString('hex');
  const fill = 'x'.repeat(Math.max(0, sessionLength - run.length - 10));
  const sessionOf = (n) => `${run}${fill}${n.toString(36).padStart(10, '0')}`;
  const heads = keys.map((k) => `{"reports":[{"apiKey":"${k}","sessionId":"`);
  const tail = `,"cdnBytes":${bytes},"p2pBytes":0,"seq":1}]}`;
  let ts = nowSec();
  const tsTimer = setInterval(() => {
    ts = nowSec();
  }, 1000);
  const statuses = {};
  const reasons = {};
  let counter = 0;
  let requests = 0;
  let accepted = 0;
  let rejected = 0;
  const acceptedPerTick = [];
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const progress = setInterval(() => {
    log(
      `  attacker ${Math.round((performance.now() - t0) / 1000)} s: ${requests} requests, ${accepted} accepted, ${statuses[429] ?? 0} × 429`,
    );
  }, 10_000);

  const one = async () => {
    const n = counter++;
    const body = `${heads[n % heads.length]}${sessionOf(n)}","ts":${ts}${tail}`;
    const r = await request(agent, port, addresses[n % addresses.length], 'POST', INGEST, body);
    requests++;
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (r.status === 202) {
      const a = acceptedOf(r.body);
      accepted += a;
      const tick = Math.floor((performance.now() - t0) / 100);
      acceptedPerTick[tick] = (acceptedPerTick[tick] ?? 0) + a;
      if (a === 0) {
        rejected++;
        const why = /"message":"([^"]*)"/.exec(r.body)?.[1] ?? r.body.slice(0, 80);
        reasons[why] = (reasons[why] ?? 0) + 1;
      }
    }
  };
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) await one();
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  clearInterval(progress);
  clearInterval(tsTimer);
  agent.destroy();
  // The most accepted in any 60 s (600 ticks of 100 ms): what "per minute" means whatever the run's length.
  let perMinute = 0;
  let sum = 0;
  for (let i = 0; i < acceptedPerTick.length; i++) {
    sum += acceptedPerTick[i] ?? 0;
    if (i >= 600) sum -= acceptedPerTick[i - 600] ?? 0;
    perMinute = Math.max(perMinute, sum);
  }
  process.send(
    {
      requests,
      accepted,
      rejected,
      reasons,
      statuses,
      seconds: round(elapsed),
      perMinute,
      firstSession: sessionOf(0),
      firstKey: keys[0],
    },
    () => process.exit(0),
  );
}

/**
 * The made-up token attacker: `connections` requests in flight for `seconds` from `address`, each a
 * 1 MiB JSON body (a batch of reports, what a server-side reporter sends) with a new made-up token.
 * Answers the statuses (0: the connection ended before an answer) and the body bytes offered.
 */
async function tokenFloodProcess([json]) {
  const { port, key, address, seconds, connections } = JSON.parse(json);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const report = `{"apiKey":"${key}","sessionId":"s-000000","ts":${nowSec()},"cdnBytes":1000,"p2pBytes":0,"seq":1}`;
  const count = Math.floor((2 ** 20 - 20) / (report.length + 1));
  let body = `{"reports":[${Array(count).fill(report).join(',')}]}`;
  body += ' '.repeat(2 ** 20 - Buffer.byteLength(body));
  const payload = Buffer.from(body);
  const statuses = {};
  let requests = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const token = `tlprt_api_${randomBytes(32).toString('base64url')}`;
        const r = await request(agent, port, address, 'POST', INGEST, payload, {
          authorization: `Bearer ${token}`,
        });
        requests++;
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  process.send({ requests, statuses, seconds: round(elapsed), bytesOffered: requests * payload.length }, () =>
    process.exit(0),
  );
}

/** A child of this file in `role`; resolves what it sends back after `stop()` (or by itself). */
function child(role, args) {
  const c = fork(fileURLToPath(import.meta.url), [role, ...args], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const answer = new Promise((resolve, reject) => {
    c.once('message', resolve);
    c.once('exit', (code) => reject(new Error(`${role} exited with ${code} before answering`)));
  });
  answer.catch(() => {});
  return {
    answer,
    stop: () => {
      if (c.connected) c.send('stop');
      return answer;
    },
    kill: () => {
      if (c.exitCode === null) c.kill();
    },
  };
}

/** The built server's configuration for this bench's settings (the defaults it runs with). */
async function configOf(env) {
  const { loadConfig } = await import(new URL('../../apps/server/dist/config.js', import.meta.url).href);
  return loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: 'sqlite::memory:',
    PUBLIC_URL: 'http://bench.test',
    ...env,
  });
}

class ServerCrashed extends Error {}

/** Samples the server's stats every second until stopped; throws ServerCrashed if it stops answering. */
function sampler(server) {
  const samples = [];
  let running = true;
  const alive = () => {
    try {
      process.kill(server.pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const once = async () => {
    if (!alive()) throw new ServerCrashed('the server process is gone');
    const s = await Promise.race([server.stats(), sleep(10_000).then(() => null)]);
    if (s === null)
      throw new ServerCrashed(alive() ? 'the server did not answer for 10 s' : 'the server process is gone');
    samples.push({ at: performance.now(), ...s });
    return s;
  };
  const loop = (async () => {
    while (running) {
      const next = sleep(1000);
      await once();
      await next;
    }
  })();
  loop.catch(() => {});
  return {
    samples,
    stop: async () => {
      running = false;
      await loop;
      return once();
    },
  };
}

/** The side client's rows for a phase. */
function sideRows(name, side) {
  const p99 = pct(side.reads, 99);
  const all = side.sent > 0 && side.accepted === side.sent;
  return [
    {
      case: `${name}: side client, server time every 100 ms`,
      n: side.reads.length,
      p50: round(pct(side.reads, 50)),
      p95: round(pct(side.reads, 95)),
      p99: round(p99),
      max: round(Math.max(...side.reads)),
      unit: 'ms',
      target: `p99 ≤ ${TARGET_P99_MS}`,
      ok: side.readFailures === 0 && p99 <= TARGET_P99_MS,
    },
    {
      case: `${name}: side client, its reports every 1 s (latency)`,
      n: side.posts.length,
      p50: round(pct(side.posts, 50)),
      p95: round(pct(side.posts, 95)),
      p99: round(pct(side.posts, 99)),
      max: round(Math.max(...side.posts)),
      unit: 'ms',
    },
    {
      case: `${name}: side client, its reports accepted`,
      n: side.sent,
      p50: side.accepted,
      unit: 'reports',
      target: `all ${side.sent}`,
      ok: all,
    },
  ];
}

/** Runs `attack` against a fresh server while the side client reads and reports; stops both. */
async function phase(name, env, attack, { reportEveryMs = 1000, calmMs = 2000 } = {}) {
  log(`phase: ${name}`);
  const server = await startServer('app', { keys: 10, env });
  const side = child('side-client', [String(server.port), server.keys[0], String(reportEveryMs)]);
  const sampling = sampler(server);
  let attacker;
  try {
    await sleep(calmMs); // the side client's first figures, the idle RSS
    // The server's CPU time over the attack (a share of one core): how busy it kept the server.
    let cpu = {};
    const window = {};
    const out = await attack(server, sampling, async (cfg, role = 'flood') => {
      const before = sampling.samples.at(-1);
      window.from = Date.now();
      attacker = child(role, [JSON.stringify({ port: server.port, ...cfg })]);
      const answer = await attacker.answer;
      window.to = Date.now();
      const after = sampling.samples.at(-1);
      const share = (after.cpuUs - before.cpuUs) / ((after.at - before.at) * 1000);
      cpu = { serverCpuPercent: Math.round(share * 100) };
      return answer;
    });
    await sleep(1000);
    const last = await sampling.stop();
    const sideOut = await side.stop();
    log(
      `side client: ${sideOut.reads.length} reads, p99 ${round(pct(sideOut.reads, 99))} ms, ${sideOut.accepted} of ${sideOut.sent} reports accepted${Object.keys(sideOut.refusals).length ? ` (refused: ${JSON.stringify(sideOut.refusals)})` : ''}`,
    );
    return { out, side: sideOut, samples: sampling.samples, last, window, ...cpu };
  } finally {
    attacker?.kill();
    side.kill();
    await Promise.race([server.stop(), sleep(10_000)]);
  }
}

async function bench() {
  const results = [];
  const phases = {};

  // 1. One address floods.
  if (FLOOD_SECONDS > 0) await oneAddress(results, phases);
  // 2. Replay memory flood from many addresses.
  if (REPLAY_SECONDS > 0) await replayFlood(results, phases);
  // 3. Made-up tokens with 1 MiB bodies.
  if (TOKEN_SECONDS > 0) await tokenFlood(results, phases);

  await printResult(
    'ingest-attack',
    {
      client: 'node http (keep-alive agent), its own process',
      connections: CONNECTIONS,
      phases,
    },
    results,
  );
}

async function oneAddress(results, phases) {
  const budget = (await configOf({})).ingest.perAddressPerMinute;
  const flood = await phase(`one address floods for ${FLOOD_SECONDS} s`, {}, async (server, _s, attack) => {
    const r = await attack({
      keys: [server.keys[0]],
      addresses: [FLOOD_ADDRESS],
      seconds: FLOOD_SECONDS,
      connections: CONNECTIONS,
      sessionLength: 24,
      bytes: 1_000_000,
    });
    log(
      `attacker: ${r.requests} requests in ${r.seconds} s (${Math.round(r.requests / r.seconds)}/s), ${r.accepted} reports accepted (${r.perMinute} in the busiest 60 s), ${r.statuses[429] ?? 0} × 429, answers ${JSON.stringify(r.statuses)}`,
    );
    return r;
  });
  const f = flood.out;
  results.push({
    case: `one address, ${CONNECTIONS} keep-alive connections, a new session per report: fake viewers added per minute`,
    n: f.requests,
    p50: f.perMinute,
    max: f.accepted,
    unit: 'reports/min',
    target: `≤ ${budget}`,
    ok: f.perMinute <= budget,
  });
  results.push({
    case: 'one address floods: requests answered 429',
    n: f.requests,
    p50: f.statuses[429] ?? 0,
    unit: 'answers',
  });
  results.push(...sideRows('one address floods', flood.side));
  phases.oneAddress = {
    seconds: f.seconds,
    requests: f.requests,
    requestsPerSecond: Math.round(f.requests / f.seconds),
    accepted: f.accepted,
    acceptedBusiest60s: f.perMinute,
    perAddressBudget: budget,
    answers: f.statuses,
    refusedReports: f.reasons,
    serverRssMB: mb(flood.last.rss),
    serverCpuPercent: flood.serverCpuPercent,
    sideRefusals: flood.side.refusals,
  };
}

async function replayFlood(results, phases) {
  const addresses = Array.from(
    { length: ADDRESSES },
    (_, i) => `127.1.${Math.floor(i / 250)}.${(i % 250) + 1}`,
  );
  const replayEnv = { INGEST_REPLAY_MEMORY_MB: String(REPLAY_MB) };
  let forgottenCheck = 'not tried (no session evicted)';
  const replay = await phase(
    `replay memory flood (${REPLAY_MB} MB) from ${ADDRESSES} addresses for ${REPLAY_SECONDS} s`,
    replayEnv,
    async (server, sampling, attack) => {
      const idle = sampling.samples.at(-1);
      const from = sampling.samples.length - 1;
      const r = await attack({
        keys: server.keys.slice(1),
        addresses,
        seconds: REPLAY_SECONDS,
        connections: CONNECTIONS,
        sessionLength: 200,
        bytes: 0,
      });
      const s = sampling.samples.at(-1);
      log(
        `attacker: ${r.requests} requests in ${r.seconds} s (${Math.round(r.requests / r.seconds)}/s), ${r.accepted} accepted, answers ${JSON.stringify(r.statuses)}; server RSS ${mb(s.rss)} MB, replay memory ${s.seenBytes === undefined ? '?' : `${mb(s.seenBytes)} MB`}, ${s.seenEvicted ?? '?'} sessions evicted`,
      );
      // A session pushed out of memory: its next report is refused, not counted again.
      if ((s.seenEvicted ?? 0) > 0) {
        const agent = new http.Agent({ keepAlive: false });
        const body = `{"reports":[{"apiKey":"${r.firstKey}","sessionId":"${r.firstSession}","ts":${nowSec()},"cdnBytes":0,"p2pBytes":0,"seq":2}]}`;
        const a = await request(agent, server.port, '127.0.0.10', 'POST', INGEST, body);
        forgottenCheck = `${a.status} ${a.body.slice(0, 160)}`;
        log(`the first attacking session's next report: ${forgottenCheck}`);
      }
      return { ...r, idle, from };
    },
  );
  const rp = replay.out;
  const during = replay.samples.slice(rp.from);
  const rssEverySecond = during.map((x) => x.rss);
  const peak = Math.max(...during.map((x) => x.rss));
  const growth = mb(peak - rp.idle.rss);
  const seenMax = Math.max(0, ...during.map((x) => x.seenBytes ?? 0));
  results.push({
    case: `replay flood (INGEST_REPLAY_MEMORY_MB=${REPLAY_MB}, ${ADDRESSES} addresses): server RSS`,
    n: during.length,
    min: mb(rp.idle.rss),
    p50: mb(pct(rssEverySecond, 50)),
    max: mb(peak),
    unit: 'MB',
  });
  results.push({
    case: 'replay flood: server RSS growth (peak − idle)',
    n: 1,
    p50: growth,
    unit: 'MB',
    target: `≤ ${TARGET_RSS_MB}`,
    ok: growth <= TARGET_RSS_MB,
  });
  results.push({
    case: 'replay flood: new sessions accepted',
    n: rp.requests,
    p50: rp.accepted,
    unit: 'sessions',
  });
  if (replay.last.seenEvicted !== undefined)
    results.push({
      case: 'replay flood: sessions evicted from the replay memory',
      n: rp.accepted,
      p50: replay.last.seenEvicted,
      unit: 'sessions',
    });
  results.push(...sideRows('replay flood', replay.side));
  phases.replay = {
    seconds: rp.seconds,
    requests: rp.requests,
    requestsPerSecond: Math.round(rp.requests / rp.seconds),
    accepted: rp.accepted,
    answers: rp.statuses,
    refusedReports: rp.reasons,
    serverCpuPercent: replay.serverCpuPercent,
    idleRssMB: mb(rp.idle.rss),
    peakRssMB: mb(peak),
    rssGrowthMB: growth,
    replayMemoryMaxMB: seenMax ? round(seenMax / 2 ** 20) : 'not exposed',
    replayMemoryBudgetMB: REPLAY_MB,
    evicted: replay.last.seenEvicted ?? 'not exposed',
    forgottenSessionReport: forgottenCheck,
    rssMBEverySecond: rssEverySecond.map(mb),
    sideRefusals: replay.side.refusals,
  };
}

/** 3. One address posts 1 MiB bodies with made-up tokens: refused before the body is read (the token
 *  guard), then 429 once its budget of failed attempts is spent; another client's reports unslowed. */
async function tokenFlood(results, phases) {
  const name = `made-up tokens, 1 MiB bodies from one address for ${TOKEN_SECONDS} s`;
  const flood = await phase(
    name,
    {},
    async (server, _s, attack) => {
      const r = await attack(
        {
          key: server.keys[1],
          address: FLOOD_ADDRESS,
          seconds: TOKEN_SECONDS,
          connections: CONNECTIONS,
        },
        'token-flood',
      );
      log(
        `attacker: ${r.requests} requests of 1 MiB in ${r.seconds} s (${Math.round(r.requests / r.seconds)}/s), answers ${JSON.stringify(r.statuses)}`,
      );
      return r;
    },
    { reportEveryMs: 100, calmMs: 5000 },
  );
  const f = flood.out;
  // The side client's reports sent while the attacker ran, and those of the calm before it (the
  // machine's own noise: the same figures with no attack).
  const { posts: all, postedAt } = flood.side;
  const posts = all.filter((_, i) => postedAt[i] >= flood.window.from && postedAt[i] < flood.window.to);
  const calm = all.filter((_, i) => postedAt[i] < flood.window.from);
  results.push({
    case: `${name}: side client's single reports before the attack (calm)`,
    n: calm.length,
    p50: round(pct(calm, 50)),
    p95: round(pct(calm, 95)),
    p99: round(pct(calm, 99)),
    max: round(Math.max(...calm)),
    unit: 'ms',
  });
  const p99 = pct(posts, 99);
  results.push({
    case: `${name}: side client, its single reports every 100 ms during the attack`,
    n: posts.length,
    p50: round(pct(posts, 50)),
    p95: round(pct(posts, 95)),
    p99: round(p99),
    max: round(Math.max(...posts)),
    unit: 'ms',
    target: `p99 ≤ ${TARGET_TOKEN_FLOOD_P99_MS}`,
    ok: p99 <= TARGET_TOKEN_FLOOD_P99_MS && flood.side.accepted === flood.side.sent,
  });
  results.push({
    case: `${name}: requests answered (401 before the body, then 429)`,
    n: f.requests,
    p50: (f.statuses[401] ?? 0) + (f.statuses[429] ?? 0),
    unit: 'answers',
  });
  results.push(...sideRows(name, flood.side).filter((r) => !r.case.includes('(latency)')));
  phases.tokenFlood = {
    seconds: f.seconds,
    requests: f.requests,
    requestsPerSecond: Math.round(f.requests / f.seconds),
    answers: f.statuses,
    bodyMiBOffered: Math.round(f.bytesOffered / 2 ** 20),
    serverCpuPercent: flood.serverCpuPercent,
    serverRssMB: mb(flood.last.rss),
    sideRefusals: flood.side.refusals,
  };
}

// The runner starts this file once; the file starts itself again as the side client and the attacker.
const role = process.argv[2];
if (role === 'side-client') await sideClientProcess(process.argv.slice(3));
else if (role === 'flood') await floodProcess(process.argv.slice(3));
else if (role === 'token-flood') await tokenFloodProcess(process.argv.slice(3));
else {
  try {
    await bench();
  } catch (err) {
    process.stderr.write(
      `ingest-attack: ${err instanceof ServerCrashed ? 'the server crashed: ' : ''}${err.stack ?? err}\n`,
    );
    process.exit(1);
  }
}
