import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type App, type AppDeps, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest, openDatabase } from '../../src/db/index.js';
import { migrations } from '../../src/db/migrations/index.js';
import { dropClickHouseDatabase, freshClickHouseUrl, TEST_CLICKHOUSE_URL } from './clickhouse.js';

export const PUBLIC_URL = 'http://dashboard.test';

/** PostgreSQL runs when TEST_DATABASE_URL is set (the lead's runner runs the suite once per database). */
const TEST_PG_URL = process.env.TEST_DATABASE_URL;
export const onPostgres = Boolean(TEST_PG_URL);

/** The statistics go to ClickHouse when TEST_CLICKHOUSE_URL is set (the server-clickhouse suite). */
export const onClickHouse = Boolean(TEST_CLICKHOUSE_URL);

/**
 * The ClickHouse database of each relational database the servers use (CLICKHOUSE_URL), made with it and
 * dropped with it: servers sharing a database share its statistics too, and no two tests see each other's.
 */
const clickHouseOf = new Map<string, string>();

function clickHouseUrlFor(databaseUrl: string): string | undefined {
  if (!TEST_CLICKHOUSE_URL) return undefined;
  let url = clickHouseOf.get(databaseUrl);
  if (!url) {
    url = freshClickHouseUrl(`tlprt_test_${randomBytes(6).toString('hex')}`);
    clickHouseOf.set(databaseUrl, url);
  }
  return url;
}

/**
 * A fresh, empty database for one server (or a few sharing it): a new SQLite file, or a new PostgreSQL
 * database, so test files never see each other's rows.
 */
export async function freshDatabaseUrl(): Promise<string> {
  if (!TEST_PG_URL) return `sqlite:${join(mkdtempSync(join(tmpdir(), 'tlprt-test-')), 'test.db')}`;
  return createPgDatabase(`tlprt_test_${randomBytes(6).toString('hex')}`);
}

function pgUrlOf(name: string): string {
  const u = new URL(TEST_PG_URL ?? '');
  u.pathname = `/${name}`;
  return u.toString();
}

async function createPgDatabase(name: string, template?: string): Promise<string> {
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  return pgUrlOf(name);
}

let migratedTemplate: Promise<string> | undefined;

/**
 * A PostgreSQL database holding every migration, kept in the cluster under a name that hashes the
 * migrations' code: migrating takes longer than copying, and a server test starts hundreds of servers.
 * It is built under a temporary name and renamed when complete, so a parallel run never copies half.
 */
function migratedTemplateName(): Promise<string> {
  migratedTemplate ??= (async () => {
    const digest = createHash('sha256');
    for (const [name, m] of Object.entries(migrations)) digest.update(`${name}\n${String(m.up)}\n`);
    const name = `tlprt_template_${digest.digest('hex').slice(0, 16)}`;
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) return name;
      const building = await freshDatabaseUrl();
      const db = openDatabase(loadConfig({ DATABASE_URL: building, PUBLIC_URL }).database);
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      const buildingName = new URL(building).pathname.slice(1);
      await admin
        .query(`ALTER DATABASE ${buildingName} RENAME TO ${name}`)
        .catch(() => dropDatabase(building)); // another run renamed its copy first
      return name;
    } finally {
      await admin.end();
    }
  })();
  return migratedTemplate;
}

/** A fresh database with every migration applied (a copy of the migrated template on PostgreSQL). */
async function freshMigratedDatabaseUrl(): Promise<string> {
  if (!TEST_PG_URL) return freshDatabaseUrl();
  return createPgDatabase(`tlprt_test_${randomBytes(6).toString('hex')}`, await migratedTemplateName());
}

/** Drops a database made by freshDatabaseUrl (PostgreSQL only; SQLite files live in the temp folder),
 *  and its ClickHouse database if a server used one (best effort). */
export async function dropDatabase(url: string): Promise<void> {
  const clickHouse = clickHouseOf.get(url);
  if (clickHouse) {
    clickHouseOf.delete(url);
    await dropClickHouseDatabase(clickHouse);
  }
  if (!TEST_PG_URL || url.startsWith('sqlite:')) return;
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export interface TestServer {
  app: App;
  base: string;
  databaseUrl: string;
  /** Where its statistics are (CLICKHOUSE_URL), on the server-clickhouse suite; for clickHouseQuery. */
  clickhouseUrl: string | undefined;
  close(): Promise<void>;
}

interface StartOptions {
  env?: Record<string, string>;
  deps?: AppDeps;
  /** Share a database with another server (PgBus test); by default each server gets a fresh one. */
  databaseUrl?: string;
  /** A port known before the start (a server that must know its own URL); any free one by default. */
  port?: number;
}

/** Builds the real app from environment variables, listens on 127.0.0.1:0, and answers its URL. */
export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  const ownsDatabase = !opts.databaseUrl;
  const databaseUrl = opts.databaseUrl ?? (await freshMigratedDatabaseUrl());
  const clickhouseUrl = clickHouseUrlFor(databaseUrl);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    PUBLIC_URL,
    WEB_DIST: join(tmpdir(), 'tlprt-no-web-app'),
    SUPPORT_EMAIL: 'help@dashboard.test',
    // Every test reports from loopback: the ingest budget's own tests set a low one.
    INGEST_REPORTS_PER_ADDRESS_PER_MINUTE: '100000000',
    ...(clickhouseUrl ? { CLICKHOUSE_URL: clickhouseUrl } : {}),
    ...opts.env,
  });
  const app = await buildApp(config, {
    // Generous by default so ordinary tests never trip them; rate-limit tests pass lower ones.
    rateLimits: {
      guestPerMinute: 10_000,
      loginFailuresPerLoginAndAddress: 1000,
      loginFailuresPerAddress: 1000,
      loginSlowdownAfter: 1000,
      confirmFailuresPerUser: 1000,
    },
    logger: false,
    ...opts.deps,
  });
  await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    base: `http://127.0.0.1:${port}`,
    databaseUrl,
    clickhouseUrl: config.clickhouseUrl,
    close: async () => {
      await app.close();
      if (ownsDatabase) await dropDatabase(databaseUrl);
    },
  };
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.now()) {
  let t = start;
  const now = () => t;
  const advance = (ms: number): void => {
    t += ms;
  };
  return Object.assign(now, { advance });
}
