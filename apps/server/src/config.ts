import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { assertProxyList, type TrustedProxies } from './http/client-address.js';
import type { IceConfig } from './lib/turn-credentials.js';
import { loadNetworksFile, NetworksFileError, type OwnNetworks } from './net/networks.js';

/** The built web app, found relative to this file so the server works from any working directory
 *  (src/ under vitest and dist/ when built both sit one level below apps/server). */
const here = dirname(fileURLToPath(import.meta.url));
const DEFAULT_WEB_DIST = resolve(here, '../../web/dist');
/** The player plugin's bundle (packages/player, `npm run build`). */
const DEFAULT_PLAYER_DIST = resolve(here, '../../../packages/player/dist');
/** The demo page's script and stream, kept in the repository (scripts/make-demo-stream.sh). */
export const DEMO_ASSETS = resolve(here, '../assets');

const boolFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const commaList = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .default('sqlite:./data/dashboard.db')
    .refine(
      (s) => s.startsWith('sqlite:') || /^postgres(ql)?:\/\//.test(s),
      'must be sqlite:<path> or postgres://...',
    ),
  // The total wait of a SQLite write for a lock another process holds, on timers (db/sqlite-driver.ts).
  SQLITE_LOCK_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('no-reply@localhost'),
  SUPPORT_EMAIL: z.string().min(3).default('support@localhost'),
  DNS_SERVERS: commaList
    .pipe(z.array(z.string().regex(/^[^\s:]+(:\d{1,5})?$|^\[[0-9a-fA-F:]+\](:\d{1,5})?$/, 'host:port')))
    .optional(),
  VERIFY_HTTP_PORT: z.coerce.number().int().min(1).max(65535).default(80),
  VERIFY_ALLOW_PRIVATE: boolFlag.default(false),
  SUPERVISOR_EMAILS: commaList.default([]),
  STATS_INGEST_FLUSH_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  // How long after a minute ends the alerts evaluate it (every node's flush and the plugins' 10-s
  // reports in), and how often a node looks for minutes to evaluate (features/alerts/evaluator.ts).
  ALERTS_EVALUATE_AFTER_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  ALERTS_EVALUATE_EVERY_MS: z.coerce.number().int().min(1000).max(3_600_000).default(5000),
  // The statistics journal's folder ('off': none; features/statistics/journal.ts), its group commit
  // window, and the memory statistics a storage outage may hold before the ingest answers 503.
  STATS_JOURNAL_DIR: z.string().optional(),
  STATS_JOURNAL_COMMIT_MS: z.coerce.number().int().min(0).max(1000).default(2),
  STATS_HELD_MEMORY_MB: z.coerce.number().int().min(1).max(65_536).default(256),
  // The statistics in ClickHouse instead of the database (features/statistics/clickhouse/): its HTTP
  // interface, the database in the path (http://127.0.0.1:8123/tlprt; `default` when none).
  CLICKHOUSE_URL: z.url({ protocol: /^https?$/ }).optional(),
  WEB_DIST: z.string().min(1).default(DEFAULT_WEB_DIST),
  DEMO_SEED: boolFlag.default(false),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  // The log's threshold: each request's line is debug, so the default (info) keeps the start banner in
  // sight; warnings, errors and the server's own events stay (tests: warn unless set).
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  TRUST_PROXY: z.string().default('false'),
  RATE_LIMIT_GUEST_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).optional(),
  MAILBOX: z.enum(['on', 'off']).optional(),
  METRICS: z.enum(['on', 'off']).optional(),
  ICE_SERVERS: commaList
    .pipe(z.array(z.string().regex(/^(stun|stuns|turn|turns):\S+$/, 'stun: or turn: URL')))
    .default([]),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(10_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
  INGEST_REPORTS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000_000).default(1200),
  INGEST_REPORTS_PER_KEY_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000_000).default(600_000),
  INGEST_REPLAY_MEMORY_MB: z.coerce.number().int().min(1).max(65_536).default(128),
  TOKEN_FAILURES_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  TURN_SECRET: z.string().min(16, 'at least 16 characters').optional(),
  TURN_CREDENTIAL_TTL_S: z.coerce
    .number()
    .int()
    .min(60)
    .max(86_400)
    .default(4 * 3600),
  PLAYER_DIST: z.string().min(1).default(DEFAULT_PLAYER_DIST),
  INTEGRITY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // One webhook delivery attempt (DNS, connection, answer's head) before it counts as failed.
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  INTEGRITY_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(32 * 1024 * 1024),
  INTEGRITY_CACHE_ENTRIES: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  INTEGRITY_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(1200),
  INTEGRITY_PER_KEY_PER_MINUTE: z.coerce.number().int().min(1).max(100_000_000).default(120_000),
  INTEGRITY_CONCURRENT_PER_NODE: z.coerce.number().int().min(1).max(10_000).default(32),
  INTEGRITY_CONCURRENT_PER_TEAM: z.coerce.number().int().min(1).max(10_000).default(8),
  INTEGRITY_TEAM_BYTES_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .max(1024 ** 4)
    .default(1024 ** 3),
  INTEGRITY_PUSHED_TTL_S: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(86_400),
  // Each an origin (scheme, host, port) of a server of this project; the plugin builds the WebSocket URL.
  TRACKER_NODES: commaList
    .pipe(
      z.array(
        z.url({ protocol: /^https?$/ }).regex(/^https?:\/\/[^/?#]+\/?$/, 'an origin: http(s)://host[:port]'),
      ),
    )
    .default([]),
  TRACKER_MAX_SOCKETS: z.coerce.number().int().min(1).max(1_000_000).optional(),
  TRACKER_WORKERS: z.coerce.number().int().min(0).max(64).default(0),
  TRACKER_SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(100),
  TRACKER_SWARMS_PER_SOCKET: z.coerce.number().int().min(1).max(10_000).default(32),
  TRACKER_MESSAGES_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(20),
  TRACKER_MAX_MESSAGE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(64 * 1024),
  TRACKER_PEERS_PER_SWARM: z.coerce.number().int().min(2).max(1_000_000).default(1000),
  TRACKER_PEERS_PER_ADDRESS_PER_SWARM: z.coerce.number().int().min(1).max(1_000_000).default(50),
  TRACKER_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(300_000),
  // ISP-aware peer matching (docs/DESIGN.md §14): an operator's own ranges, and how few peers of its own network
  // an announcer may have before others are offered too.
  NETWORKS_FILE: z.string().optional(),
  TRACKER_MATCH_MIN_PEERS: z.coerce.number().int().min(1).max(1_000_000).default(1),
});

