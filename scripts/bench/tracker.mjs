#!/usr/bin/env node
// The tracker of DESIGN §11 under the load of many viewers: simulated peers (WebSocket clients speaking
// the WebTorrent tracker protocol as the plugin's tracker client does, without WebRTC: offers and
// answers are opaque SDP-sized strings) held by one server node on /tracker with the dashboard's
// Origin, spread across swarms; then announce latency (sent → the server's answer for that info_hash)
// while every peer re-announces at the interval the server asks for, offers are relayed and answered.
// Target (the issue): 10,000 peers held with announce p99 ≤ 100 ms. The server runs in its own process,
// so its RSS is its own; the clients run here.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { pct, printResult, round, startServer } from './lib/common.mjs';

const PEERS = Number(process.env.BENCH_TRACKER_PEERS ?? 10_000);
const SWARMS = Number(process.env.BENCH_TRACKER_SWARMS ?? 100);
const SECONDS = Number(process.env.BENCH_TRACKER_SECONDS ?? 30);
/** The plugin's tracker client sends at most 5 offers per announce. */
const OFFERS = 5;
const TARGET_P99_MS = 100;
const log = (m) => process.stderr.write(`  ${m}\n`);

// One descriptor per client here and one per connection in the server's process.
const fdLimit = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
if (Number.isFinite(fdLimit) && fdLimit < PEERS + 256) {
  process.stderr.write(
    `The open-files limit (${fdLimit}) is below ${PEERS + 256}: raise it (ulimit -n) or set BENCH_TRACKER_PEERS.\n`,
  );
  process.exit(2);
}

/** A 20-byte id as the tracker protocol carries it: one character per byte. */
const binaryId = () => String.fromCharCode(...randomBytes(20));
/** About the size of a browser's data-channel offer. */
const SDP = `v=0\r\no=- ${'4'.repeat(19)} 2 IN IP4 127.0.0.1\r\n${'a=x-filler\r\n'.repeat(40)}`;

// Each simulated viewer stands at an address of its own (X-Forwarded-For, believed with TRUST_PROXY=1),
// as real viewers do: the tracker's per-address limits (issue 25) would otherwise see one address. The
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
const steadyLatencies = [];
let failures = 0;
let offersReceived = 0;
let answersReceived = 0;
let interval = 120;
let measuring = false;

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
        } else if (measuring) steadyLatencies.push(ms);
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

  // Steady state: every peer re-announces once per interval (the server's answer says how often), so
  // PEERS / interval announces a second, spread evenly; each one measured.
  measuring = true;
  const perSecond = held / interval;
  const total = Math.round(perSecond * SECONDS);
  const order = peers.filter((p) => p.ws.readyState === WebSocket.OPEN);
  const tSteady = performance.now();
  for (let k = 0; k < total; k++) {
    const due = tSteady + (k / perSecond) * 1000;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const p = order[k % order.length];
    if (p.sentAt) continue; // its previous announce is still unanswered: counted below
    p.downloaded += 1_000_000;
    announce(p, undefined);
  }
  await new Promise((r) => setTimeout(r, 2000)); // the last answers
  measuring = false;
  const pending = order.filter((p) => p.sentAt).length;
  const stats = await server.stats();
  const stillOpen = peers.filter((p) => p.ws.readyState === WebSocket.OPEN).length;
  log(
    `steady: ${steadyLatencies.length} announces at ${round(perSecond)}/s, ${pending} unanswered; ` +
      `offers relayed ${offersReceived}, answers relayed ${answersReceived}; server RSS ${Math.round(stats.rss / 2 ** 20)} MB`,
  );
  const latencyRow = (name, xs) => ({
    case: name,
    n: xs.length,
    p50: round(pct(xs, 50)),
    p95: round(pct(xs, 95)),
    p99: round(pct(xs, 99)),
    max: round(Math.max(...xs)),
    unit: 'ms',
  });
  results.push({ case: `peers held (${SWARMS} swarms)`, n: stillOpen, p50: stillOpen, unit: 'peers' });
  results.push(latencyRow(`announce while ${PEERS} peers join (waves of 200)`, joinLatencies));
  const steady = latencyRow(`announce, ${stillOpen} peers held (${round(perSecond)}/s)`, steadyLatencies);
  results.push({
    ...steady,
    target: `p99 ≤ ${TARGET_P99_MS}`,
    ok: stillOpen >= PEERS && steady.p99 <= TARGET_P99_MS,
  });
  results.push({
    case: `server RSS, ${stillOpen} peers held`,
    n: 1,
    p50: Math.round(stats.rss / 2 ** 20),
    unit: 'MB',
  });
  results.push({
    case: 'server RSS per peer',
    n: stillOpen,
    p50: round((stats.rss - rssBefore) / stillOpen / 1024),
    unit: 'kB',
  });
  if (pending > 0) throw new Error(`${pending} announces were never answered`);
} finally {
  for (const p of peers) p.ws.terminate();
  await server.stop();
}

await printResult(
  'tracker',
  {
    peers: PEERS,
    swarms: SWARMS,
    offers: OFFERS,
    seconds: SECONDS,
  },
  results,
);
