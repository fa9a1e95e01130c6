#!/usr/bin/env node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { alsoOnPostgres, pct, printResult, round, seedBenchTeam } from './lib/common.mjs';

const dist = new URL('../../apps/server/dist/', import.meta.url);
const { buildApp } = await import(new URL('app.js', dist).href);
const { loadConfig } = await import(new URL('config.js', dist).href);
const { refreshBlocks, refreshTeamTotals } = await import(
  new URL('features/statistics/queries.js', dist).href
);

const KEYS = 50;
const DAYS = 30;
const BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 300);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const log = (m) => process.stderr.write(`  ${m}\n`);

/** 30 days of minutes for every key, made by the database itself, then the rollups, and the team
 *  totals and the blocks (minutes: the last 2 days, what retention keeps of them) by the server's own
 *  code, as a flush makes them. */
async function generateMinutes(db, teamId, keyIds, nowSec, isPg) {
  const to = nowSec - (nowSec % 60) - 600;
  const from = to - DAYS * 86_400;
  const ids = sql.join(keyIds);
  // Daily sine audience per key; bytes ~ 22.5 MB per viewer-minute, 60 % from peers.
  const viewers = sql`(50 + (k.id % 7) * 30) * (0.6 + 0.4 * sin(m.x / 13751.0))`;
  if (isPg) {
    await sql`insert into stats_minute (key_id, minute, cdn_bytes, p2p_bytes, nodr_bytes, cdn_users, p2p_users, nodr_users, users)
      select k.id, m.x, (${viewers} * 9000000)::bigint, (${viewers} * 13500000)::bigint, 0,
             (${viewers})::int, (${viewers} * 0.9)::int, 0, (${viewers})::int
      from keys k cross join generate_series(${from}::bigint, ${to}::bigint, 60) as m(x)
      where k.id in (${ids})`.execute(db);
  } else {
    await sql`with recursive m(x) as (select ${sql.lit(from)} union all select x + 60 from m where x < ${sql.lit(to)})
      insert into stats_minute (key_id, minute, cdn_bytes, p2p_bytes, nodr_bytes, cdn_users, p2p_users, nodr_users, users)
      select k.id, m.x, cast(${viewers} * 9000000 as integer), cast(${viewers} * 13500000 as integer), 0,
             cast(${viewers} as integer), cast(${viewers} * 0.9 as integer), 0, cast(${viewers} as integer)
      from keys k cross join m where k.id in (${ids})`.execute(db);
  }
  for (const [table, size] of [
    ['stats_20m', 1200],
    ['stats_hour', 3600],
  ]) {
    await sql`insert into ${sql.table(table)} (key_id, bucket, cdn_bytes, p2p_bytes, nodr_bytes, cdn_users, p2p_users, nodr_users, users)
      select key_id, (minute / ${sql.lit(size)}) * ${sql.lit(size)}, sum(cdn_bytes), sum(p2p_bytes), sum(nodr_bytes),
             max(cdn_users), max(p2p_users), max(nodr_users), max(users)
      from stats_minute where key_id in (${ids}) group by key_id, (minute / ${sql.lit(size)}) * ${sql.lit(size)}`.execute(
      db,
    );
  }
  await refreshTeamTotals(db, [teamId], from, to);
  await refreshBlocks(db, 60, keyIds, to - 2 * 86_400, to);
  await refreshBlocks(db, 1200, keyIds, from, to);
  await refreshBlocks(db, 3600, keyIds, from, to);
  await sql`analyze`.execute(db);
  return (to - from) / 60 + 1;
}