export type DatabaseTarget =
  | { kind: 'sqlite'; path: string /** SQLITE_LOCK_WAIT_MS */; lockWaitMs?: number }
  | { kind: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  database: DatabaseTarget;
  /** Origin and base of every link placed in e-mails, without a trailing slash. */
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  dnsServers: string[] | undefined;
  verifyHttpPort: number;
  verifyAllowPrivate: boolean;
  supervisorEmails: string[];
  statsIngestFlushMs: number;
  /** Alerts (docs/DESIGN.md §13): a closed minute is evaluated this long after its end, and a node looks for
   *  one to evaluate this often. */
  alertsEvaluateAfterMs: number;
  alertsEvaluateEveryMs: number;
  /** The statistics journal (features/statistics/journal.ts): its folder (null: none, SQLite in
   *  memory or STATS_JOURNAL_DIR=off) and group commit window; and the memory of statistics a storage
   *  outage may hold before the ingest answers 503. */
  statsJournal: { dir: string | null; commitMs: number };
  statsHeldMemoryBytes: number;
  /** CLICKHOUSE_URL: where the statistics are kept when set (else in the database). */
  clickhouseUrl: string | undefined;
  webDist: string;
  demoSeed: boolean;
  nodeEnv: 'development' | 'production' | 'test';
  /** The logger's level (LOG_LEVEL): request lines are debug. */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Behind a load balancer: the proxies whose X-Forwarded-For entries are believed (rate limits key on
   *  the client address). None by default, since a directly exposed server would let clients pick
   *  their own address. */
  trustProxy: TrustedProxies;
  /** Overrides RATE_LIMITS.guestPerMinute (the browser tests all sign in from one address). */
  guestPerMinute: number | undefined;
  /** Whether /mailbox is served: it lists every sign-in and reset link (docs/DESIGN.md §3). */
  mailbox: boolean;
  /** Whether /metrics is served (Prometheus text: traffic, keys refused, sockets; for operators). */
  metrics: boolean;
  /** TRACKER_NODES as origins (no trailing slash), sorted; empty: this server's tracker alone. */
  trackerNodes: string[];
  /** STUN/TURN servers handed to the player plugins (docs/DESIGN.md §11); none: peers on one network only. TURN
   *  servers get per-viewer credentials signed with TURN_SECRET (lib/turn-credentials.ts). */
  ice: IceConfig;
  /** A request's headers, and the whole request (body included), must arrive within these, or its
   *  socket is closed (a body sent a byte at a time must not hold a socket forever). */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** A graceful stop's deadline: requests in flight get a quarter of it, then every socket is closed,
   *  the statistics flushed and the database closed; past it the process exits regardless. */
  shutdownTimeoutMs: number;
  /** Budgets of reports sent without an API token, per node: per client address (IPv6: per /64)
   *  and per key, per minute; and the memory of counted (key, session, seq). */
  ingest: {
    perAddressPerMinute: number;
    perKeyPerMinute: number;
    replayMemoryBytes: number;
  };
  /** Refused API token attempts (401) per client address (IPv6: per /64) per minute on a node; past
   *  it the address's token calls are answered 429 before any look-up (http/token-guard.ts). */
  tokenFailuresPerAddressPerMinute: number;
  /** The folder of the built player plugin. */
  playerDist: string;
  /** The demo player page and stream (/demo/...): everywhere but production. */
  demoPages: boolean;
  /** The budget of one webhook delivery attempt (docs/DESIGN.md §13): look-up, connection and the answer's head. */
  webhookTimeoutMs: number;
  /** The integrity service's origin fetches (docs/DESIGN.md §11): budget of one fetch (redirects included),
   *  most bytes of a segment, hashes kept in memory, and its requests per client address and per key
   *  per minute on this node. */
  integrity: {
    timeoutMs: number;
    maxBytes: number;
    cacheEntries: number;
    perAddressPerMinute: number;
    perKeyPerMinute: number;
    /** Origin reads (HEAD or GET) at once on this node and per team, and a team's body bytes read
     *  from its origins per minute on this node (features/integrity/fetch-limits.ts). */
    concurrentPerNode: number;
    concurrentPerTeam: number;
    teamBytesPerMinute: number;
    /** How long a hash a team's packager pushed is kept (live segments expire). */
    pushedTtlMs: number;
  };
  /** The WebTorrent tracker's limits (README "Configuration", features/player/tracker*.ts). maxSockets
   *  undefined: half the process's open-file limit, at most 20,000, in each process holding sockets.
   *  workers: the processes the swarms are spread over (0: this process holds them). */
  tracker: {
    maxSockets: number | undefined;
    workers: number;
    socketsPerAddress: number;
    swarmsPerSocket: number;
    messagesPerSecond: number;
    maxMessageBytes: number;
    peersPerSwarm: number;
    peersPerAddressPerSwarm: number;
    idleTimeoutMs: number;
    /** Peers of its own network an announcer needs before the tracker stops adding others (docs/DESIGN.md §14). */
    matchMinPeers: number;
  };
  /** NETWORKS_FILE's ranges, checked before the shipped ASN table (net/networks.ts); null: none. */
  networks: OwnNetworks | null;
}

