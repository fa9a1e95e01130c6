#!/usr/bin/env node
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { alsoOnClickHouse, alsoOnPostgres, pct, printResult, round, seedBenchTeam } from './lib/common.mjs';

const dist = new URL('../../apps/server/dist/', import.meta.url);
const { buildApp } = await import(new URL('app.js', dist).href);
const { loadConfig } = await import(new URL('config.js', dist).href);
const { refreshRollups, refreshTeamTotals } = await import(
  new URL('features/statistics/queries.js', dist).href
);
const { refreshBlocks } = await import(new URL('features/statistics/block-queries.js', dist).href);
const { ClickHouse } = await import(new URL('features/statistics/clickhouse/client.js', dist).href);
const { refreshRollups: refreshRollupsCh } = await import(
  new URL('features/statistics/clickhouse/points.js', dist).href
);
const { BREAKDOWN_DIMENSIONS, PEAK_SERIES, POINT_VALUES, STORED_COLUMNS } = await import('@tlprt/contract');

const KEYS = 50;
const DAYS = 30;
const BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 300);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const log = (m) => process.stderr.write(`  ${m}\n`);

/**
 * A query as a browser makes it: one kept-alive connection, the answer decompressed and parsed. Not
 * fetch: undici's streams took 3 ms of their own per 150 kB answer, a cost a browser's native
 * decoding does not have and that hid the server's own time.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function post(url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, agent },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const text =
            encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
          resolve({ status: res.statusCode, json: JSON.parse(text.toString('utf8')) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A value of every stored column (the series table's) for an audience of `viewers`: bytes ~ 22.5 MB
 *  per viewer-minute, 60 % from peers; play time, a few stalls, a play per viewer every 20 minutes,
 *  startup times spread over the histogram's buckets. Integer SQL per column. */
function seriesValues(viewers, isPg) {
  const int = (v) => (isPg ? sql`(${v})::bigint` : sql`cast(${v} as integer)`);
  const per = {
    cdn_bytes: sql`${viewers} * 9000000`,
    p2p_bytes: sql`${viewers} * 13500000`,
    cdn_users: viewers,
    p2p_users: sql`${viewers} * 0.9`,
    users: viewers,
    play_ms: sql`${viewers} * 58000`,
    stall_ms: sql`${viewers} * 300`,
    plays: sql`${viewers} / 20`,
    ceiling_bytes: sql`${viewers} * 20000000`,
  };
  return sql.join(
    STORED_COLUMNS.map((c) => {
      if (per[c.column]) return int(per[c.column]);
      const bucket = /^startup_(\d+)$/.exec(c.column);
      // Most plays start within a second: the buckets up to 1 s get most of them.
      if (bucket) return int(sql`${viewers} / ${sql.lit(Number(bucket[1]) < 5 ? 40 : 400)}`);
      return sql`0`;
    }),
  );
}
const COLUMNS = sql.join(STORED_COLUMNS.map((c) => sql.ref(c.column)));

/** 30 days of minutes for every key, made by the database itself (every series of the series table
 *  stored), then the rollups, the team totals and the blocks (minutes: the last 2 days, what retention
 *  keeps of them) by the server's own code, as a flush makes them. */
