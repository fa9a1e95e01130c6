#!/usr/bin/env node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alsoOnPostgres, pct, printResult, round } from './lib/common.mjs';

const dist = new URL('../../apps/server/dist/', import.meta.url);
const { buildApp } = await import(new URL('app.js', dist).href);
const { loadConfig } = await import(new URL('config.js', dist).href);
const { hashPassword } = await import(new URL('lib/passwords.js', dist).href);

const TEAMS = Number(process.env.BENCH_TEAMS ?? 50_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 300);
const DAY = 24 * 3600 * 1000;
const NOW = Date.now();
const log = (m) => process.stderr.write(`  ${m}\n`);

// Deterministic pseudo-random numbers (mulberry32), so runs are comparable.
let seed = 0;
const rnd = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const int = (n) => Math.floor(rnd() * n);

const ADJ =
  'amber blue brave bright calm clever crimson swift golden green happy iron lucky mighty noble'.split(' ');
const NOUN =
  'falcon river media stream vision pixel orbit harbor summit cinema studio signal atlas beacon'.split(' ');
const KIND = 'TV Video Live Play Cast Net Labs Group Studio Hub'.split(' ');
const TAGS = [
  'vip',
  'trial',
  'enterprise',
  'churn-risk',
  'reseller',
  'edu',
  'sports',
  'news',
  'gaming',
  'ott',
];

/** Bulk inserts in one transaction per table, many rows per statement. */
async function insertMany(db, table, rows, per = 500) {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += per)
      await trx
        .insertInto(table)
        .values(rows.slice(i, i + per))
        .execute();
  });
}

async function generate(db) {
  seed = 0x5eed; // the same data on every database
  const t0 = Date.now();
  const passwordHash = await hashPassword('bench-password');
  const users = [];
  const teams = [];
  const members = [];
  const tags = [];
  const userCount = Math.round(TEAMS * 1.5);
  for (let u = 1; u <= userCount; u++) {
    users.push({
      id: u + 1,
      email: `${pick(ADJ)}.${pick(NOUN)}${u}@customer${u % 997}.example`,
      password_hash: null,
      name: pick(ADJ),
      surname: pick(NOUN),
      supervisor: 0,
      created_at: NOW - int(700) * DAY,
    });
  }
  for (let t = 1; t <= TEAMS; t++) {
    const r = rnd();
    teams.push({
      id: t,
      name: `${pick(ADJ)} ${pick(NOUN)} ${pick(KIND)} ${t}`,
      website: `site${t}.example`,
      status_id: r < 0.9 ? 10 : r < 0.95 ? 30 : r < 0.97 ? 40 : 50,
      suspended: rnd() < 0.04 ? 1 : 0,
      created_at: NOW - int(2 * 365 * DAY),
    });
    // 1 to 4 members: the first an Admin, user ids spread over every user.
    const n = 1 + int(4);
    const seen = new Set();
    for (let k = 0; k < n; k++) {
      const user = 2 + ((t * 7 + k * 104_729 + int(50)) % userCount);
      if (seen.has(user)) continue;
      seen.add(user);
      members.push({ team_id: t, user_id: user, role: k === 0 ? 10 : pick([30, 40]), created_at: NOW });
    }
    if (rnd() < 0.3) tags.push({ team_id: t, tag: `${pick(TAGS)}-${t % 50}`, created_at: NOW });
  }
  // The benchmark's supervisor, id 1.
  users.unshift({
    id: 1,
    email: 'bench-supervisor@example.test',
    password_hash: passwordHash,
    name: 'Bench',
    surname: 'Supervisor',
    supervisor: 1,
    created_at: NOW,
  });
  await insertMany(db, 'users', users);
  await insertMany(db, 'teams', teams);
  await insertMany(db, 'team_members', members);
  await insertMany(db, 'team_tags', tags);
  const favourites = Array.from({ length: 200 }, (_, i) => ({
    user_id: 1,
    team_id: 1 + ((i * 251) % TEAMS),
    created_at: NOW,
  }));
  await insertMany(db, 'team_favourites', favourites);
  return { users, teams, members, tags, ms: Date.now() - t0 };
}

