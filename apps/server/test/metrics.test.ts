import { PATHS, PLAYER_PATHS } from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { Api } from './helpers/http.js';
import { ingestAsBrowsers } from './helpers/ingest.js';
import { PUBLIC_URL, startServer } from './helpers/server.js';
import { M, statsServer, statsTeam } from './helpers/stats.js';
import { connectWs, nextMessage } from './helpers/ws.js';

/**
 * GET /metrics: Prometheus text for operators, served on loopback or with METRICS=on, never
 * on an open interface otherwise (it tells how much traffic each part carries).
 */

/** The samples of a Prometheus text answer: `name{labels}` → value. Comments must be HELP or TYPE. */
function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      expect(line).toMatch(/^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* /);
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)(?: \d+)?$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample: ${line}`);
    samples.set(m[1] as string, Number(m[2]));
  }
  return samples;
}

const stats = statsServer();

async function scrape(base: string) {
  const res = await fetch(`${base}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await res.text());
}

describe('GET /metrics', () => {
  it('counts reports accepted and refused by reason, flushes, tracker sockets, swarms and peers', async () => {
    const s = await statsTeam(stats);
    const [k = ''] = s.hashes;
    const before = await scrape(stats.server.base);
    const accepted = (m: Map<string, number>) =>
      m.get('tlprt_ingest_reports_total{result="accepted",reason=""}') ?? 0;
    const refused = (m: Map<string, number>, reason: string) =>
      m.get(`tlprt_ingest_reports_total{result="refused",reason="${reason}"}`) ?? 0;
    const flushes = (m: Map<string, number>) => m.get('tlprt_stats_flush_duration_seconds_count') ?? 0;

    const report = (sessionId: string, apiKey = k) => ({
      apiKey,
      sessionId,
      ts: M,
      cdnBytes: 10,
      p2pBytes: 0,
    });
    await ingestAsBrowsers(stats.api, [report('a'), report('b'), report('c', 'x'.repeat(40)), { apiKey: k }]);
    await stats.server.app.stats.flush();
    const tracker = await connectWs(
      `${stats.server.base.replace(/^http/, 'ws')}${PLAYER_PATHS.tracker}?key=${k}`,
      new URL(PUBLIC_URL).origin,
    );
    if (!('ws' in tracker)) throw new Error(`tracker refused: ${tracker.status}`);
    // One peer announces itself in one swarm, as the plugin does (20 bytes of info hash and peer id).
    const answered = nextMessage(tracker.ws);
    tracker.ws.send(
      JSON.stringify({
        action: 'announce',
        info_hash: 'i'.repeat(20),
        peer_id: 'p'.repeat(20),
        numwant: 0,
        uploaded: 0,
        downloaded: 0,
        left: 1000,
        event: 'started',
        offers: [],
      }),
    );
    expect(await answered).toMatchObject({ action: 'announce' });

    const after = await scrape(stats.server.base);
    expect(accepted(after) - accepted(before)).toBe(2);
    expect(refused(after, 'key') - refused(before, 'key')).toBe(1);
    expect(refused(after, 'invalid') - refused(before, 'invalid')).toBe(1);
    expect(flushes(after) - flushes(before)).toBeGreaterThanOrEqual(1);
    expect(after.get('tlprt_tracker_sockets')).toBe(1);
    expect(after.get('tlprt_tracker_swarms')).toBe(1);
    expect(after.get('tlprt_tracker_peers')).toBe(1);
    // The process's own figures come along.
    expect(after.get('tlprt_process_resident_memory_bytes')).toBeGreaterThan(0);
    tracker.ws.close();
    // The peer leaves with its socket.
    await expect
      .poll(async () => {
        const m = await scrape(stats.server.base);
        return [m.get('tlprt_tracker_sockets'), m.get('tlprt_tracker_peers')];
      })
      .toEqual([0, 0]);
  });

  it('counts the requests a rate limit refused, by route; not served beyond loopback unless METRICS=on', async () => {
    // Listening on every interface: off unless asked for.
    const open = await startServer({ env: { HOST: '0.0.0.0', INGEST_REPORTS_PER_ADDRESS_PER_MINUTE: '1' } });
    const on = await startServer({
      env: { HOST: '0.0.0.0', METRICS: 'on', INGEST_REPORTS_PER_ADDRESS_PER_MINUTE: '1' },
    });
    try {
      expect((await fetch(`${open.base}/metrics`)).status).toBe(404);
      const api = new Api(on.base);
      const report = {
        apiKey: 'x'.repeat(40),
        sessionId: 's',
        ts: Math.floor(Date.now() / 1000),
        cdnBytes: 1,
        p2pBytes: 0,
      };
      expect((await api.post(PATHS.statistics.ingest, { reports: [report] })).status).toBe(202);
      expect((await api.post(PATHS.statistics.ingest, { reports: [report] })).status).toBe(429);
      const m = await scrape(on.base);
      expect(m.get(`tlprt_rate_limited_total{route="${PATHS.statistics.ingest}"}`)).toBe(1);
    } finally {
      await open.close();
      await on.close();
    }
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).metrics).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:', METRICS: 'off' }).metrics).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:', HOST: '0.0.0.0' }).metrics).toBe(false);
  });
});
