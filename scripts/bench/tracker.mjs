#!/usr/bin/env node
// The tracker of DESIGN §11 under the load of many viewers: simulated peers (WebSocket clients speaking
// the WebTorrent tracker protocol as the plugin's tracker client does, without WebRTC: offers and
// answers are opaque SDP-sized strings) held by one server node on /tracker with the dashboard's
// Origin, spread across swarms; then announce latency (sent → the server's answer for that info_hash)
// while every peer re-announces at the interval the server asks for, offers are relayed and answered.
// Target: 50,000 peers over 5,000 swarms with announce p99 ≤ 100 ms, then the ceiling: the
// announce rate is raised step by step until p99 passes 100 ms. The server runs in its own process, so
// its RSS is its own; the clients run here.
//
// Every peer holds a socket, so a node holds at most its open-file limit of peers. Where the hard limit
// is below the target (and cannot be raised without CAP_SYS_RESOURCE), the sockets that fit are held and
// announce as often as the whole target population would, in swarms of the target's size: the server's
// announce and relay work is the target's, its socket memory is measured per peer and projected.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { pct, printResult, round, startServer } from './lib/common.mjs';

const TARGET_PEERS = Number(process.env.BENCH_TRACKER_PEERS ?? 50_000);
const TARGET_SWARMS = Number(process.env.BENCH_TRACKER_SWARMS ?? 5_000);
const SECONDS = Number(process.env.BENCH_TRACKER_SECONDS ?? 30);
/** Each step of the ceiling search runs this long, at multiples of the target's announce rate. */
const STEP_SECONDS = Number(process.env.BENCH_TRACKER_STEP_SECONDS ?? 20);
const STEPS_UP = [1.5, 2, 3, 4, 6, 8, 12];
const STEPS_DOWN = [0.75, 0.5, 0.25];
/** The plugin's tracker client sends at most 5 offers per announce. */
const OFFERS = 5;
const TARGET_P99_MS = 100;
/** Descriptors each process keeps for everything but tracker sockets (the database, the HTTP API). */
const RESERVED_FDS = 512;
const log = (m) => process.stderr.write(`  ${m}\n`);

// One descriptor per client here and one per connection in the server's process (Node raises the soft
// limit of open files to the hard one at start).
const fdLimit = Number(execFileSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim());
const PEERS = Number.isFinite(fdLimit) ? Math.min(TARGET_PEERS, fdLimit - RESERVED_FDS) : TARGET_PEERS;
const PEERS_PER_SWARM = TARGET_PEERS / TARGET_SWARMS;
const SWARMS = Math.max(1, Math.round(PEERS / PEERS_PER_SWARM));
if (PEERS < TARGET_PEERS)
  log(
    `open-file limit ${fdLimit}: ${PEERS} sockets held in ${SWARMS} swarms of ${PEERS_PER_SWARM}, announcing as ${TARGET_PEERS} peers would`,
  );

/** A 20-byte id as the tracker protocol carries it: one character per byte. */
const binaryId = () => String.fromCharCode(...randomBytes(20));
/** About the size of a browser's data-channel offer. */
const SDP = `v=0\r\no=- ${'4'.repeat(19)} 2 IN IP4 127.0.0.1\r\n${'a=x-filler\r\n'.repeat(40)}`;

// Each simulated viewer stands at an address of its own (X-Forwarded-For, believed with TRUST_PROXY=1),
// as real viewers do: the tracker's per-address limits would otherwise see one address. The
// node's socket cap is raised to the peers simulated (its default is half the open-file limit).
const server = await startServer('app', {
  keys: 1,
  env: { TRUST_PROXY: '1', TRACKER_MAX_SOCKETS: String(PEERS + 100) },
});
/** The i-th viewer's address, in 10.0.0.0/8. */
const addressOf = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
const url = `ws://127.0.0.1:${server.port}/tracker?key=${server.keys[0]}`;
const swarms = Array.from({ length: SWARMS }, binaryId);
const peers = [];
const joinLatencies = [];
let failures = 0;
let offersReceived = 0;
let answersReceived = 0;
let interval = 120;
/** The latencies of the phase being measured, if any. */
let measured = null;

function announce(p, event) {
  const msg = {
    action: 'announce',
    info_hash: p.infoHash,
    peer_id: p.peerId,
    numwant: OFFERS,
    uploaded: 0,
    downloaded: p.downloaded,
    left: 1,
    ...(event ? { event } : {}),
    offers: Array.from({ length: OFFERS }, () => ({
      offer: { type: 'offer', sdp: SDP },
      offer_id: randomBytes(20).toString('hex').slice(0, 20),
    })),
  };
  p.sentAt = performance.now();
  p.ws.send(JSON.stringify(msg));
}

