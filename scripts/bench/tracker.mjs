#!/usr/bin/env node
// The tracker of docs/DESIGN.md §11 under the load of many viewers: simulated peers (WebSocket clients speaking
// the WebTorrent tracker protocol as the plugin's tracker client does, without WebRTC: offers and
// answers are opaque SDP-sized strings; lib/tracker-peers.mjs) held by one server node on /tracker with
// the dashboard's Origin, spread across swarms; then announce latency (sent → the server's answer for
// that info_hash) while every peer re-announces at the interval the server asks for, offers are relayed
// and answered. Target: 50,000 peers over 5,000 swarms with announce p99 ≤ 100 ms, then the ceiling: the
// announce rate is raised step by step until p99 passes 100 ms.
//
// Every socket is an open file on each side, and a process may open at most its hard limit (20,000 on
// the machine this was written on, not raisable without CAP_SYS_RESOURCE). So the peers are held by as
// many client processes as they need, and when the target exceeds one process the server is started
// with TRACKER_WORKERS: its tracker runs in child processes of the server, each holding the sockets of
// its swarms' shards (the shard is in the URL). The server's RSS is that of its whole process tree. If
// the server holds fewer peers than the target (a build without workers stops at its own limit), the
// peers it holds announce as often as the target's would, the `peers held` row is not met and the
// server's RSS at the target is projected from the RSS per peer held.
import { execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { swarmIdOf, trackerShardOf } from '@tlprt/contract';
import { pct, printResult, round, startServer } from './lib/common.mjs';

const TARGET_PEERS = Number(process.env.BENCH_TRACKER_PEERS ?? 50_000);
const TARGET_SWARMS = Number(process.env.BENCH_TRACKER_SWARMS ?? 5_000);
const SECONDS = Number(process.env.BENCH_TRACKER_SECONDS ?? 30);
/** Each step of the ceiling search runs this long, at multiples of the target's announce rate. */
const STEP_SECONDS = Number(process.env.BENCH_TRACKER_STEP_SECONDS ?? 20);
const STEPS_UP = [1.5, 2, 3, 4, 6, 8, 12];
const STEPS_DOWN = [0.75, 0.5, 0.25];
/** The plugin's tracker client sends at most 5 offers per announce (lib/tracker-peers.mjs). */
const OFFERS = 5;
const TARGET_P99_MS = 100;
/** Descriptors each process keeps for everything but tracker sockets (the database, the HTTP API). */
const RESERVED_FDS = 512;
/** How long the server gets to close when the bench is done. */
const STOP_GRACE_MS = 30_000;
/** Viewers arrive in waves of this many connections at a time. */
const WAVE = 200;
const log = (m) => process.stderr.write(`  ${m}\n`);

// Node raises the soft limit of open files to the hard one at start, in this process and its children.
const fdLimit = Number(execFileSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim());
const socketsPerProcess = Number.isFinite(fdLimit) ? fdLimit - RESERVED_FDS : Number.POSITIVE_INFINITY;
const SOCKETS_PER_CLIENT = Number(process.env.BENCH_TRACKER_SOCKETS_PER_PROCESS ?? socketsPerProcess);
const CLIENTS = Math.max(1, Math.ceil(TARGET_PEERS / SOCKETS_PER_CLIENT));
/** Unset (the tracker in the server's own process) when one process can hold the target; '0' forces that. */
const WORKERS =
  process.env.BENCH_TRACKER_WORKERS ??
  (TARGET_PEERS > socketsPerProcess ? String(Math.ceil(TARGET_PEERS / socketsPerProcess)) : '0');
const PEERS_PER_SWARM = TARGET_PEERS / TARGET_SWARMS;

/** A process and all its descendants (none if it is gone). */
function processTree(pid) {
  try {
    const pids = [pid];
    // A child is listed under the thread that forked it, not always the main one.
    for (const task of readdirSync(`/proc/${pid}/task`))
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' '))
        if (child.trim()) pids.push(...processTree(Number(child)));
    return pids;
  } catch {
    return [];
  }
}
/** The RSS in bytes of a process and all its descendants: the server's tracker workers are its children. */
function treeRss(pid) {
  let bytes = 0;
  for (const p of processTree(pid)) {
    try {
      bytes += Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    } catch {
      // gone since it was listed
    }
  }
  return bytes;
}

