#!/usr/bin/env node
// `npm test`: builds, then runs every suite of docs/DESIGN.md §9 in turn and ends with one line
// "N passed, N failed". Server integration tests run twice: on SQLite and on a throwaway PostgreSQL; the
// statistics ones a third time with their statistics in a throwaway ClickHouse.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClickHouse } from './clickhouse.mjs';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2); // e.g. `npm test -- server-sqlite e2e`
const totals = { passed: 0, failed: 0, skipped: 0 };
const results = [];
/** Seconds since `t0`: each suite's time is printed, as CI must stay under 20 minutes. */
const since = (t0) => Math.round((Date.now() - t0) / 1000);

/**
 * The server test files of the server-clickhouse suite (SQLite with CLICKHOUSE_URL set, so the statistics
 * are written to and read from ClickHouse): every `statistics*.test.ts` and `clickhouse*.test.ts` (a new
 * one joins by its name), plus the CSV and JSON exports and the ingest over HTTP, which write and read
 * statistics too.
 */
const CLICKHOUSE_TEST_FILES = [
  ...readdirSync(join(root, 'apps/server/test')).filter((f) =>
    /^(statistics|clickhouse).*\.test\.ts$/.test(f),
  ),
  'export.test.ts',
  'ingest-http.test.ts',
].map((f) => `test/${f}`);