async function benchOn(label, databaseUrl) {
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: 'http://bench.test',
    WEB_DIST: join(tmpdir(), 'tlprt-bench-no-web'),
    // No timed flush during the ingest: the flush below is then all 300k reports, every run, and the
    // ingest figure the request path alone (the two together: "ingest then flush").
    STATS_INGEST_FLUSH_MS: '600000',
  });
  const app = await buildApp(config, { logger: false });
  const results = [];
  try {
    const { db } = app.ctx;
    const now = Date.now();
    const { teamId, keys, token, ingestToken } = await seedBenchTeam(db, { keys: KEYS, session: true });
    const t0 = Date.now();
    const perKey = await generateMinutes(
      db,
      teamId,
      keys.map((k) => k.id),
      Math.floor(now / 1000),
      config.database.kind === 'postgres',
    );
    log(`${label}: ${KEYS} keys × ${perKey} minutes (+ rollups) generated in ${Date.now() - t0} ms`);

    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${app.server.address().port}`;

    // Ingest: batches of 1,000 reports, 4 in flight, bodies prepared before timing.
    const nowSec = Math.floor(Date.now() / 1000);
    const bodies = Array.from({ length: BATCHES }, (_, b) =>
      JSON.stringify({
        reports: Array.from({ length: 1000 }, (_, i) => ({
          apiKey: keys[(b * 7 + i) % KEYS].keyHash,
          sessionId: `b${b}-s${i % 400}`,
          ts: nowSec,
          cdnBytes: 100_000 + i,
          p2pBytes: i % 3 === 0 ? 0 : 200_000,
        })),
      }),
    );
    const latencies = [];
    let next = 0;
    let accepted = 0;
    const worker = async () => {
      while (next < BATCHES) {
        const body = bodies[next++];
        const t = performance.now();
        const r = await fetch(`${base}/stats/v1/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${ingestToken}` },
          body,
        });
        const json = await r.json();
        latencies.push(performance.now() - t);
        if (r.status !== 202) throw new Error(`ingest → ${r.status} ${JSON.stringify(json)}`);
        accepted += json.accepted;
      }
    };
    const ti = performance.now();
    await Promise.all([worker(), worker(), worker(), worker()]);
    const seconds = (performance.now() - ti) / 1000;
    const tf = performance.now();
    await app.stats.flush();
    const flushMs = performance.now() - tf;
    if (accepted !== BATCHES * 1000) throw new Error(`accepted ${accepted} of ${BATCHES * 1000}`);
    results.push({
      case: `ingest ${label}`,
      n: accepted,
      p50: Math.round(accepted / seconds),
      unit: 'reports/s',
    });
    results.push({
      case: `ingest batch of 1000 ${label}`,
      n: latencies.length,
      p50: round(pct(latencies, 50)),
      p95: round(pct(latencies, 95)),
      max: round(Math.max(...latencies)),
      unit: 'ms',
    });
    results.push({ case: `flush ${accepted} reports ${label}`, n: 1, p50: round(flushMs), unit: 'ms' });
    results.push({
      case: `ingest then flush ${label}`,
      n: accepted,
      p50: Math.round(accepted / (seconds + flushMs / 1000)),
      unit: 'reports/s',
    });
    log(`${label}: ingest ${Math.round(accepted / seconds)} reports/s; flush ${Math.round(flushMs)} ms`);

    // Queries over the whole window of each range: all 50 keys (the "Active traffic" list when every
    // key is active), 40 (the team total less 10 keys) and 25 (the most a query sums key by key).
    // As a browser asks (the server then answers brotli-compressed JSON, as it does to Chromium).
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'accept-encoding': 'gzip, deflate, br',
    };
    for (const asked of [KEYS, 40, 25]) {
      const apiKeys = keys.slice(0, asked).map((k) => k.keyHash);
      for (const range of ['day', 'week', 'month']) {
        const times = [];
        let points = 0;
        for (let i = 0; i < QUERIES + 5; i++) {
          const end = Math.floor(Date.now() / 1000);
          const t = performance.now();
          const r = await fetch(`${base}/stats/v3/dashboard/${range}`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              apiKeys,
              startTimestamp: 0,
              endTimestamp: end,
              team_id: teamId,
              clientId: 1,
            }),
          });
          const json = await r.json();
          const ms = performance.now() - t;
          if (r.status !== 200) throw new Error(`${range} → ${r.status} ${JSON.stringify(json)}`);
          points = json.data.length;
          if (i >= 5) times.push(ms); // warm-up
        }
        results.push({
          case: `query ${range} (${points} points, ${asked} of ${KEYS} keys) ${label}`,
          n: times.length,
          p50: round(pct(times, 50)),
          p95: round(pct(times, 95)),
          max: round(Math.max(...times)),
          unit: 'ms',
        });
        log(
          `${label}: ${range} ${asked}/${KEYS} keys p50 ${round(pct(times, 50))} ms, p95 ${round(pct(times, 95))} ms`,
        );
      }
    }
  } finally {
    await app.close();
  }
  return results;
}

const results = [];
const dir = mkdtempSync(join(tmpdir(), 'tlprt-bench-stats-'));
try {
  results.push(...(await benchOn('sqlite', `sqlite:${join(dir, 'bench.db')}`)));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
results.push(...(await alsoOnPostgres(benchOn)));
await printResult(
  'statistics',
  {
    keys: KEYS,
    days: DAYS,
  },
  results,
);