async function generateMinutes(db, teamId, keyIds, nowSec, isPg) {
  const to = nowSec - (nowSec % 60) - 600;
  const from = to - DAYS * 86_400;
  const ids = sql.join(keyIds);
  // Daily sine audience per key.
  const viewers = sql`(50 + (k.id % 7) * 30) * (0.6 + 0.4 * sin(m.x / 13751.0))`;
  if (isPg) {
    await sql`insert into stats_minute (key_id, minute, ${COLUMNS})
      select k.id, m.x, ${seriesValues(viewers, true)}
      from keys k cross join generate_series(${from}::bigint, ${to}::bigint, 60) as m(x)
      where k.id in (${ids})`.execute(db);
  } else {
    await sql`with recursive m(x) as (select ${sql.lit(from)} union all select x + 60 from m where x < ${sql.lit(to)})
      insert into stats_minute (key_id, minute, ${COLUMNS})
      select k.id, m.x, ${seriesValues(viewers, false)}
      from keys k cross join m where k.id in (${ids})`.execute(db);
  }
  for (const size of [1200, 3600]) await refreshRollups(db, size, keyIds, from - (from % size), to);
  await refreshTeamTotals(db, [teamId], from, to);
  await refreshBlocks(db, 60, keyIds, to - 2 * 86_400, to);
  await refreshBlocks(db, 1200, keyIds, from, to);
  await refreshBlocks(db, 3600, keyIds, from, to);
  await sql`analyze`.execute(db);
  return (to - from) / 60 + 1;
}

const STREAMS = 200;
const COUNTRIES = 50;
/** 30 days of daily breakdowns for every key (200 streams, 50 countries; a stream's audience falls
 *  off with its rank) and the team's totals of them, as the flush writes them. */
async function generateBreakdowns(db, teamId, keyIds, nowSec, isPg) {
  const today = nowSec - (nowSec % 86_400);
  const ids = sql.join(keyIds);
  const viewers = sql`((50 + (k.id % 7) * 30) * 1440.0 / (n.i + 1))`;
  const names = [
    [BREAKDOWN_DIMENSIONS.indexOf('stream'), STREAMS, sql`'media.example.com/stream-' || n.i || '.m3u8'`],
    [BREAKDOWN_DIMENSIONS.indexOf('country'), COUNTRIES, sql`'C' || n.i`],
  ];
  for (const [dim, count, name] of names) {
    const series = sql`
      with recursive d(x) as (select ${sql.lit(today - (DAYS - 1) * 86_400)} union all select x + 86400 from d where x < ${sql.lit(today)}),
        n(i) as (select 0 union all select i + 1 from n where i < ${sql.lit(count - 1)})
      select k.id, d.x, ${sql.lit(dim)}, ${name}, ${seriesValues(viewers, isPg)}
      from keys k cross join d cross join n where k.id in (${ids})`;
    await sql`insert into stats_breakdown_day (key_id, bucket, dim, name, ${COLUMNS}) ${series}`.execute(db);
  }
  await sql`insert into stats_team_breakdown_day (team_id, bucket, dim, name, ${COLUMNS})
    select ${teamId}, bucket, dim, name, ${sql.join(STORED_COLUMNS.map((c) => sql`sum(${sql.ref(c.column)})`))}
    from stats_breakdown_day where key_id in (${ids}) group by bucket, dim, name`.execute(db);
  await sql`analyze`.execute(db);
  return keyIds.length * DAYS * (STREAMS + COUNTRIES);
}

/** The audience of key `k` at minute `m`, and each stored column's value for it (as seriesValues). */
const AUDIENCE = (k, m) => `(50 + (${k} % 7) * 30) * (0.6 + 0.4 * sin(${m} / 13751.0))`;
const PER_VIEWER = {
  cdn_bytes: 9000000,
  p2p_bytes: 13500000,
  play_ms: 58000,
  stall_ms: 300,
  plays: 1 / 20,
  ceiling_bytes: 20000000,
};
const perViewer = (column) => {
  if (PER_VIEWER[column] !== undefined) return PER_VIEWER[column];
  const bucket = /^startup_(\d+)$/.exec(column);
  return bucket ? 1 / (Number(bucket[1]) < 5 ? 40 : 400) : 0;
};
const VIEWERS_OF = { cdn_users: 1, p2p_users: 0.9, users: 1 };

/** The same 30 days of minutes in ClickHouse, made by ClickHouse itself (sums, and the viewers as
 *  pre-counted minutes), then the rollups by the server's own code a day at a time, as flushes make
 *  them; minutes past their retention then dropped, as the store's retention does. */
