import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PATHS } from '@tlprt/contract';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/index.js';
import type { BatchWriter } from '../src/features/statistics/aggregator.js';
import { buildKey, buildTeam } from './factories.js';
import {
  clickHouseQuery,
  dropClickHouseDatabase,
  freshClickHouseUrl,
  TEST_CLICKHOUSE_URL,
} from './helpers/clickhouse.js';
import { Api } from './helpers/http.js';
import { dropDatabase, freshDatabaseUrl, onClickHouse, startServer } from './helpers/server.js';

const here = dirname(fileURLToPath(import.meta.url));
const MAIN = resolve(here, '../dist/main.js');
const PG = process.env.TEST_DATABASE_URL;

/** How the statistics' store fails while it cannot be written: ClickHouse refusing connections when
 *  the statistics are there (its store tells an outage from bad data by that), else the database's. */
const clickHouseDown = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' });

/** The bytes stored for a key (all minutes), read straight from the database, or from ClickHouse's
 *  stats_minute (every insert's sums: a batch written twice counts twice) when given its URL. */
async function storedBytes(databaseUrl: string, keyId: number, clickhouseUrl?: string): Promise<number> {
  if (clickhouseUrl) {
    const text = await clickHouseQuery(
      clickhouseUrl,
      `select sum(cdn_bytes) from stats_minute where key_id = ${Math.trunc(keyId)} format TabSeparated`,
    );
    return Number(text.trim() || 0);
  }
  const db = openDatabase(loadConfig({ DATABASE_URL: databaseUrl }).database);
  try {
    const { rows } = await sql<{
      b: number | string | null;
    }>`select sum(cdn_bytes) as b from stats_minute where key_id = ${keyId}`.execute(db);
    return Number(rows[0]?.b ?? 0);
  } finally {
    await db.destroy();
  }
}

/** A database with one team and key, made by an in-process server that is then closed. */
async function databaseWithKey(): Promise<{ databaseUrl: string; keyId: number; keyHash: string }> {
  const databaseUrl = await freshDatabaseUrl();
  const s = await startServer({ databaseUrl });
  const team = await buildTeam(s.app);
  const key = await buildKey(s.app, team.id, null);
  await s.app.close();
  return { databaseUrl, keyId: key.id, keyHash: key.keyHash };
}