/** Runs a command; `held` keeps its output and prints it once it ends (a suite run beside another). */
function run(cmd, args, env = {}, held = false) {
  return new Promise((resolve) => {
    const output = [];
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    if (held) for (const stream of [child.stdout, child.stderr]) stream.on('data', (d) => output.push(d));
    child.on('exit', (code, signal) => {
      process.stdout.write(Buffer.concat(output));
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

function record(name, passed, failed, skipped = 0, seconds = 0) {
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  results.push({ name, passed, failed, skipped, seconds });
}

/** A Vitest suite: every test file under `dir`, or only `files` (paths relative to `dir`). */
async function vitest(name, dir, env = {}, held = false, files = []) {
  if (only.length && !only.includes(name)) return;
  const t0 = Date.now();
  const out = join(mkdtempSync(join(tmpdir(), 'vitest-')), 'report.json');
  const code = await run(
    'npx',
    [
      'vitest',
      'run',
      '--root',
      dir,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
      ...files,
    ],
    env,
    held,
  );
  if (!existsSync(out)) return record(name, 0, 1, 0, since(t0));
  const r = JSON.parse(readFileSync(out, 'utf8'));
  const failed = r.numFailedTests + (code !== 0 && r.numFailedTests === 0 ? 1 : 0);
  record(name, r.numPassedTests, failed, r.numPendingTests + r.numTodoTests, since(t0));
}

/** A Playwright suite; `wrap` runs it through another command (the P2P test's network namespace);
 *  `held` keeps its output until it ends (a suite run beside another). */
async function playwright(name, config, wrap = [], env = {}, held = false) {
  if (only.length && !only.includes(name)) return;
  const t0 = Date.now();
  const out = join(mkdtempSync(join(tmpdir(), 'pw-')), 'report.json');
  const [cmd, ...args] = [...wrap, 'npx', 'playwright', 'test', '--config', config, '--reporter=list,json'];
  const code = await run(cmd, args, { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: out }, held);
  if (!existsSync(out)) return record(name, 0, 1, 0, since(t0));
  const s = JSON.parse(readFileSync(out, 'utf8')).stats;
  const failed = s.unexpected + (code !== 0 && s.unexpected === 0 ? 1 : 0);
  record(name, s.expected + s.flaky, failed, s.skipped, since(t0));
}

/** A PostgreSQL cluster of our own, never the system one (docs/DESIGN.md §10). */
function startPostgres() {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, stop() {} };
  const base = '/usr/lib/postgresql';
  const version = existsSync(base) ? readdirSync(base).sort().pop() : undefined;
  const bin = version && join(base, version, 'bin');
  if (!bin || !existsSync(join(bin, 'initdb'))) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'pg-'));
  const asRoot = process.getuid?.() === 0;
  const pgRun = (tool, args) => {
    const [c, a] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
      : [join(bin, tool), args];
    return spawnSync(c, a, { stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
  };
  if (asRoot)
    chownSync(
      dir,
      Number(spawnSync('id', ['-u', 'postgres']).stdout),
      Number(spawnSync('id', ['-g', 'postgres']).stdout),
    );
  const port = 54000 + Math.floor(Math.random() * 900);
  if (!pgRun('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8']))
    return undefined;
  const opts = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c wal_level=minimal -c max_wal_senders=0 -c max_connections=200`;
  if (!pgRun('pg_ctl', ['-D', join(dir, 'data'), '-w', '-l', join(dir, 'log'), '-o', opts, 'start']))
    return undefined;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      pgRun('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A check that passes or fails as a whole (lint, typecheck). It runs beside every suite after the build,
 * at a lower priority (`nice`): it waits on no clock, so it takes the cycles the suites leave (the server
 * suites' waits, the real-time playback of the P2P ones) instead of slowing the suites that time things.
 * Its output is printed once done.
 */
function check(name, cmd, args) {
  if (only.length && !only.includes(name)) return async () => {};
  const output = [];
  const t0 = Date.now();
  let seconds = 0;
  const finished = new Promise((resolve) => {
    const child = spawn('nice', ['-n', String(NICE), cmd, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => output.push(d));
    child.stderr.on('data', (d) => output.push(d));
    child.on('exit', (code, signal) => {
      seconds = since(t0);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
  return async () => {
    const code = await finished;
    console.log(`\n> ${name}: ${code === 0 ? 'passed' : 'failed'}`);
    process.stdout.write(Buffer.concat(output));
    record(name, code === 0 ? 1 : 0, code === 0 ? 0 : 1, 0, seconds);
  };
}

/**
 * The server tests on a throwaway PostgreSQL, started at once: they run beside the SQLite ones (each
 * suite runs one file at a time, so each keeps about a core), their output printed when they end.
 */
async function serverPostgres() {
  if (only.length && !only.includes('server-postgres')) return;
  const pg = startPostgres();
  if (!pg) {
    console.error(
      'PostgreSQL is not installed (apt-get install -y postgresql): its server tests count as failed.',
    );
    return record('server-postgres', 0, 1);
  }
  try {
    await vitest('server-postgres', 'apps/server', { TEST_DATABASE_URL: pg.url }, true);
  } finally {
    pg.stop();
  }
}

/**
 * The statistics tests again with their statistics in a throwaway ClickHouse server
 * (scripts/clickhouse.mjs): on SQLite, with TEST_CLICKHOUSE_URL, from which each test server gets a
 * ClickHouse database of its own (apps/server/test/helpers/server.ts). Output printed when they end.
 */
async function serverClickHouse() {
  if (only.length && !only.includes('server-clickhouse')) return;
  const t0 = Date.now();
  const ch = await startClickHouse().catch((e) => {
    console.error(`ClickHouse did not start: ${e.message}`);
    return null;
  });
  if (ch === undefined)
    console.error(
      'ClickHouse is not installed (apt-get install -y clickhouse-server): its server tests count as failed.',
    );
  if (!ch) return record('server-clickhouse', 0, 1, 0, since(t0));
  try {
    const env = { TEST_CLICKHOUSE_URL: ch.url };
    await vitest('server-clickhouse', 'apps/server', env, true, CLICKHOUSE_TEST_FILES);
  } finally {
    await ch.stop();
  }
}

/**
 * The build: the contract first (every other package imports its dist), then the player's bundle, the
 * server and the web app side by side (each of their tools keeps about one core busy, one at a time they
 * left the other idle). Their outputs are printed in that order.
 */
async function build() {
  const ws = (w) => ['run', 'build', '-w', w];
  if ((await run('npm', ws('@tlprt/contract'))) !== 0) return 1;
  const codes = await Promise.all(
    ['@tlprt/player', '@tlprt/server', '@tlprt/web'].map((w, i) => run('npm', ws(w), {}, i > 0)),
  );
  return codes.find((c) => c !== 0) ?? 0;
}

/** The niceness of the checks, which run beside suites that time things: the lowest, so that those
 *  suites keep their cores whenever they need them. */
const NICE = 19;

const buildStart = Date.now();
const buildCode = await build();
if (buildCode !== 0) {
  record('build', 0, 1, 0, since(buildStart));
} else {
  console.log(`\n> build: ${since(buildStart)} s`);
  const typecheck = check('typecheck', 'npm', ['run', 'typecheck']);
  const lint = check('lint', 'npm', ['run', 'lint']);
  // The PostgreSQL suite starts first; the web suite runs beside the SQLite one (after them one after
  // the other, this part took 320 of CI's 1,200 s while the cores were not both busy all along).
  const postgres = serverPostgres();
  // The browser specs that mostly wait on the clock (an alert firing and resolving over real minutes)
  // run beside the server suites, on ports of their own; the other browser specs later, alone.
  const waits = playwright(
    'e2e-waits',
    'e2e/playwright.config.ts',
    [],
    { E2E_PART: 'waits', E2E_PORT: '8281' },
    true,
  );
  await vitest('contract', 'packages/contract');
  await vitest('player', 'packages/player');
  const web = vitest('web', 'apps/web', {}, true);
  // The ClickHouse suite takes the web suite's place when that ends, beside the other server suites' last
  // minute (the SQLite one ended 65 s after the web one in CI, the PostgreSQL one 25 s after that). It
  // keeps about one core busy (140–190 s here, half of its CPU in clickhouse-server's queries), so it
  // costs CI time wherever it runs; here it takes a core the web suite frees, not a fourth suite's share
  // from the start, and it stays away from the browser suites, which time things.
  const clickhouse = web.then(serverClickHouse);
  await vitest('server-sqlite', 'apps/server');
  await clickhouse;
  await postgres;
  // The browser suite alone: beside the P2P suites (even at the lowest priority) it made their WebRTC
  // specs fail (a cone NAT's pair relayed, a share under its floor), and saved no time: the cores were
  // busy all along.
  await waits;
  await playwright('e2e', 'e2e/playwright.config.ts', [], { E2E_PART: 'rest' });
  // Real browsers exchanging segments over WebRTC need a network of their own (docs/DESIGN.md §11). The VOD
  // specs run two at a time, the others alone (e2e/p2p/playwright.config.ts).
  const netns = ['sh', 'scripts/netns.sh'];
  await playwright('p2p', 'e2e/p2p/playwright.config.ts', netns, { P2P_RUN: 'pairs' });
  await playwright('p2p-solo', 'e2e/p2p/playwright.config.ts', netns, { P2P_RUN: 'solo' });
  await typecheck();
  await lint();
}

console.log(`\n${'suite'.padEnd(17)} passed  failed  skipped  seconds`);
for (const r of results)
  console.log(
    `${r.name.padEnd(17)} ${String(r.passed).padStart(6)}  ${String(r.failed).padStart(6)}  ${String(r.skipped).padStart(7)}  ${String(r.seconds).padStart(7)}`,
  );
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 ? 1 : 0);