async function generateMinutesCh(app, clickhouseUrl, teamId, keyIds, nowSec) {
  const ch = new ClickHouse(clickhouseUrl);
  const to = nowSec - (nowSec % 60) - 600;
  const from = to - DAYS * 86_400;
  const summed = STORED_COLUMNS.filter((c) => c.merge === 'sum');
  // A day at a time, as a server's flushes would have written it: the memory of one insert stays small.
  for (let day = from - (from % 86_400); day <= to; day += 86_400) {
    const first = Math.max(day, from);
    const last = Math.min(day + 86_340, to);
    const rows = `select arrayJoin([${keyIds.join(', ')}]) as k, toUInt32(${first} + number * 60) as m
      from numbers(${(last - first) / 60 + 1})`;
    await ch.command(`insert into stats_minute (team_id, key_id, minute, ${summed.map((c) => c.column).join(', ')})
      select ${teamId}, k, m, ${summed.map((c) => `toUInt64(${AUDIENCE('k', 'm')} * ${perViewer(c.column)})`).join(', ')}
      from (${rows})`);
    for (const [peak, p] of PEAK_SERIES.entries()) {
      const share = VIEWERS_OF[p.column];
      if (!share) continue;
      await ch.command(`insert into stats_minute_presets (team_id, key_id, minute, peak, viewers)
        select ${teamId}, k, m, ${peak}, toUInt64(${AUDIENCE('k', 'm')} * ${share}) from (${rows})`);
    }
    await refreshRollupsCh(ch, { teamIds: [teamId], keyIds, from: first, to: last }, Date.now());
  }
  await app.ctx.statsStore.prune(nowSec * 1000);
  await ch.close();
  return (to - from) / 60 + 1;
}

/**
 * Waits until ClickHouse has no merge running in the bench's database (at most a minute): the queries
 * are timed on the tables as they stand between writes, as PostgreSQL's are after its `analyze`, not
 * beside the merges of a month written a minute before.
 */
