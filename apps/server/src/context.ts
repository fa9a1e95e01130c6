import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { TeamTokens } from './access/team-tokens.js';
import type { UsableKeys } from './access/usable-keys.js';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import type { EventBus } from './events/bus.js';
import type { StreamHub } from './events/streams.js';
import type { Verifier } from './features/domains/verification/index.js';
import type { StatsStore } from './features/statistics/store.js';
import type { OriginGate } from './http/origin-gate.js';
import type { LoginFailures } from './http/rate-limit.js';
import type { Clock } from './lib/clock.js';
import type { Mailer } from './mail/mailer.js';
import type { Metrics } from './metrics/index.js';

/** What services depend on, passed in (never imported as singletons) so tests swap clock and mail. */
export interface AppContext {
  config: Config;
  db: Db;
  bus: EventBus;
  mailer: Mailer;
  hub: StreamHub;
  now: Clock;
  log: FastifyBaseLogger;
  loginFailures: LoginFailures;
  /** Domain ownership checks (docs/DESIGN.md §6), built once from the config. */
  verifier: Verifier;
  /** Which browser origins may use a key (ingest, public settings, tracker: docs/DESIGN.md §7, §11). */
  origins: OriginGate;
  /** Whether a key is usable on the public side (the one rule of docs/DESIGN.md §11), cached briefly. */
  keys: UsableKeys;
  /** Which team an API token belongs to (server-side reporters), cached briefly. */
  teamTokens: TeamTokens;
  /** The client address of a raw request (no Fastify request around it: the tracker's upgrades), under
   *  the same TRUST_PROXY rule as Fastify's `request.ip`. */
  addressOf: (req: IncomingMessage) => string;
  /** The operators' counters and gauges (GET /metrics). */
  metrics: Metrics;
  /** Where the statistics are kept: the database, or ClickHouse (CLICKHOUSE_URL). */
  statsStore: StatsStore;
}