function connect(i) {
  return new Promise((resolve) => {
    const p = {
      peerId: binaryId(),
      infoHash: swarms[i % SWARMS],
      downloaded: 0,
      sentAt: 0,
      joined: resolve,
    };
    p.ws = new WebSocket(url, {
      origin: server.origin,
      // Four source addresses: one has fewer ephemeral ports than the peers a node may hold.
      localAddress: `127.0.0.${1 + (i & 3)}`,
      perMessageDeflate: false,
      headers: { 'X-Forwarded-For': addressOf(i) },
    });
    p.ws.on('open', () => announce(p, 'started'));
    p.ws.on('message', (data) => {
      const m = JSON.parse(data);
      if (m['failure reason']) {
        failures++;
        return;
      }
      if (m.offer) {
        offersReceived++;
        // What a peer's WebRTC side does with an offer: answer it through the tracker.
        p.ws.send(
          JSON.stringify({
            action: 'announce',
            info_hash: p.infoHash,
            peer_id: p.peerId,
            to_peer_id: m.peer_id,
            answer: { type: 'answer', sdp: SDP },
            offer_id: m.offer_id,
          }),
        );
        return;
      }
      if (m.answer) {
        answersReceived++;
        return;
      }
      if (m.action === 'announce' && m.info_hash === p.infoHash && p.sentAt) {
        const ms = performance.now() - p.sentAt;
        p.sentAt = 0;
        if (m.interval) interval = m.interval;
        if (p.joined) {
          joinLatencies.push(ms);
          const done = p.joined;
          p.joined = null;
          done(true);
        } else measured?.push(ms);
      }
    });
    p.ws.on('error', () => {
      if (p.joined) {
        failures++;
        p.joined(false);
        p.joined = null;
      }
    });
    peers.push(p);
  });
}

const results = [];
try {
  const rssBefore = (await server.stats()).rss;
  // Viewers arrive in waves of 200 connections at a time.
  const t0 = performance.now();
  let held = 0;
  for (let i = 0; i < PEERS; i += 200) {
    const wave = [];
    for (let j = i; j < Math.min(PEERS, i + 200); j++) wave.push(connect(j));
    held += (await Promise.all(wave)).filter(Boolean).length;
  }
  const joinSeconds = (performance.now() - t0) / 1000;
  log(`${held} of ${PEERS} peers joined ${SWARMS} swarms in ${round(joinSeconds)} s (${failures} failures)`);

  // Steady state: the population re-announces once per interval (the server's answer says how often),
  // TARGET_PEERS / interval announces a second spread evenly over the held sockets; each one measured.
  const order = peers.filter((p) => p.ws.readyState === WebSocket.OPEN);
  const targetRate = TARGET_PEERS / interval;
  let unanswered = 0;
  /** Announces at `perSecond` for `seconds`; their latencies. A peer whose last one is unanswered skips. */
  const phase = async (perSecond, seconds) => {
    const latencies = [];
    measured = latencies;
    const total = Math.round(perSecond * seconds);
    const t = performance.now();
    for (let k = 0; k < total; k++) {
      const due = t + (k / perSecond) * 1000;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const p = order[k % order.length];
      if (p.sentAt) continue;
      p.downloaded += 1_000_000;
      announce(p, undefined);
    }
    await new Promise((r) => setTimeout(r, 2000)); // the last answers
    measured = null;
    const pending = order.filter((p) => p.sentAt).length;
    unanswered += pending;
    for (const p of order) p.sentAt = 0;
    return latencies;
  };
  const latencyRow = (name, xs) => ({
    case: name,
    n: xs.length,
    p50: round(pct(xs, 50)),
    p95: round(pct(xs, 95)),
    p99: round(pct(xs, 99)),
    max: round(Math.max(...xs)),
    unit: 'ms',
  });
  const steadyLatencies = await phase(targetRate, SECONDS);
  // Above the ceiling answers may come late; at the target none may be missing.
  const steadyUnanswered = unanswered;
  const stats = await server.stats();
  const stillOpen = peers.filter((p) => p.ws.readyState === WebSocket.OPEN).length;
  log(
    `steady: ${steadyLatencies.length} announces at ${round(targetRate)}/s, ${unanswered} unanswered; ` +
      `offers relayed ${offersReceived}, answers relayed ${answersReceived}; server RSS ${Math.round(stats.rss / 2 ** 20)} MB`,
  );
  results.push({
    case: `peers held (${SWARMS} swarms of ${PEERS_PER_SWARM})${PEERS < TARGET_PEERS ? `: open-file limit ${fdLimit}` : ''}`,
    n: stillOpen,
    p50: stillOpen,
    unit: 'peers',
    target: `${TARGET_PEERS}`,
    ok: stillOpen >= TARGET_PEERS,
  });
  results.push(latencyRow(`announce while ${PEERS} peers join (waves of 200)`, joinLatencies));
  const steady = latencyRow(
    `announce at ${TARGET_PEERS} peers' rate (${round(targetRate)}/s over ${stillOpen} sockets)`,
    steadyLatencies,
  );
  results.push({
    ...steady,
    target: `p99 ≤ ${TARGET_P99_MS}`,
    ok: stillOpen >= PEERS && steady.p99 <= TARGET_P99_MS,
  });
  const perPeer = (stats.rss - rssBefore) / stillOpen;
  results.push({
    case: `server RSS, ${stillOpen} peers held`,
    n: 1,
    p50: Math.round(stats.rss / 2 ** 20),
    unit: 'MB',
  });
  results.push({ case: 'server RSS per peer', n: stillOpen, p50: round(perPeer / 1024), unit: 'kB' });
  if (PEERS < TARGET_PEERS)
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
  for (const p of peers) p.ws.terminate();
  await server.stop();
}

await printResult(
  'tracker',
  {
    peers: TARGET_PEERS,
    swarms: TARGET_SWARMS,
    socketsHeld: PEERS,
    offers: OFFERS,
    seconds: SECONDS,
  },
  results,
);