export class ConfigError extends Error {}

/** ICE_SERVERS split into STUN and TURN URLs. A TURN URL with a user and secret in it is refused: the
 *  public settings read would hand that lasting secret to anyone holding a key hash. */
function iceConfig(urls: string[], turnSecret: string | undefined, turnTtlS: number): IceConfig {
  const isTurn = (u: string) => /^turns?:/.test(u);
  const withSecret = urls.find((u) => isTurn(u) && /^turns?:[^?]*@/.test(u));
  if (withSecret !== undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  ICE_SERVERS: a turn: URL with a user and secret (turn:user:secret@host) would be ' +
        'handed to anyone holding a key hash; list the turn: URL without them and set TURN_SECRET to the TURN ' +
        "server's shared secret (coturn: use-auth-secret, static-auth-secret): each viewer then gets credentials " +
        'that expire after TURN_CREDENTIAL_TTL_S',
    );
  }
  const turn = urls.filter(isTurn);
  if (turn.length > 0 && turnSecret === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  TURN_SECRET: required with a turn: URL in ICE_SERVERS (the shared secret of the ' +
        "TURN server's use-auth-secret; each viewer gets credentials signed with it)",
    );
  }
  return { stun: urls.filter((u) => !isTurn(u)), turn, turnSecret, turnTtlS };
}