interface Child {
  proc: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the built server (dist/main.js) and waits for its banner. */
function startBuilt(env: Record<string, string>, prefix: string[] = []): Promise<Child> {
  const cmd = prefix.length ? (prefix[0] as string) : process.execPath;
  const args = prefix.length ? [...prefix.slice(1), process.execPath, MAIN] : [MAIN];
  const proc = spawn(cmd, args, {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'development',
      METRICS: 'off',
      INGEST_REPORTS_PER_ADDRESS_PER_MINUTE: '100000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  proc.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in 20 s:\n${out}`)), 20_000);
    const check = setInterval(() => {
      const m = /Open:\s+http:\/\/localhost:(\d+)/.exec(out);
      if (m) {
        clearInterval(check);
        clearTimeout(timer);
        resolveStart({ proc, base: `http://127.0.0.1:${m[1]}`, output: () => out, exited });
      }
    }, 20);
    exited.then((code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited ${code}:\n${out}`), { output: out, code }));
    });
  });
}

interface Sent {
  sessionId: string;
  seq: number;
  cdnBytes: number;
  ts: number;
}
const post = (base: string, keyHash: string, r: Sent) =>
  fetch(`${base}${PATHS.statistics.ingest}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reports: [{ apiKey: keyHash, p2pBytes: 0, ...r }] }),
  });

describe.skipIf(!existsSync(MAIN))('a built server killed mid-ingest (SIGKILL)', () => {
  it('stores every byte answered 202, none twice, once restarted on the same database and journal', async () => {
    const { databaseUrl, keyId, keyHash } = await databaseWithKey();
    const journal = mkdtempSync(join(tmpdir(), 'tlprt-journal-'));
    // On the ClickHouse run, the statistics in a ClickHouse database of this test's own: the journal's
    // mark rides in the sums' insert there (stats_receipts), so a kill after it replays nothing twice.
    const clickhouseUrl = TEST_CLICKHOUSE_URL
      ? freshClickHouseUrl(`tlprt_kill_${randomBytes(5).toString('hex')}`)
      : undefined;
    const env = {
      DATABASE_URL: databaseUrl,
      STATS_JOURNAL_DIR: journal,
      STATS_INGEST_FLUSH_MS: '150',
      ...(clickhouseUrl ? { CLICKHOUSE_URL: clickhouseUrl } : {}),
    };
    try {
      const first = await startBuilt(env);
      const answered: Sent[] = [];
      const unanswered: Sent[] = [];
      let stop = false;
      const sender = async (viewer: number) => {
        for (let seq = 0; !stop; seq++) {
          const r: Sent = {
            sessionId: `viewer-${viewer}`,
            seq,
            cdnBytes: 1000 + ((viewer * 7919 + seq * 104_729) % 100_000),
            ts: Math.floor(Date.now() / 1000),
          };
          try {
            const res = await post(first.base, keyHash, r);
            if (res.status === 202) answered.push(r);
            else unanswered.push(r);
          } catch {
            unanswered.push(r);
            return;
          }
        }
      };
      const senders = Array.from({ length: 24 }, (_, i) => sender(i));
      await new Promise((r) => setTimeout(r, 2500));
      first.proc.kill('SIGKILL');
      stop = true;
      await Promise.all(senders);
      await first.exited;
      expect(answered.length).toBeGreaterThan(50);

      const second = await startBuilt(env);
      try {
        // The plugin sends again what was not answered, and a lost answer's reports too: each counts once.
        for (const r of [...unanswered, ...answered.filter((_, i) => i % 5 === 0)]) {
          expect((await post(second.base, keyHash, r)).status).toBe(202);
        }
      } finally {
        second.proc.kill('SIGTERM');
        expect(await second.exited).toBe(0);
      }
      const all = [...answered, ...unanswered].reduce((n, r) => n + r.cdnBytes, 0);
      expect(await storedBytes(databaseUrl, keyId, clickhouseUrl)).toBe(all);
    } finally {
      await dropDatabase(databaseUrl);
      if (clickhouseUrl) await dropClickHouseDatabase(clickhouseUrl);
    }
  }, 90_000);
});

describe.skipIf(!existsSync(MAIN) || PG !== undefined)('a read-only database file', () => {
  it('fails the start with a message naming the file', async () => {
    const { databaseUrl } = await databaseWithKey();
    const path = databaseUrl.slice('sqlite:'.length);
    const folder = dirname(path);
    const journal = mkdtempSync(join(tmpdir(), 'tlprt-journal-'));
    // Root writes through file modes: a read-only bind mount in a mount namespace of its own is what
    // refuses it (as an operator's read-only volume would).
    const asRoot = process.getuid?.() === 0;
    const prefix = asRoot
      ? [
          'unshare',
          '-m',
          'sh',
          '-c',
          `mount --bind "${folder}" "${folder}" && mount -o remount,ro,bind "${folder}" "${folder}" && exec "$0" "$@"`,
        ]
      : [];
    if (!asRoot) {
      const { chmodSync } = await import('node:fs');
      chmodSync(path, 0o444);
      chmodSync(folder, 0o555);
    }
    const err = await startBuilt({ DATABASE_URL: databaseUrl, STATS_JOURNAL_DIR: journal }, prefix).then(
      (c) => {
        c.proc.kill('SIGKILL');
        return new Error('started');
      },
      (e: Error & { output?: string; code?: number }) => e,
    );
    expect((err as { code?: number }).code).toBe(1);
    expect((err as { output?: string }).output).toContain(path);
    expect((err as { output?: string }).output).toContain('cannot be written');
  }, 30_000);
});

/** A tmpfs of `sizeMb` on a fresh folder, seen only by a holder process's mount namespace (and the
 *  processes that enter it): its files are reached from here through /proc/<holder>/root. */
async function privateTmpfs(sizeMb: number) {
  const dir = mkdtempSync(join(tmpdir(), 'tlprt-full-'));
  const holder = spawn(
    'unshare',
    ['-m', 'sh', '-c', `mount -t tmpfs -o size=${sizeMb}M tmpfs "${dir}" && echo mounted && exec sleep 600`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolveMount, reject) => {
    let out = '';
    holder.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('mounted')) resolveMount();
    });
    holder.stderr?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    holder.on('exit', (code) => reject(new Error(`tmpfs not mounted (${code}): ${out}`)));
  });
  const pid = holder.pid as number;
  return {
    dir,
    /** The folder as the namespace sees it, from outside. */
    inside: `/proc/${pid}/root${dir}`,
    enter: ['nsenter', '-t', String(pid), '-m'],
    remove() {
      holder.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes `path` until the disk is full (ENOSPC). */
function fillDisk(path: string): number {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(256 * 1024, 1);
  let size = 0;
  try {
    for (;;) size += writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  return size;
}

// The database and its journal (beside it, the default) on one disk that fills: what was answered 202
// is kept, what could not be journaled is answered 503, and the plugin's resends of those count once.
describe.skipIf(!existsSync(MAIN) || PG !== undefined || process.getuid?.() !== 0)(
  'a full disk (SQLite)',
  () => {
    it('answers 202 or 503 while full, logs one line each way, and keeps every 202 through a crash once space returns', async () => {
      const { databaseUrl, keyId, keyHash } = await databaseWithKey();
      const source = databaseUrl.slice('sqlite:'.length);
      const disk = await privateTmpfs(16);
      const sleep = (ms: number) => new Promise((w) => setTimeout(w, ms));
      try {
        for (const suffix of ['', '-wal']) {
          if (existsSync(source + suffix))
            copyFileSync(source + suffix, join(disk.inside, `test.db${suffix}`));
        }
        const env = { DATABASE_URL: `sqlite:${join(disk.dir, 'test.db')}`, STATS_INGEST_FLUSH_MS: '1000' };
        const first = await startBuilt(env, disk.enter);
        const sent: Sent[] = [];
        let refused: Sent[] = [];
        const statuses = new Map<number, number>();
        let refusedWhileFull = 0;
        const seqs = Array.from({ length: 6 }, () => 0);
        /** Six viewers sending single reports for `ms`. */
        const traffic = (ms: number, full: boolean) => {
          const end = Date.now() + ms;
          return Promise.all(
            seqs.map(async (_, viewer) => {
              while (Date.now() < end) {
                const seq = seqs[viewer] ?? 0;
                seqs[viewer] = seq + 1;
                const r: Sent = {
                  sessionId: `disk-${viewer}`,
                  seq,
                  cdnBytes: 1000 + ((viewer * 7919 + seq * 104_729) % 100_000),
                  ts: Math.floor(Date.now() / 1000),
                };
                const res = await post(first.base, keyHash, r);
                await res.arrayBuffer();
                sent.push(r);
                statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
                if (res.status !== 202) {
                  refused.push(r);
                  if (full) refusedWhileFull++;
                }
                await sleep(10);
              }
            }),
          );
        };
        /** What the plugin does with refused reports: sends them again until they are answered 202. */
        const resend = async () => {
          const again = refused;
          refused = [];
          await Promise.all(
            again.map(async (r) => {
              for (;;) {
                const res = await post(first.base, keyHash, r);
                await res.arrayBuffer();
                if (res.status === 202) return;
                expect(res.status).toBe(503);
                await sleep(50);
              }
            }),
          );
        };
        const filler = join(disk.inside, 'filler');
        const logged = (text: string) => first.output().split(text).length - 1;
        try {
          await traffic(800, false);

          // An outage: the journal and the database fill, then space returns.
          fillDisk(filler);
          await traffic(2000, true);
          rmSync(filler);
          // The journal is written again with the first resend; the database at its next attempt.
          await resend();
          const until = Date.now() + 10_000;
          while (Date.now() < until && logged('statistics stored again') < 1) await sleep(100);
          expect(logged('statistics journal cannot be written')).toBe(1);
          expect(logged('statistics journal written again')).toBe(1);
          expect(logged('statistics cannot be stored')).toBe(1);
          expect(logged('statistics stored again')).toBe(1);

          // Another, and a crash (SIGKILL) as soon as what was refused is sent again and answered 202. Full
          // for 3.6 s, the database's attempts (every second) back off to 1, 3 then 7 s: the crash comes
          // before it is written again, so those 202s stand on the journal alone.
          fillDisk(filler);
          await traffic(3600, true);
          rmSync(filler);
          await resend();
        } finally {
          first.proc.kill('SIGKILL');
        }
        await first.exited;
        expect([...statuses.keys()].filter((s) => s !== 202 && s !== 503)).toEqual([]);
        expect(refusedWhileFull).toBeGreaterThan(0);
        expect(first.output()).not.toContain('dropped');

        const second = await startBuilt(env, disk.enter);
        second.proc.kill('SIGTERM');
        expect(await second.exited).toBe(0);
        // SQLite resolves /proc/<pid>/root as the symbolic link it is: read a copy made outside.
        const copy = join(dirname(source), 'after.db');
        for (const suffix of ['', '-wal']) {
          const from = join(disk.inside, `test.db${suffix}`);
          if (existsSync(from)) copyFileSync(from, copy + suffix);
        }
        expect(await storedBytes(`sqlite:${copy}`, keyId)).toBe(sent.reduce((n, r) => n + r.cdnBytes, 0));
      } finally {
        disk.remove();
      }
    }, 40_000);
  },
);

describe('a storage outage (writes failing)', () => {
  const databases: string[] = [];
  afterAll(async () => {
    for (const d of databases) await dropDatabase(d);
  });

  it('holds what it accepted, logs one line each way, answers 503 past its memory, stores it all once back', async () => {
    const databaseUrl = await freshDatabaseUrl();
    databases.push(databaseUrl);
    const lines: string[] = [];
    let failing = false;
    const full = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const down = () =>
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const writer: BatchWriter = (batch, mark) =>
      failing
        ? Promise.reject(onClickHouse ? clickHouseDown() : PG ? down() : full())
        : server.app.ctx.statsStore.writeBatch(batch, mark);
    const server = await startServer({
      databaseUrl,
      env: { STATS_INGEST_FLUSH_MS: '600000', STATS_HELD_MEMORY_MB: '1' },
      deps: {
        statsWriter: writer,
        logger: { level: 'info', stream: { write: (l: string) => void lines.push(l) } },
      },
    });
    try {
      const team = await buildTeam(server.app);
      const key = await buildKey(server.app, team.id, null);
      const api = new Api(server.base);
      const now = () => Math.floor(Date.now() / 1000);
      failing = true;
      let sent = 0;
      for (let i = 0; i < 20; i++) {
        const r = await api.post(PATHS.statistics.ingest, {
          reports: [
            { apiKey: key.keyHash, sessionId: `s${i}`, seq: 0, ts: now(), cdnBytes: 100 + i, p2pBytes: 0 },
          ],
        });
        expect(r.status).toBe(202);
        sent += 100 + i;
        // Several failed attempts in between: still one line.
        if (i % 5 === 0) await expect(server.app.stats.flush()).rejects.toThrow();
      }
      expect(server.app.stats.aggregator.pendingCount).toBeGreaterThan(0);
      // Fill the memory an outage may hold (1 MB here): the next report is refused, 503 with Retry-After.
      const agg = server.app.stats.aggregator;
      for (let i = 0; agg.heldBytes <= 1024 * 1024; i++)
        agg.add(key.id, now(), `filler-${i}`, { cdnBytes: 1, p2pBytes: 0 });
      const fillers = agg.heldBytes; // counted below from what is stored
      const refused = await api.post(PATHS.statistics.ingest, {
        reports: [{ apiKey: key.keyHash, sessionId: 'late', seq: 0, ts: now(), cdnBytes: 5, p2pBytes: 0 }],
      });
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await expect(server.app.stats.flush()).rejects.toThrow();

      failing = false;
      await server.app.stats.flush();
      expect(agg.pendingCount).toBe(0);
      const stored = await storedBytes(databaseUrl, key.id, server.clickhouseUrl);
      const fillerCount = stored - sent;
      expect(fillerCount).toBeGreaterThan(0);
      expect(fillers).toBeGreaterThan(1024 * 1024);
      const starts = lines.filter((l) => l.includes('statistics cannot be stored'));
      const ends = lines.filter((l) => l.includes('statistics stored again'));
      expect(starts).toHaveLength(1);
      expect(ends).toHaveLength(1);
      expect(ends[0]).toContain('heldKeyMinutes');
      // No stack per request, no key-minute dropped.
      expect(lines.filter((l) => l.includes('dropped'))).toHaveLength(0);
    } finally {
      await server.app.close();
    }
  });

  it('SIGTERM during an outage: what is held stays in the journal and is stored at the next start', async () => {
    const databaseUrl = await freshDatabaseUrl();
    databases.push(databaseUrl);
    const journal = mkdtempSync(join(tmpdir(), 'tlprt-journal-'));
    const env = { STATS_INGEST_FLUSH_MS: '600000', STATS_JOURNAL_DIR: journal, SHUTDOWN_TIMEOUT_MS: '1000' };
    const lines: string[] = [];
    const first = await startServer({
      databaseUrl,
      env,
      deps: {
        statsWriter: () =>
          Promise.reject(
            onClickHouse
              ? clickHouseDown()
              : Object.assign(new Error('read-only'), { code: 'SQLITE_READONLY' }),
          ),
        logger: { level: 'info', stream: { write: (l: string) => void lines.push(l) } },
      },
    });
    const team = await buildTeam(first.app);
    const key = await buildKey(first.app, team.id, null);
    const api = new Api(first.base);
    const ts = Math.floor(Date.now() / 1000);
    let sent = 0;
    for (let i = 0; i < 10; i++) {
      const r = await api.post(PATHS.statistics.ingest, {
        reports: [
          { apiKey: key.keyHash, sessionId: `t${i}`, seq: 3, ts, cdnBytes: 1000 * (i + 1), p2pBytes: 0 },
        ],
      });
      expect(r.status).toBe(202);
      sent += 1000 * (i + 1);
    }
    const started = Date.now();
    await first.app.close();
    // It kept trying for half the shutdown deadline before leaving it to the journal.
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(lines.some((l) => l.includes('kept in the journal'))).toBe(true);
    expect(readdirSync(journal).some((f) => f.endsWith('.jnl'))).toBe(true);
    // Where the statistics are (the same ClickHouse database for every server on this database).
    const clickhouseUrl = first.clickhouseUrl;
    expect(await storedBytes(databaseUrl, key.id, clickhouseUrl)).toBe(0);

    const second = await startServer({ databaseUrl, env });
    try {
      expect(second.clickhouseUrl).toBe(clickhouseUrl);
      expect(await storedBytes(databaseUrl, key.id, clickhouseUrl)).toBe(sent);
      // On ClickHouse, the replay went there and not to the database's tables.
      if (clickhouseUrl) expect(await storedBytes(databaseUrl, key.id)).toBe(0);
      // A report of that run sent again (its answer lost) is not counted twice.
      const again = await new Api(second.base).post(PATHS.statistics.ingest, {
        reports: [{ apiKey: key.keyHash, sessionId: 't0', seq: 3, ts, cdnBytes: 1000, p2pBytes: 0 }],
      });
      expect(again.status).toBe(202);
      await second.app.stats.flush();
      expect(await storedBytes(databaseUrl, key.id, clickhouseUrl)).toBe(sent);
    } finally {
      await second.app.close();
    }
    // A third start replays nothing more.
    const third = await startServer({ databaseUrl, env });
    await third.app.close();
    expect(await storedBytes(databaseUrl, key.id, clickhouseUrl)).toBe(sent);
  });
});

/** A PostgreSQL cluster of this test's own (never the shared one), which the test stops and starts. */
function ownPostgres() {
  const base = '/usr/lib/postgresql';
  const version = existsSync(base) ? readdirSync(base).sort().pop() : undefined;
  const bin = version && join(base, version, 'bin');
  if (!bin || !existsSync(join(bin, 'initdb'))) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'pg-outage-'));
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const [c, a] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
      : [join(bin, tool), args];
    const r = spawnSync(c, a, { stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`${tool} failed: ${r.stderr}`);
  };
  if (asRoot) {
    const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres']).stdout);
    chownSync(dir, id('-u'), id('-g'));
  }
  const port = 55500 + Math.floor(Math.random() * 400);
  run('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const opts = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off`;
  const start = () =>
    run('pg_ctl', ['-D', join(dir, 'data'), '-w', '-l', join(dir, 'log'), '-o', opts, 'start']);
  const stop = () => run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    remove() {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.skipIf(PG === undefined)('PostgreSQL stopped under ingest', () => {
  it('answers 202 or 503 (never 500), logs one line each way, and stores every 202 once it is back', async () => {
    const pg = ownPostgres();
    if (!pg) return;
    const lines: string[] = [];
    const server = await startServer({
      databaseUrl: pg.url,
      env: { STATS_INGEST_FLUSH_MS: '200', STATS_JOURNAL_DIR: mkdtempSync(join(tmpdir(), 'tlprt-journal-')) },
      deps: { logger: { level: 'warn', stream: { write: (l: string) => void lines.push(l) } } },
    });
    try {
      const team = await buildTeam(server.app);
      const key = await buildKey(server.app, team.id, null);
      let accepted = 0;
      const statuses = new Map<number, number>();
      const send = async (i: number) => {
        const cdnBytes = 1000 + i;
        const r = await post(server.base, key.keyHash, {
          sessionId: `p${i % 7}`,
          seq: i,
          cdnBytes,
          ts: Math.floor(Date.now() / 1000),
        });
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 202) accepted += cdnBytes;
        else expect(r.status).toBe(503);
      };
      let i = 0;
      for (; i < 20; i++) await send(i);
      await server.app.stats.flush();
      pg.stop();
      const until = Date.now() + 6000;
      while (Date.now() < until) {
        await send(i++);
        await new Promise((r) => setTimeout(r, 20));
      }
      pg.start();
      const back = Date.now() + 40_000;
      while (Date.now() < back && !lines.some((l) => l.includes('statistics stored again')))
        await new Promise((r) => setTimeout(r, 200));
      await server.app.stats.flush();
      expect(await storedBytes(pg.url, key.id, server.clickhouseUrl)).toBe(accepted);
      expect(statuses.get(500)).toBeUndefined();
      expect(lines.filter((l) => l.includes('statistics cannot be stored'))).toHaveLength(1);
      expect(lines.filter((l) => l.includes('statistics stored again'))).toHaveLength(1);
      expect(lines.filter((l) => l.includes('unexpected error'))).toHaveLength(0);
    } finally {
      await server.app.close();
      pg.remove();
    }
  }, 90_000);
});
