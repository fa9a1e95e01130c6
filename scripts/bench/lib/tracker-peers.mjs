// One client process of the tracker bench (scripts/bench/tracker.mjs forks as many as the peers need:
// each socket is a descriptor, and one process may open only so many). It holds the simulated peers of
// its range, each a WebSocket speaking the WebTorrent tracker protocol as the plugin's tracker client
// does, without WebRTC (offers and answers are opaque SDP-sized strings), and does what its parent asks
// over IPC, one request at a time, each answered with one message:
//   {type: 'setup', port, origin, key, swarms: [{infoHash, shard}], from, to} → {type: 'ready'}
//   {type: 'join', wave} → {joined, failures, reasons, joinLatencies, interval}
//   {type: 'phase', perSecond, seconds} →
//     {latencies, unanswered, open, offersReceived, answersReceived, failures, reasons, interval}
// (the counts are since the process started; reasons: how many failures of each kind).
//   {type: 'stop'}           → exits.
// Peer i (a global index over every process) is in swarm i mod swarms.length, so a process's peers are
// spread over all swarms and their offers cross processes through the server.
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';

/** The plugin's tracker client sends at most 5 offers per announce. */
const OFFERS = 5;
/** A peer whose first announce has no answer by then is counted as not joined. */
const JOIN_TIMEOUT_MS = 30_000;
/** Source addresses: one address has fewer ephemeral ports (28,232 here) than the peers held. */
const SOURCE_ADDRESSES = 8;

/** A 20-byte id as the tracker protocol carries it: one character per byte. */
const binaryId = () => String.fromCharCode(...randomBytes(20));
/** About the size of a browser's data-channel offer. */
const SDP = `v=0\r\no=- ${'4'.repeat(19)} 2 IN IP4 127.0.0.1\r\n${'a=x-filler\r\n'.repeat(40)}`;
/** The i-th viewer's address, in 10.0.0.0/8. */
const addressOf = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

let setup = null;
const peers = [];
let failures = 0;
/** Why peers failed, and how many: the bench prints it. */
const reasons = {};
const fail = (reason) => {
  failures++;
  reasons[reason] = (reasons[reason] ?? 0) + 1;
};
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

/** Connects peer i and sends its first announce: resolves with whether it joined (latency to joinLatencies). */
function connect(i, joinLatencies) {
  const { port, origin, key, swarms } = setup;
  const swarm = swarms[i % swarms.length];
  return new Promise((resolve) => {
    const p = { peerId: binaryId(), infoHash: swarm.infoHash, downloaded: 0, sentAt: 0, held: false };
    /** `reason` is why the peer did not join, if it did not. */
    const settle = (reason) => {
      if (!p.joined) return;
      clearTimeout(p.joined.timer);
      p.joined = null;
      p.held = reason === undefined;
      if (reason !== undefined) {
        fail(`join: ${reason}`);
        p.ws.terminate();
      }
      resolve(p.held);
    };
    const timeout = () =>
      settle(
        p.ws.readyState === WebSocket.OPEN
          ? `first announce unanswered in ${JOIN_TIMEOUT_MS} ms`
          : `no handshake in ${JOIN_TIMEOUT_MS} ms`,
      );
    p.joined = { timer: setTimeout(timeout, JOIN_TIMEOUT_MS) };
    // The shard lets a server whose tracker runs in several processes hand the socket to the one owning
    // the swarm without reading a message first.
    p.ws = new WebSocket(`ws://127.0.0.1:${port}/tracker?key=${key}&shard=${swarm.shard}`, {
      origin,
      localAddress: `127.0.0.${1 + (i % SOURCE_ADDRESSES)}`,
      perMessageDeflate: false,
      // Each viewer stands at an address of its own (believed with TRUST_PROXY=1), as real viewers do:
      // the tracker's per-address limits would otherwise see one address.
      headers: { 'X-Forwarded-For': addressOf(i) },
    });
    p.ws.on('open', () => announce(p, 'started'));
    p.ws.on('message', (data) => {
      const m = JSON.parse(data);
      if (m['failure reason']) {
        // Left pending after the join: a refused announce counts as unanswered.
        if (p.joined) settle(m['failure reason']);
        else fail(m['failure reason']);
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
          settle(undefined);
        } else measured?.push(ms);
      }
    });
    p.ws.on('error', (err) => settle(err.message));
    p.ws.on('close', (code) => settle(`closed (${code})`));
    peers.push(p);
  });
}

const isHeld = (p) => p.held && p.ws.readyState === WebSocket.OPEN;

/** Viewers arrive in waves of `wave` connections at a time. */
async function join(wave) {
  const joinLatencies = [];
  let joined = 0;
  for (let i = setup.from; i < setup.to; i += wave) {
    const batch = [];
    for (let j = i; j < Math.min(setup.to, i + wave); j++) batch.push(connect(j, joinLatencies));
    joined += (await Promise.all(batch)).filter(Boolean).length;
  }
  return { joined, failures, reasons, joinLatencies, interval };
}

/**
 * Announces at `perSecond` for `seconds`, spread evenly over the held peers; their latencies. A peer
 * whose last one is unanswered skips.
 */
async function phase(perSecond, seconds) {
  const order = peers.filter(isHeld);
  const latencies = [];
  measured = latencies;
  const total = order.length > 0 ? Math.round(perSecond * seconds) : 0;
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
  const unanswered = order.filter((p) => p.sentAt).length;
  for (const p of order) p.sentAt = 0;
  return {
    latencies,
    unanswered,
    open: peers.filter(isHeld).length,
    offersReceived,
    answersReceived,
    failures,
    reasons,
    interval,
  };
}

const stop = () => {
  for (const p of peers) p.ws.terminate();
  process.exit(0);
};

process.on('message', async (m) => {
  if (m.type === 'setup') {
    setup = m;
    process.send({ type: 'ready' });
  } else if (m.type === 'join') process.send(await join(m.wave));
  else if (m.type === 'phase') process.send(await phase(m.perSecond, m.seconds));
  else if (m.type === 'stop') stop();
});
process.on('disconnect', stop);