/** TRUST_PROXY: `false` (default), a number of proxy hops, or the proxies' addresses and CIDR ranges. */
function trustedProxies(value: string): TrustedProxies {
  const v = value.trim().toLowerCase();
  if (['false', '0', 'no', 'off'].includes(v)) return { kind: 'none' };
  if (['true', 'yes', 'on'].includes(v)) {
    throw new ConfigError(
      'Invalid configuration:\n  TRUST_PROXY: "true" would believe the left-most X-Forwarded-For entry, which ' +
        'any client writes; give the number of proxies in front of the server (e.g. 1) or their addresses ' +
        '(e.g. 10.0.0.0/8,192.168.1.5)',
    );
  }
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 10) throw new ConfigError('Invalid configuration:\n  TRUST_PROXY: at most 10 proxy hops');
    return { kind: 'hops', hops };
  }
  const list = value
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  try {
    assertProxyList(list);
  } catch (err) {
    throw new ConfigError(
      `Invalid configuration:\n  TRUST_PROXY: ${(err as Error).message} (a number of hops or addresses/CIDR ranges)`,
    );
  }
  return { kind: 'addresses', list };
}

/** NETWORKS_FILE read at start: a bad line stops the start with the file and line named. */
function networksOf(file: string): OwnNetworks {
  try {
    return loadNetworksFile(resolve(file));
  } catch (err) {
    if (err instanceof NetworksFileError) throw new ConfigError(`Invalid configuration:\n  ${err.message}`);
    throw err;
  }
}

/** Names that only this machine can reach. */
function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The outbox page shows every mailed link, so it is never served in production and, unless MAILBOX=on,
 *  not when the server listens beyond loopback (HOST=0.0.0.0 on a shared host would publish them). */
function mailboxEnabled(nodeEnv: Config['nodeEnv'], host: string, flag: 'on' | 'off' | undefined): boolean {
  if (nodeEnv === 'production' || flag === 'off') return false;
  return flag === 'on' || isLoopbackHost(host);
}

function databaseTarget(url: string, lockWaitMs: number): DatabaseTarget {
  if (!url.startsWith('sqlite:')) return { kind: 'postgres', url };
  const path = url.slice('sqlite:'.length);
  if (path === ':memory:') return { kind: 'sqlite', path, lockWaitMs };
  return { kind: 'sqlite', path: isAbsolute(path) ? path : resolve(process.cwd(), path), lockWaitMs };
}

/** STATS_JOURNAL_DIR, or beside the SQLite file (`<file>.stats-journal`), or ./data/stats-journal with
 *  PostgreSQL (in tests: a folder per database in the temp folder, so test databases never share one). */
function journalDir(
  given: string | undefined,
  databaseUrl: string,
  nodeEnv: Config['nodeEnv'],
): string | null {
  if (given === 'off') return null;
  if (given) return resolve(given);
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    return path === ':memory:' ? null : `${resolve(path)}.stats-journal`;
  }
  if (nodeEnv === 'test') {
    const hash = createHash('sha256').update(databaseUrl).digest('hex').slice(0, 16);
    return join(tmpdir(), `tlprt-stats-journal-${hash}`);
  }
  return resolve('data/stats-journal');
}

