#!/usr/bin/env node
// Attacks on the tracker, rerun with bounded loops against the built server (its own process,
// default limits, TRUST_PROXY=1 so that each attacker and viewer stands at an address of its own through
// X-Forwarded-For), while another client (a process of its own: a fresh connection from loopback, no
// tracker socket) reads the public key settings every 100 ms:
// 1. swarm flood and scrapes: one socket announcing 50,000 new swarms; as many sockets as one address
//    may open each holding as many swarms as it may; then scrapes without info_hash at 100 a second for
//    10 s from another address, reconnecting whenever the socket is closed;
// 2. 2,000 sockets from one address (waves of 200), held idle for 10 s;
// 3. the eclipse: one socket announcing 1,000 peer ids into a real viewer's swarm, then as many sockets
//    of one address as it may open each announcing into it, then 20 next viewers each sending 5 offers:
//    how many of them reach the real viewer.
// Targets: the other client's p99 latency ≤ 1000 ms in every phase, the server's RSS growth ≤ 500 MB,
// every next viewer's offers reaching the real viewer.
import { execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { pct, printResult, round, startServer } from './lib/common.mjs';

const SECONDS = Number(process.env.BENCH_TRACKER_ATTACK_SECONDS ?? 10);
const SOCKETS = 2000;
const NEXT_VIEWERS = 20;
const TARGET_P99_MS = 1000;
const TARGET_RSS_MB = 500;
const log = (m) => process.stderr.write(`  ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes) => Math.round(bytes / 2 ** 20);
const binaryId = () => String.fromCharCode(...randomBytes(20));

/**
 * The other client: reads the public key settings every 100 ms over a fresh connection until its parent
 * says stop, then answers its latencies in ms (a request without an answer within 2 s counts as 2000)
 * and how many failed.
 */
async function otherClientProcess([port, keyHash, origin]) {
  const latencies = [];
  let failures = 0;
  let running = true;
  process.on('message', () => {
    running = false;
  });
  const one = () =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const req = http.get(
        {
          host: '127.0.0.1',
          port: Number(port),
          path: `/api/v1/public/key_settings/${keyHash}`,
          headers: { origin },
          agent: false,
          timeout: 2000,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) failures++;
            latencies.push(performance.now() - t0);
            resolve();
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        failures++;
        latencies.push(Math.max(2000, performance.now() - t0));
        resolve();
      });
    });
  while (running) {
    const next = sleep(100);
    await one();
    await next;
  }
  process.send({ latencies, failures }, () => process.exit(0));
}

async function bench() {
  const fdLimit = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
  if (Number.isFinite(fdLimit) && fdLimit < SOCKETS + 512) {
    process.stderr.write(
      `The open-files limit (${fdLimit}) is below ${SOCKETS + 512}: raise it (ulimit -n).\n`,
    );
    process.exit(2);
  }

  const server = await startServer('app', { keys: 1, env: { TRUST_PROXY: '1' } });
  const key = server.keys[0];
  const url = `ws://127.0.0.1:${server.port}/tracker?key=${key}`;
  const everyone = [];

  /** A tracker socket at `address`: {ws, status, closed: Promise<{code, reason}>}; ws null when refused. */
  const open = (address, onMessage = () => {}) =>
    new Promise((resolve) => {
      const ws = new WebSocket(url, {
        origin: server.origin,
        headers: { 'X-Forwarded-For': address },
        perMessageDeflate: false,
      });
      const closed = new Promise((done) =>
        ws.on('close', (code, reason) => done({ code, reason: String(reason) })),
      );
      ws.on('message', (data) => onMessage(JSON.parse(data)));
      ws.once('open', () => {
        everyone.push(ws);
        resolve({ ws, status: 101, closed });
      });
      ws.once('unexpected-response', (req, res) => {
        res.resume();
        req.destroy();
        resolve({ ws: null, status: res.statusCode, closed });
      });
      ws.on('error', () => resolve({ ws: null, status: 0, closed }));
    });
  const announce = (ws, infoHash, peerId, extra = {}) =>
    ws.send(
      JSON.stringify({
        action: 'announce',
        info_hash: infoHash,
        peer_id: peerId,
        numwant: 0,
        uploaded: 0,
        downloaded: 0,
        left: 1,
        event: 'started',
        ...extra,
      }),
    );
  const closeOf = async (c) => {
    const closed = await Promise.race([
      c.closed,
      sleep(5000).then(() => ({ code: 'still open', reason: '' })),
    ]);
    return `${closed.code} ${closed.reason}`.trim();
  };
  const closeAll = async () => {
    for (const ws of everyone.splice(0)) ws.terminate();
    await sleep(500);
  };

  const rssBefore = (await server.stats()).rss;
  let rssMax = rssBefore;
  const results = [];
  const phases = {};

  /** Runs `attack` while the other client reads; adds that client's latency row. */
  async function phase(name, attack) {
    log(`phase: ${name}`);
    const child = fork(
      fileURLToPath(import.meta.url),
      ['other-client', String(server.port), key, server.origin],
      {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      },
    );
    const stats = {};
    try {
      await attack(stats);
    } finally {
      const { latencies, failures } = await new Promise((resolve) => {
        child.once('message', resolve);
        child.send('stop');
      });
      const after = await server.stats();
      rssMax = Math.max(rssMax, after.rss);
      const p99 = pct(latencies, 99);
      results.push({
        case: `other client during: ${name}`,
        n: latencies.length,
        p50: round(pct(latencies, 50)),
        p95: round(pct(latencies, 95)),
        p99: round(p99),
        max: round(Math.max(...latencies)),
        unit: 'ms',
        target: `p99 ≤ ${TARGET_P99_MS}`,
        ok: failures === 0 && p99 <= TARGET_P99_MS,
      });
      phases[name] = {
        ...stats,
        otherClientFailures: failures,
        rssMB: mb(after.rss),
        swarmsLeft: after.trackerSwarms,
      };
      log(`${JSON.stringify(phases[name])}; other client p99 ${round(p99)} ms`);
    }
  }

  let offersToReal = 0;
  try {
    await phase('swarm flood and scrapes', async (s) => {
      // One socket names 50,000 new swarms as fast as it can send.
      let answered = 0;
      const flood = await open('203.0.113.1', (m) => {
        if (m.action === 'announce' && m.interval) answered++;
      });
      const peerId = binaryId();
      for (let i = 0; i < 50_000 && flood.ws.readyState === WebSocket.OPEN; i++) {
        announce(flood.ws, binaryId(), peerId);
        if (i % 500 === 499) await sleep(1);
      }
      s.floodClose = await closeOf(flood);
      s.floodSwarmsAnswered = answered;

      // As many sockets as the address may open, each joining as many swarms as it may.
      let holders = 0;
      for (let i = 0; i < 200; i++) {
        const h = await open('203.0.113.1');
        if (!h.ws) break;
        holders++;
        const id = binaryId();
        for (let j = 0; j < 32; j++) announce(h.ws, binaryId(), id);
      }
      await sleep(500);
      s.holdingSockets = holders;
      s.swarmsHeld = (await server.stats()).trackerSwarms;

      // Scrapes without info_hash at 100 a second, from another address, reconnecting when closed.
      let scrapesAnswered = 0;
      let swarmsListed = 0;
      let connections = 0;
      const closes = {};
      const end = performance.now() + SECONDS * 1000;
      while (performance.now() < end) {
        const c = await open('203.0.113.3', (m) => {
          if (m.action !== 'scrape') return;
          scrapesAnswered++;
          swarmsListed += Object.keys(m.files ?? {}).length;
        });
        if (!c.ws) {
          await sleep(100);
          continue;
        }
        connections++;
        while (c.ws.readyState === WebSocket.OPEN && performance.now() < end) {
          c.ws.send(JSON.stringify({ action: 'scrape' }));
          await sleep(10);
        }
        const closed = await Promise.race([c.closed, sleep(200).then(() => null)]);
        if (closed) closes[closed.code] = (closes[closed.code] ?? 0) + 1;
      }
      Object.assign(s, {
        scrapesAnswered,
        swarmsListed,
        scrapeConnections: connections,
        scrapeCloses: closes,
      });
      await closeAll();
    });

    await phase(`${SOCKETS} sockets from one address, held ${SECONDS} s`, async (s) => {
      const statuses = {};
      for (let i = 0; i < SOCKETS; i += 200) {
        const wave = await Promise.all(
          Array.from({ length: Math.min(200, SOCKETS - i) }, () => open('203.0.113.2')),
        );
        for (const w of wave) statuses[w.status] = (statuses[w.status] ?? 0) + 1;
      }
      s.upgrades = statuses;
      await sleep(SECONDS * 1000);
      s.stillOpen = everyone.filter((ws) => ws.readyState === WebSocket.OPEN).length;
      await closeAll();
    });

    await phase('eclipse', async (s) => {
      const swarm = binaryId();
      const real = await open('198.51.100.1', (m) => {
        if (m.offer) offersToReal++;
      });
      announce(real.ws, swarm, binaryId());
      await sleep(200);

      const liar = await open('203.0.113.66');
      for (let i = 0; i < 1000 && liar.ws.readyState === WebSocket.OPEN; i++)
        announce(liar.ws, swarm, binaryId());
      s.burstClose = await closeOf(liar);

      let crowdIn = 0;
      let crowdRefused = 0;
      for (let i = 0; i < 200; i++) {
        const c = await open('203.0.113.67', (m) => {
          if (m.action !== 'announce' || m.offer) return;
          if (m['failure reason']) crowdRefused++;
          else crowdIn++;
        });
        if (!c.ws) break;
        announce(c.ws, swarm, binaryId());
      }
      await sleep(500);
      Object.assign(s, { crowdIn, crowdRefused });

      for (let i = 0; i < NEXT_VIEWERS; i++) {
        const next = await open(`198.51.100.${10 + i}`);
        const offers = Array.from({ length: 5 }, () => ({
          offer: { type: 'offer', sdp: 'v=0' },
          offer_id: binaryId(),
        }));
        announce(next.ws, swarm, binaryId(), { numwant: 5, offers });
        await sleep(50);
        next.ws.close();
      }
      await sleep(500);
      s.nextViewersOfferingToReal = `${offersToReal} of ${NEXT_VIEWERS}`;
      s.realViewerStillOpen = real.ws.readyState === WebSocket.OPEN;
      await closeAll();
    });

    const growth = mb(rssMax - rssBefore);
    results.push({
      case: 'server RSS growth over all phases',
      n: 1,
      p50: growth,
      unit: 'MB',
      target: `≤ ${TARGET_RSS_MB}`,
      ok: growth <= TARGET_RSS_MB,
    });
    results.push({
      case: 'eclipse: next viewers whose offers reached the real viewer',
      n: NEXT_VIEWERS,
      p50: offersToReal,
      unit: 'viewers',
      target: `${NEXT_VIEWERS} of ${NEXT_VIEWERS}`,
      ok: offersToReal === NEXT_VIEWERS,
    });
  } finally {
    for (const ws of everyone) ws.terminate();
    await server.stop();
  }

  await printResult(
    'tracker-attack',
    {
      seconds: SECONDS,
      rssBeforeMB: mb(rssBefore),
      phases,
    },
    results,
  );
}

// The runner starts this file once; the file starts itself again as the other client of each phase.
if (process.argv[2] === 'other-client') await otherClientProcess(process.argv.slice(3));
else await bench();