// Peer matching (docs/DESIGN.md §14) on, as by default, over networks the peers' addresses fall in: 10.0.0.0/8
// (the peers' forwarded addresses, lib/tracker-peers.mjs) cut into /18 blocks of 16,384 addresses, one
// network each, so a swarm's ten peers (5,000 apart) span three or four networks and every announce is
// ranked. BENCH_TRACKER_NETWORKS=0: no NETWORKS_FILE, every peer of unknown network (matching idle).
const NETWORKS = process.env.BENCH_TRACKER_NETWORKS !== '0';
function networksFile() {
  const file = join(mkdtempSync(join(tmpdir(), 'tlprt-bench-networks-')), 'networks.csv');
  const lines = Array.from({ length: 1024 }, (_, n) => {
    const start = (10 << 24) + n * 16_384;
    return `${start},${start + 16_383},${64_512 + n},"Bench network ${n}"`;
  });
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

// The node's socket cap is raised to the peers simulated (its default is half the open-file limit).
const server = await startServer('app', {
  keys: 1,
  env: {
    ...(NETWORKS ? { NETWORKS_FILE: networksFile() } : {}),
    TRUST_PROXY: '1',
    TRACKER_MAX_SOCKETS: String(TARGET_PEERS + 100),
    ...(WORKERS !== '0' ? { TRACKER_WORKERS: WORKERS } : {}),
  },
});
const key = server.keys[0];
const swarms = Array.from({ length: TARGET_SWARMS }, (_, i) => ({
  infoHash: String.fromCharCode(...randomBytes(20)),
  shard: trackerShardOf(swarmIdOf(key, `https://cdn.example/bench/${i}/index.m3u8`)),
}));

/** The client processes, each with its range of peers and `ask(message)` → its one answer. */
const clients = Array.from({ length: CLIENTS }, (_, k) => {
  const child = fork(new URL('./lib/tracker-peers.mjs', import.meta.url), [], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((_, reject) =>
    child.once('exit', (code) => reject(new Error(`tracker client ${k} exited with ${code}`))),
  );
  exited.catch(() => {});
  return {
    child,
    from: Math.floor((k * TARGET_PEERS) / CLIENTS),
    to: Math.floor(((k + 1) * TARGET_PEERS) / CLIENTS),
    held: 0,
    ask: (message) =>
      Promise.race([
        new Promise((resolve) => {
          child.once('message', resolve);
          child.send(message);
        }),
        exited,
      ]),
  };
});

/** The client processes' failures by reason, for the log. */
function whyFailed(answers) {
  const all = {};
  for (const a of answers) for (const [why, n] of Object.entries(a.reasons)) all[why] = (all[why] ?? 0) + n;
  const list = Object.entries(all).map(([why, n]) => `${n}× ${why}`);
  return list.length > 0 ? `: ${list.join('; ')}` : '';
}

const results = [];
let serverProcesses = 0;
let socketsHeld = 0;
try {
  await Promise.all(
    clients.map((c) =>
      c.ask({
        type: 'setup',
        port: server.port,
        origin: server.origin,
        key,
        swarms,
        from: c.from,
        to: c.to,
      }),
    ),
  );
  serverProcesses = processTree(server.pid).length;
  log(
    `${CLIENTS} client process(es) of up to ${SOCKETS_PER_CLIENT} sockets; server: ${serverProcesses} process(es)` +
      (WORKERS !== '0' ? `, TRACKER_WORKERS=${WORKERS}` : ''),
  );
  const rssBefore = treeRss(server.pid);
  // One client process after another, so that the server sees waves of WAVE connections as it did when
  // one process held every peer.
  const t0 = performance.now();
  const joinLatencies = [];
  let joinFailures = 0;
  let interval = 120;
  let held = 0;
  const joinAnswers = [];
  for (const c of clients) {
    const r = await c.ask({ type: 'join', wave: WAVE });
    joinAnswers.push(r);
    c.held = r.joined;
    held += r.joined;
    joinFailures += r.failures;
    interval = r.interval;
    for (const ms of r.joinLatencies) joinLatencies.push(ms);
  }
  const joinSeconds = (performance.now() - t0) / 1000;
  log(
    `${held} of ${TARGET_PEERS} peers joined ${TARGET_SWARMS} swarms in ${round(joinSeconds)} s (${joinFailures} failures${whyFailed(joinAnswers)})`,
  );

  // Steady state: the population re-announces once per interval (the server's answer says how often),
  // TARGET_PEERS / interval announces a second spread evenly over the held sockets, each client
  // process its share; each announce measured.
  const targetRate = TARGET_PEERS / interval;
  let unanswered = 0;
  let last = { open: held, offersReceived: 0, answersReceived: 0, failures: joinFailures, reasons: '' };
  /** Announces at `perSecond` in all for `seconds`; their latencies. */
  const phase = async (perSecond, seconds) => {
    const answers = await Promise.all(
      clients.map((c) =>
        c.ask({ type: 'phase', perSecond: held > 0 ? (perSecond * c.held) / held : 0, seconds }),
      ),
    );
    const latencies = answers.flatMap((a) => a.latencies);
    const sum = (field) => answers.reduce((s, a) => s + a[field], 0);
    unanswered += sum('unanswered');
    last = {
      reasons: whyFailed(answers),
      open: sum('open'),
      offersReceived: sum('offersReceived'),
      answersReceived: sum('answersReceived'),
      failures: sum('failures'),
    };
    return latencies;
  };
  const latencyRow = (name, xs) => ({
    case: name,
    n: xs.length,
    p50: round(pct(xs, 50)),
    p95: round(pct(xs, 95)),
    p99: round(pct(xs, 99)),
    max: round(xs.reduce((m, x) => Math.max(m, x), Number.NEGATIVE_INFINITY)),
    unit: 'ms',
  });
  const steadyLatencies = await phase(targetRate, SECONDS);
  // Above the ceiling answers may come late; at the target none may be missing.
  const steadyUnanswered = unanswered;
  const rss = treeRss(server.pid);
  const stillOpen = last.open;
  socketsHeld = stillOpen;
  log(
    `steady: ${steadyLatencies.length} announces at ${round(targetRate)}/s, ${unanswered} unanswered, ` +
      `${last.failures} failures${last.reasons}; offers relayed ${last.offersReceived}, answers relayed ${last.answersReceived}; ` +
      `server RSS ${Math.round(rss / 2 ** 20)} MB`,
  );
  const missing = TARGET_PEERS - stillOpen;
  results.push({
    case: `peers held (${TARGET_SWARMS} swarms of ${PEERS_PER_SWARM})${missing > 0 ? `: ${missing} not held` : ''}`,
    n: stillOpen,
    p50: stillOpen,
    unit: 'peers',
    target: `${TARGET_PEERS}`,
    ok: stillOpen >= TARGET_PEERS,
  });
  results.push(latencyRow(`announce while ${TARGET_PEERS} peers join (waves of ${WAVE})`, joinLatencies));
  const steady = latencyRow(
    `announce at ${TARGET_PEERS} peers' rate (${round(targetRate)}/s over ${stillOpen} sockets)`,
    steadyLatencies,
  );
  results.push({
    ...steady,
    target: `p99 ≤ ${TARGET_P99_MS}`,
    ok: stillOpen >= TARGET_PEERS && steady.p99 <= TARGET_P99_MS,
  });
  const perPeer = (rss - rssBefore) / stillOpen;
  results.push({
    case: `server RSS, ${stillOpen} peers held`,
    n: 1,
    p50: Math.round(rss / 2 ** 20),
    unit: 'MB',
  });
  results.push({ case: 'server RSS per peer', n: stillOpen, p50: round(perPeer / 1024), unit: 'kB' });
  if (missing > 0)
    results.push({
      case: `server RSS at ${TARGET_PEERS} peers (projected)`,
      n: 1,
      p50: Math.round((rssBefore + perPeer * TARGET_PEERS) / 2 ** 20),
      unit: 'MB',
    });

  // The ceiling: from the target's announce rate, up step by step while p99 holds, or down until it
  // does; given as the peers announcing every interval that make the highest rate that held.
  const met = steady.p99 <= TARGET_P99_MS;
  let ceiling = met ? TARGET_PEERS : 0;
  /** The first step up that missed the target. */
  let over = null;
  for (const m of met ? STEPS_UP : STEPS_DOWN) {
    const row = latencyRow(
      `announce at ${m * TARGET_PEERS} peers' rate`,
      await phase(m * targetRate, STEP_SECONDS),
    );
    log(`step ×${m}: ${row.n} announces, p99 ${row.p99} ms`);
    const holds = row.p99 <= TARGET_P99_MS;
    if (holds) ceiling = m * TARGET_PEERS;
    else if (met) over = { ...row, target: `p99 ≤ ${TARGET_P99_MS}`, ok: false };
    if (holds !== met) break;
  }
  results.push({
    case: `ceiling: peers announcing every ${interval} s with announce p99 ≤ ${TARGET_P99_MS} ms${met && !over ? ', at least' : ''}`,
    n: 1,
    p50: ceiling,
    unit: 'peers',
  });
  if (over) results.push(over);
  if (steadyUnanswered > 0) throw new Error(`${steadyUnanswered} announces were never answered`);
} finally {
  await Promise.all(
    clients.map(
      ({ child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', resolve);
          child.send({ type: 'stop' });
        }),
    ),
  );
  // A server that does not stop would keep the result from being printed: it is said, and killed.
  let timer;
  const stopped = await Promise.race([
    server.stop().then(() => true),
    new Promise((r) => {
      timer = setTimeout(r, STOP_GRACE_MS, false);
    }),
  ]);
  clearTimeout(timer);
  if (!stopped) {
    log(`the server did not stop within ${STOP_GRACE_MS / 1000} s: killed, its child processes too`);
    for (const pid of processTree(server.pid).reverse()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
}

await printResult(
  'tracker',
  {
    peers: TARGET_PEERS,
    swarms: TARGET_SWARMS,
    peerMatching: NETWORKS ? 'network, over NETWORKS_FILE /18 blocks' : 'no networks known',
    socketsHeld,
    clientProcesses: CLIENTS,
    serverProcesses,
    offers: OFFERS,
    seconds: SECONDS,
  },
  results,
);