/** Reads the environment of docs/DESIGN.md §3. Unset or empty variables take their defaults. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (`FOO= node ...`) means "use the default", as with an unset one.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZEnv.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    database: databaseTarget(e.DATABASE_URL, e.SQLITE_LOCK_WAIT_MS),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    dnsServers: e.DNS_SERVERS,
    verifyHttpPort: e.VERIFY_HTTP_PORT,
    verifyAllowPrivate: e.VERIFY_ALLOW_PRIVATE,
    supervisorEmails: e.SUPERVISOR_EMAILS.map((s) => s.toLowerCase()),
    statsIngestFlushMs: e.STATS_INGEST_FLUSH_MS,
    alertsEvaluateAfterMs: e.ALERTS_EVALUATE_AFTER_MS,
    alertsEvaluateEveryMs: e.ALERTS_EVALUATE_EVERY_MS,
    statsJournal: {
      dir: journalDir(e.STATS_JOURNAL_DIR, e.DATABASE_URL, e.NODE_ENV),
      commitMs: e.STATS_JOURNAL_COMMIT_MS,
    },
    statsHeldMemoryBytes: e.STATS_HELD_MEMORY_MB * 1024 * 1024,
    clickhouseUrl: e.CLICKHOUSE_URL,
    webDist: resolve(e.WEB_DIST),
    demoSeed: e.DEMO_SEED,
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'warn' : 'info'),
    trustProxy: trustedProxies(e.TRUST_PROXY),
    guestPerMinute: e.RATE_LIMIT_GUEST_PER_MINUTE,
    mailbox: mailboxEnabled(e.NODE_ENV, e.HOST, e.MAILBOX),
    metrics: e.METRICS === 'on' || (e.METRICS !== 'off' && isLoopbackHost(e.HOST)),
    trackerNodes: [...new Set(e.TRACKER_NODES.map((u) => new URL(u).origin))].sort(),
    ice: iceConfig(e.ICE_SERVERS, e.TURN_SECRET, e.TURN_CREDENTIAL_TTL_S),
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: Math.min(e.HEADERS_TIMEOUT_MS, e.REQUEST_TIMEOUT_MS),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    ingest: {
      perAddressPerMinute: e.INGEST_REPORTS_PER_ADDRESS_PER_MINUTE,
      perKeyPerMinute: e.INGEST_REPORTS_PER_KEY_PER_MINUTE,
      replayMemoryBytes: e.INGEST_REPLAY_MEMORY_MB * 1024 * 1024,
    },
    tokenFailuresPerAddressPerMinute: e.TOKEN_FAILURES_PER_ADDRESS_PER_MINUTE,
    playerDist: resolve(e.PLAYER_DIST),
    demoPages: e.NODE_ENV !== 'production',
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    integrity: {
      timeoutMs: e.INTEGRITY_TIMEOUT_MS,
      maxBytes: e.INTEGRITY_MAX_BYTES,
      cacheEntries: e.INTEGRITY_CACHE_ENTRIES,
      perAddressPerMinute: e.INTEGRITY_PER_ADDRESS_PER_MINUTE,
      perKeyPerMinute: e.INTEGRITY_PER_KEY_PER_MINUTE,
      concurrentPerNode: e.INTEGRITY_CONCURRENT_PER_NODE,
      concurrentPerTeam: e.INTEGRITY_CONCURRENT_PER_TEAM,
      teamBytesPerMinute: e.INTEGRITY_TEAM_BYTES_PER_MINUTE,
      pushedTtlMs: e.INTEGRITY_PUSHED_TTL_S * 1000,
    },
    tracker: {
      maxSockets: e.TRACKER_MAX_SOCKETS,
      workers: e.TRACKER_WORKERS,
      socketsPerAddress: e.TRACKER_SOCKETS_PER_ADDRESS,
      swarmsPerSocket: e.TRACKER_SWARMS_PER_SOCKET,
      messagesPerSecond: e.TRACKER_MESSAGES_PER_SECOND,
      maxMessageBytes: e.TRACKER_MAX_MESSAGE_BYTES,
      peersPerSwarm: e.TRACKER_PEERS_PER_SWARM,
      peersPerAddressPerSwarm: e.TRACKER_PEERS_PER_ADDRESS_PER_SWARM,
      idleTimeoutMs: e.TRACKER_IDLE_TIMEOUT_MS,
      matchMinPeers: e.TRACKER_MATCH_MIN_PEERS,
    },
    networks: e.NETWORKS_FILE === undefined ? null : networksOf(e.NETWORKS_FILE),
  };
}

/** Creates the folder of a SQLite file so a fresh checkout starts without manual steps. */
export function ensureDatabaseFolder(target: DatabaseTarget): void {
  if (target.kind === 'sqlite' && target.path !== ':memory:') {
    mkdirSync(dirname(target.path), { recursive: true });
  }
}

/** PUBLIC_URL's host name (no port): the CNAME target is built from it. */
export function publicHostOf(publicUrl: string): string {
  return new URL(publicUrl).hostname;
}
