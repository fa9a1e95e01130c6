#!/usr/bin/env node
// `npm run simulate -- --keys <hash,...> --token <API token> [--url http://127.0.0.1:8080]
// [--viewers N] [--minutes M]`: simulated viewer sessions (daily pattern, joins and leaves, P2P share
// growing with the audience) reporting every 10–20 s through the real ingest API, in batches signed with
// an API token of the keys' team (scope: statistics ingest) (Team settings; batches of many sessions need one).
// `npm run simulate -- --keys <hash,...> --backfill DAYS [--viewers N]`: writes DAYS of history for
// those keys straight into the database at DATABASE_URL through the same aggregation code (the ingest
// API rightly rejects reports older than 10 minutes). Needs the built server (npm run build).
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';

const dist = new URL('../apps/server/dist/', import.meta.url);
if (!existsSync(new URL('demo/simulator.js', dist))) {
  process.stderr.write('The server is not built yet: run `npm run build` first.\n');
  process.exit(2);
}
const { values } = parseArgs({
  options: {
    keys: { type: 'string' },
    url: { type: 'string', default: 'http://127.0.0.1:8080' },
    token: { type: 'string', default: process.env.API_TOKEN },
    viewers: { type: 'string', default: '200' },
    minutes: { type: 'string' },
    backfill: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
const keys = (values.keys ?? '')
  .split(',')
  .map((k) => k.trim())
  .filter(Boolean);
if (values.help || keys.length === 0) {
  process.stderr.write(
    'usage: npm run simulate -- --keys <hash,...> --token <API token> [--url URL] [--viewers N] [--minutes M]\n' +
      '       npm run simulate -- --keys <hash,...> --backfill DAYS [--viewers N]\n',
  );
  process.exit(values.help ? 0 : 2);
}
const viewers = Number(values.viewers);
const log = (m) => process.stdout.write(`${m}\n`);

if (values.backfill) {
  const days = Number(values.backfill);
  const { loadConfig } = await import(new URL('config.js', dist).href);
  const { openDatabase, migrateToLatest } = await import(new URL('db/index.js', dist).href);
  const { ensureDatabaseFolder } = await import(new URL('config.js', dist).href);
  const { backfillHistory } = await import(new URL('demo/backfill.js', dist).href);
  const { openStatsStore } = await import(new URL('features/statistics/store.js', dist).href);
  const config = loadConfig();
  ensureDatabaseFolder(config.database);
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    const rows = await db
      .selectFrom('keys')
      .select(['id', 'key_hash'])
      .where('key_hash', 'in', keys)
      .execute();
    const unknown = keys.filter((k) => !rows.some((r) => r.key_hash === k));
    if (unknown.length) log(`unknown keys skipped: ${unknown.join(', ')}`);
    const t0 = Date.now();
    const store = await openStatsStore(config, db);
    const { minutes } = await backfillHistory(
      store,
      rows.map((r) => ({ id: r.id, peak: viewers })),
      days,
      Date.now(),
    );
    log(`backfilled ${days} days for ${rows.length} keys: ${minutes} key-minutes in ${Date.now() - t0} ms`);
    await store.close();
  } finally {
    await db.destroy();
  }
  process.exit(0);
}

if (!values.token) {
  process.stderr.write(
    "An API token of the keys' team (scope: statistics ingest) is needed (--token or API_TOKEN): without one the ingest takes one\n" +
      'session per request within a budget per address. Create one in Team settings → API tokens.\n',
  );
  process.exit(2);
}
const { LiveSimulation } = await import(new URL('demo/simulator.js', dist).href);
const { PLAYER_PATHS } = await import('@tlprt/contract');
const url = new URL(PLAYER_PATHS.ingest, values.url);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) log(`note: sending to ${url.host}`);
const sim = new LiveSimulation(keys, viewers);
const endAt = values.minutes ? Date.now() + Number(values.minutes) * 60_000 : Number.POSITIVE_INFINITY;
let sent = 0;
let rejected = 0;
let stop = false;
process.on('SIGINT', () => {
  stop = true;
});
log(`simulating ~${viewers} viewers per key at peak for ${keys.length} keys → ${url}`);
let lastLog = 0;
while (!stop && Date.now() < endAt) {
  const reports = sim.tick(Date.now());
  for (let i = 0; i < reports.length; i += 1000) {
    const batch = reports.slice(i, i + 1000);
    try {
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${values.token}` },
        body: JSON.stringify({ reports: batch }),
      });
      const body = await r.json();
      if (r.status !== 202) log(`ingest answered ${r.status}: ${JSON.stringify(body)}`);
      else {
        sent += body.accepted;
        rejected += body.rejected;
        if (body.errors.length && rejected === body.rejected)
          log(`rejected: ${JSON.stringify(body.errors[0])}`);
      }
    } catch (err) {
      log(`ingest failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (Date.now() - lastLog > 10_000) {
    lastLog = Date.now();
    log(`${new Date().toISOString()}  viewers ${sim.viewers}  accepted ${sent}  rejected ${rejected}`);
  }
  await new Promise((r) => setTimeout(r, 1000));
}
log(`done: accepted ${sent}, rejected ${rejected}`);