async function benchOn(label, databaseUrl) {
  log(`${label}: building the server and ${TEAMS} teams…`);
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: 'http://bench.test',
    WEB_DIST: join(tmpdir(), 'tlprt-bench-no-web'),
  });
  const app = await buildApp(config, { logger: false, rateLimits: { guestPerMinute: 1_000_000 } });
  try {
    const data = await generate(app.ctx.db);
    if (label === 'postgres') {
      const { sql } = await import('kysely');
      await sql`analyze`.execute(app.ctx.db);
      // Serial ids were given explicitly: move the sequences past them.
      for (const t of ['users', 'teams'])
        await sql`select setval(pg_get_serial_sequence(${t}, 'id'), (select max(id) from ${sql.table(t)}))`.execute(
          app.ctx.db,
        );
    } else {
      const { sql } = await import('kysely');
      await sql`analyze`.execute(app.ctx.db);
    }
    log(
      `${label}: generated ${data.teams.length} teams, ${data.users.length} users, ${data.members.length} memberships, ${data.tags.length} tags in ${data.ms} ms`,
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${app.server.address().port}`;
    const login = await fetch(`${base}/auth/guest/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'bench-supervisor@example.test', password: 'bench-password' }),
    });
    const { access_token: token } = await login.json();
    if (!token) throw new Error(`sign-in failed: ${login.status}`);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const search = async (body) => {
      const t = performance.now();
      const r = await fetch(`${base}/api/v1/teams`, { method: 'POST', headers, body: JSON.stringify(body) });
      const json = await r.json();
      const ms = performance.now() - t;
      if (r.status !== 200)
        throw new Error(`search ${JSON.stringify(body)} → ${r.status} ${JSON.stringify(json)}`);
      return { ms, total: json.pagination.total };
    };
    const page = () => (rnd() < 0.8 ? 1 : 2 + int(3));
    const limit = () => (rnd() < 0.5 ? 10 : 20);
    const team = () => pick(data.teams);
    const kinds = {
      name: () => {
        const words = team().name.split(' ');
        return { general: rnd() < 0.5 ? `${words[0]} ${words[1]}` : words[1].slice(0, 5) };
      },
      id: () => ({ general: String(team().id) }),
      tag: () => ({ general: pick(data.tags).tag }),
      'e-mail': () => ({ general: pick(data.users).email }),
      status: () => (rnd() < 0.5 ? { statuses: [10, 30] } : { suspended: 1 }),
      'date range': () => {
        const days = pick([1, 7, 30, 365]);
        const end = NOW - int(300) * DAY;
        return { start_time: Math.floor((end - days * DAY) / 1000), end_time: Math.floor(end / 1000) };
      },
      favourites: () => ({ favourite: 2, ...(rnd() < 0.5 ? { statuses: [10, 30] } : {}) }),
      combined: () => ({
        general: pick(NOUN),
        statuses: [10, 30],
        start_time: Math.floor((NOW - 365 * DAY) / 1000),
        end_time: Math.floor(NOW / 1000),
      }),
    };
    for (let i = 0; i < 30; i++) await search({ ...kinds.name(), page: 1, limit: 10 }); // warm-up
    const results = [];
    for (const [kind, make] of Object.entries(kinds)) {
      const times = [];
      let matched = 0;
      for (let i = 0; i < SEARCHES; i++) {
        const p = page();
        const r = await search({ ...make(), page: p, limit: limit(), scroll: p > 1 ? 1 : 0 });
        times.push(r.ms);
        matched += r.total;
      }
      const row = {
        case: `${label} ${kind}`,
        n: times.length,
        p50: round(pct(times, 50)),
        p95: round(pct(times, 95)),
        max: round(Math.max(...times)),
        unit: 'ms',
        avgMatches: Math.round(matched / times.length),
      };
      log(`${row.case}: p50 ${row.p50} ms, p95 ${row.p95} ms (avg ${row.avgMatches} matches)`);
      results.push(row);
    }
    return results;
  } finally {
    await app.close();
  }
}

const started = Date.now();
const results = [];
const dir = mkdtempSync(join(tmpdir(), 'tlprt-bench-'));
try {
  // BENCH_SQLITE_PATH keeps the generated database for a closer look (EXPLAIN QUERY PLAN).
  const path = process.env.BENCH_SQLITE_PATH ?? join(dir, 'bench.db');
  results.push(...(await benchOn('sqlite', `sqlite:${path}`)));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
results.push(...(await alsoOnPostgres(benchOn)));
await printResult(
  'team-search',
  {
    teams: TEAMS,
    searchesPerKind: SEARCHES,
    seconds: Math.round((Date.now() - started) / 1000),
  },
  results,
);
