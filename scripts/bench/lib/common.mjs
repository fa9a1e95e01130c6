// Helpers shared by the benchmarks of scripts/bench (not a benchmark itself: the runner only runs the
// .mjs files directly in scripts/bench).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The p-th percentile (nearest rank) of a list of numbers. */
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
export const round = (x) => Math.round(x * 100) / 100;

/** A fresh database on the BENCH_DATABASE_URL server (dropped afterwards). */
export async function freshPg(url) {
  const name = `tlprt_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** `run('postgres', url)` on a fresh database of BENCH_DATABASE_URL's server when it is set; [] otherwise. */
export async function alsoOnPostgres(run) {
  if (!process.env.BENCH_DATABASE_URL) return [];
  const db = await freshPg(process.env.BENCH_DATABASE_URL);
  try {
    return await run('postgres', db.url);
  } finally {
    await db.drop();
  }
}

/**
 * `run('clickhouse', databaseUrl, clickhouseUrl)` with the statistics in ClickHouse: BENCH_CLICKHOUSE_URL's
 * server, or one started for the run (scripts/clickhouse.mjs) when clickhouse-server is installed; []
 * when neither. Accounts and keys in a SQLite file of their own, a fresh ClickHouse database, both dropped.
 */
export async function alsoOnClickHouse(run) {
  const { startClickHouse } = await import('../../clickhouse.mjs');
  const server = process.env.BENCH_CLICKHOUSE_URL
    ? { url: process.env.BENCH_CLICKHOUSE_URL, stop() {} }
    : await startClickHouse();
  if (!server) return [];
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'tlprt-bench-ch-'));
  const database = `tlprt_bench_${randomBytes(5).toString('hex')}`;
  try {
    return await run('clickhouse', `sqlite:${join(dir, 'bench.db')}`, `${server.url}/${database}`);
  } finally {
    await fetch(server.url, { method: 'POST', body: `drop database if exists ${database}` }).catch(
      () => undefined,
    );
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The verified domain of the bench's team: its pages' Origin is a customer's, as players send it. */
export const BENCH_CUSTOMER_HOST = 'player.bench.test';

/**
 * The bench's account: a user, its team with a verified domain (BENCH_CUSTOMER_HOST) and `keys` team-wide
 * keys (with `session`, a bearer token too), made by the built server's own code in `db`
 * (apps/server/dist). Answers {userId, teamId, keys: [{id, keyHash}], token}.
 */
export async function seedBenchTeam(db, { keys = 10, session = false } = {}) {
  const dist = new URL('../../../apps/server/dist/', import.meta.url);
  const load = (path) => import(new URL(path, dist).href);
  const { insertUserIfAbsent } = await load('directory/users.js');
  const { insertSession } = await load('directory/sessions.js');
  const { insertTeamWithMember } = await load('features/teams/queries.js');
  const { insertKey } = await load('features/domains/keys/queries.js');
  const { newKeyHash } = await load('features/domains/keys/hash.js');
  const { randomToken, sha256 } = await load('lib/tokens.js');
  const now = Date.now();
  const userId = await insertUserIfAbsent(db, {
    email: 'bench@example.test',
    passwordHash: null,
    supervisor: false,
    subscription: false,
    createdAt: now,
    name: 'Bench',
    surname: 'User',
  });
  const teamId = await insertTeamWithMember(db, { name: 'Bench', createdAt: now }, { userId, role: 10 });
  const { insertDomain, updateDomain } = await load('features/domains/queries.js');
  const { newVerificationHash } = await load('features/domains/verification/host.js');
  const { DomainStatus } = await import('@tlprt/contract');
  const domainId = await insertDomain(db, {
    teamId,
    host: BENCH_CUSTOMER_HOST,
    name: BENCH_CUSTOMER_HOST,
    hash: newVerificationHash(),
    createdAt: now,
  });
  // Verified (by a file, method 5) and switched on, as the dashboard leaves a domain its owner proved.
  await updateDomain(db, teamId, domainId, {
    verification: 1,
    status: DomainStatus.Active,
    verification_method: 5,
    draft: 1,
  });
  const made = [];
  for (let i = 0; i < keys; i++) {
    const keyHash = newKeyHash();
    made.push({
      id: await insertKey(db, { teamId, domainId: null, keyHash, name: `k${i}`, createdAt: now }),
      keyHash,
    });
  }
  // Batches of many sessions go to the ingest with an API token of the team (docs/DESIGN.md §7).
  const ingestToken = `${(await import('@tlprt/contract')).TEAM_TOKEN_PREFIX}${randomToken(32)}`;
  const { insertToken } = await load('features/team-tokens/queries.js');
  await insertToken(db, {
    teamId,
    name: 'bench',
    scope: 'ingest',
    tokenHash: sha256(ingestToken),
    createdBy: userId,
    createdAt: now,
  });
  let token;
  if (session) {
    token = randomToken(32);
    await insertSession(db, {
      userId,
      tokenHash: sha256(token),
      createdAt: now,
      expiresAt: now + 86_400_000,
    });
  }
  return { userId, teamId, keys: made, token, ingestToken };
}

/** The machine's load averages (1, 5, 15 min): the benches share their CPUs, figures depend on it. */
export const loadAverage = async () => {
  const { loadavg } = await import('node:os');
  return loadavg().map((x) => round(x));
};

/** Prints a bench's one line of JSON: its results and what they were measured on. */
export async function printResult(bench, env, results) {
  const { cpus, totalmem } = await import('node:os');
  const machine = {
    node: process.version,
    cpus: cpus().length,
    memGB: Math.round(totalmem() / 2 ** 30),
    load: await loadAverage(),
  };
  process.stdout.write(`${JSON.stringify({ bench, env: { ...machine, ...env }, results })}\n`);
}

/**
 * One of lib/bench-server.mjs's servers in its own process ('app': the built server on a throwaway
 * SQLite database, `keys` keys seeded, `env` added to its configuration; 'bare': the Fastify ceiling).
 * Resolves when it listens:
 * {port, origin, keys, stats(), stop()}; stats() → {rss, cpuUs (the process's CPU time so far), ...}.
 */
export async function startServer(mode, { keys = 10, env = {} } = {}) {
  const { fork } = await import('node:child_process');
  const script = new URL('./bench-server.mjs', import.meta.url);
  const child = fork(script, [mode, String(keys)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_SERVER_ENV: JSON.stringify(env) },
  });
  const first = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`bench server (${mode}) exited with ${code}`)));
  });
  const ask = () =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send('measure');
    });
  return {
    ...first,
    pid: child.pid,
    stats: ask,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}