async function mergesSettled(clickhouseUrl) {
  const ch = new ClickHouse(clickhouseUrl);
  try {
    // Two seconds without one: the server picks parts to merge every few hundred ms.
    for (let quiet = 0, end = Date.now() + 60_000; quiet < 10 && Date.now() < end; ) {
      const [running] = await ch.rows(
        `select count() as n from system.merges where database = '${ch.database}'`,
      );
      quiet = Number(running?.n) === 0 ? quiet + 1 : 0;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await ch.close();
  }
}

/** The same 30 days of breakdowns through the store's own writer (a key's day as one hour's row). */
async function generateBreakdownsCh(app, keyIds, nowSec) {
  const today = nowSec - (nowSec % 86_400);
  const names = [
    [BREAKDOWN_DIMENSIONS.indexOf('stream'), STREAMS, (i) => `media.example.com/stream-${i}.m3u8`],
    [BREAKDOWN_DIMENSIONS.indexOf('country'), COUNTRIES, (i) => `C${i}`],
  ];
  let n = 0;
  for (let d = 0; d < DAYS; d++) {
    const bucket = today - (DAYS - 1 - d) * 86_400;
    const rows = [];
    for (const keyId of keyIds) {
      for (const [dim, count, name] of names) {
        for (let i = 0; i < count; i++) {
          const viewers = ((50 + (keyId % 7) * 30) * 1440) / (i + 1);
          const values = new Float64Array(POINT_VALUES);
          STORED_COLUMNS.forEach((c, j) => {
            values[j] = Math.floor(viewers * (VIEWERS_OF[c.column] ?? perViewer(c.column)));
          });
          rows.push({ keyId, bucket, dim, name: name(i), values });
        }
      }
    }
    await app.ctx.statsStore.writeBreakdowns(rows);
    n += rows.length;
  }
  return n;
}

async function benchOn(label, databaseUrl, clickhouseUrl) {
  // A journal of the run's own: PostgreSQL's default folder (./data/stats-journal) outlives the run, and
  // a segment an earlier run left there was replayed into this run's fresh database at start.
  const journal = mkdtempSync(join(tmpdir(), 'tlprt-bench-journal-'));
  const config = loadConfig({
    STATS_JOURNAL_DIR: journal,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: 'http://bench.test',
    WEB_DIST: join(tmpdir(), 'tlprt-bench-no-web'),
    // No timed flush during the ingest: the flush below is then all 300k reports, every run, and the
    // ingest figure the request path alone (the two together: "ingest then flush").
    STATS_INGEST_FLUSH_MS: '600000',
    ...(clickhouseUrl ? { CLICKHOUSE_URL: clickhouseUrl } : {}),
  });
  const app = await buildApp(config, { logger: false });
  const results = [];
  try {
    const { db } = app.ctx;
    const now = Date.now();
    const { teamId, keys, token, ingestToken } = await seedBenchTeam(db, { keys: KEYS, session: true });
    const keyIds = keys.map((k) => k.id);
    const isPg = config.database.kind === 'postgres';
    const t0 = Date.now();
    const perKey = clickhouseUrl
      ? await generateMinutesCh(app, clickhouseUrl, teamId, keyIds, Math.floor(now / 1000))
      : await generateMinutes(db, teamId, keyIds, Math.floor(now / 1000), isPg);
    log(`${label}: ${KEYS} keys × ${perKey} minutes (+ rollups) generated in ${Date.now() - t0} ms`);
    const tb = Date.now();
    const breakdownRows = clickhouseUrl
      ? await generateBreakdownsCh(app, keyIds, Math.floor(now / 1000))
      : await generateBreakdowns(db, teamId, keyIds, Math.floor(now / 1000), isPg);
    log(`${label}: ${breakdownRows} daily breakdown rows generated in ${Date.now() - tb} ms`);

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
    if (clickhouseUrl) await mergesSettled(clickhouseUrl);
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
    /** `rounds` timed requests (after 5 untimed) of a POST to `path` with the window of `asked` keys
     *  and `body`; `before` runs (and is awaited) ahead of each, untimed. Answers the times and the
     *  last answer. */
    const timed = async (path, asked, body, rounds, before = () => {}) => {
      const apiKeys = keys.slice(0, asked).map((k) => k.keyHash);
      const times = [];
      let json;
      for (let i = 0; i < rounds + 5; i++) {
        await before();
        const end = Math.floor(Date.now() / 1000);
        const t = performance.now();
        const r = await post(
          `${base}${path}`,
          headers,
          JSON.stringify({ apiKeys, startTimestamp: 0, endTimestamp: end, team_id: teamId, ...body }),
        );
        json = r.json;
        const ms = performance.now() - t;
        if (r.status !== 200) throw new Error(`${path} → ${r.status} ${JSON.stringify(json)}`);
        if (i >= 5) times.push(ms); // warm-up
      }
      return { times, json };
    };
    const row = (what, times, target) => {
      const p95 = round(pct(times, 95));
      log(`${label}: ${what} p50 ${round(pct(times, 50))} ms, p95 ${p95} ms`);
      return {
        case: `${what} ${label}`,
        n: times.length,
        p50: round(pct(times, 50)),
        p95,
        max: round(Math.max(...times)),
        unit: 'ms',
        ...(target && label === 'sqlite' ? { target: `p95 ≤ ${target} ms`, ok: p95 <= target } : {}),
      };
    };
    // `cold`: the server's decoded blocks (BlockCache) dropped before every query, as for a chart no
    // one asked for since the server started; reported beside the cases, without a target.
    const chart = async (asked, range, cold) => {
      const { times, json } = await timed(
        `/stats/v3/dashboard/${range}`,
        asked,
        // As the chart asks: the series it draws a point, every series in the window's totals.
        { clientId: 1, points: 'drawn' },
        cold ? Math.min(QUERIES, 50) : QUERIES,
        () => cold && app.stats.blockCache.clear(),
      );
      const what = `query ${range} (${json.data.length} points, ${asked} of ${KEYS} keys${cold ? ', cold' : ''})`;
      results.push(row(what, times, cold ? undefined : 20));
    };
    for (const asked of [KEYS, 40, 25])
      for (const range of ['day', 'week', 'month']) await chart(asked, range, false);
    for (const range of ['day', 'week', 'month']) await chart(25, range, true);
    // Live traffic: a report of one key flushed before every query, so that the blocks of the current
    // minute, 20 minutes and hour were rewritten since the last read (the cached ones are read again).
    let live = 0;
    const flushed = async () => {
      const r = await fetch(`${base}/stats/v1/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ingestToken}` },
        body: JSON.stringify({
          reports: [
            {
              apiKey: keys[0].keyHash,
              sessionId: `live-${live++}`,
              ts: Math.floor(Date.now() / 1000),
              cdnBytes: 1000,
            },
          ],
        }),
      });
      if (r.status !== 202) throw new Error(`ingest → ${r.status} ${await r.text()}`);
      await app.stats.flush();
    };
    for (const range of ['day', 'month']) {
      const { times, json } = await timed(
        `/stats/v3/dashboard/${range}`,
        KEYS,
        { clientId: 1, points: 'drawn' },
        Math.min(QUERIES, 100),
        flushed,
      );
      results.push(
        row(
          `query ${range} (${json.data.length} points, ${KEYS} of ${KEYS} keys, a flush before each)`,
          times,
        ),
      );
    }
    // Breakdowns of the month: every key (the team's totals) and 25 of them (their own rows).
    for (const asked of [KEYS, 25]) {
      for (const by of ['stream', 'country']) {
        // Fewer keys read their own rows, hundreds of times slower: fewer rounds of those.
        const rounds = asked === KEYS ? QUERIES : Math.min(QUERIES, 20);
        const { times, json } = await timed(
          '/stats/v3/dashboard/breakdown',
          asked,
          { range: 'month', by },
          rounds,
        );
        const what = `breakdown month by ${by} (${json.data.length} rows, ${asked} of ${KEYS} keys)`;
        results.push(row(what, times, asked === KEYS ? 50 : undefined));
      }
    }
    // The same on live traffic: today's breakdowns rewritten before every query.
    for (const by of ['stream', 'country']) {
      const { times, json } = await timed(
        '/stats/v3/dashboard/breakdown',
        KEYS,
        { range: 'month', by },
        Math.min(QUERIES, 100),
        flushed,
      );
      results.push(
        row(
          `breakdown month by ${by} (${json.data.length} rows, ${KEYS} of ${KEYS} keys, a flush before each)`,
          times,
        ),
      );
    }
  } finally {
    await app.close();
    rmSync(journal, { recursive: true, force: true });
  }
  return results;
}

/** Which stores to measure (BENCH_STORES=sqlite,postgres,clickhouse by default; PostgreSQL needs
 *  BENCH_DATABASE_URL, ClickHouse clickhouse-server or BENCH_CLICKHOUSE_URL). */
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres,clickhouse').split(',');
const results = [];
if (STORES.includes('sqlite')) {
  const dir = mkdtempSync(join(tmpdir(), 'tlprt-bench-stats-'));
  try {
    results.push(...(await benchOn('sqlite', `sqlite:${join(dir, 'bench.db')}`)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
if (STORES.includes('postgres')) results.push(...(await alsoOnPostgres(benchOn)));
if (STORES.includes('clickhouse')) results.push(...(await alsoOnClickHouse(benchOn)));
await printResult(
  'statistics',
  {
    keys: KEYS,
    days: DAYS,
  },
  results,
);
agent.destroy();
