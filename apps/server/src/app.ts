import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { LIMITS, MSG, TIMINGS } from '@tlprt/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { authorizeTeam } from './access/team-access.js';
import { TeamTokens } from './access/team-tokens.js';
import { UsableKeys } from './access/usable-keys.js';
import { type Config, type DatabaseTarget, ensureDatabaseFolder } from './config.js';
import type { AppContext } from './context.js';
import { type Db, migrateToLatest, openDatabase, pgClientConfig } from './db/index.js';
import { assertDatabaseWritable } from './db/writable.js';
import { liveSessionIds, lookupSession } from './directory/sessions.js';
import { type EventBus, InProcessBus, PgBus } from './events/bus.js';
import { StreamHub } from './events/streams.js';
import { accountRoutes } from './features/account/routes.js';
import {
  alertPreviewRoutes,
  alertRoutes,
  alertWebhookRoutes,
  createAlerts,
} from './features/alerts/index.js';
import { auditRoutes } from './features/audit/routes.js';
import { guestAuthRoutes, sessionRoutes } from './features/auth/routes.js';
import { referenceRoutes } from './features/dictionaries/routes.js';
import { keySettingRoutes, publicKeySettingRoutes } from './features/domains/key-settings/routes.js';
import { usableKeySetting } from './features/domains/key-settings/service.js';
import { keyRoutes } from './features/domains/keys/routes.js';
import { domainRoutes } from './features/domains/routes.js';
import {
  createVerifier,
  type Verifier,
  type VerifierOptions,
  verifierOptionsFromConfig,
} from './features/domains/verification/index.js';
import { exportRoutes } from './features/export/routes.js';
import { hashPushRoutes } from './features/integrity/push-routes.js';
import { integrityRoutes, sweepExpiredHashes } from './features/integrity/routes.js';
import { guestInvitationRoutes, invitationRoutes } from './features/invitations/routes.js';
import { liveRoutes } from './features/live/routes.js';
import { originRoutes } from './features/origins/routes.js';
import { playerRoutes, startTracker, type Tracker } from './features/player/index.js';
import type { BatchWriter } from './features/statistics/aggregator.js';
import {
  createStats,
  ensureBlockLayout,
  ingestFastPath,
  ingestRoutes,
  openStatsStore,
  statsRoutes,
} from './features/statistics/index.js';
import { teamLifecycleRoutes } from './features/team-lifecycle/routes.js';
import { teamSearchRoutes } from './features/team-search/routes.js';
import { teamTokenRoutes } from './features/team-tokens/routes.js';
import { teamRoutes } from './features/teams/routes.js';
import { userRoutes } from './features/users/routes.js';
import { applySupervisorEmails } from './features/users/service.js';
import { authenticate } from './http/auth.js';
import { clientAddress, trustFunction } from './http/client-address.js';
import { registerDocs } from './http/docs.js';
import { Edge } from './http/edge.js';
import { HttpError, registerErrorHandler } from './http/errors.js';
import { OriginGate } from './http/origin-gate.js';
import { DEFAULT_RATE_LIMITS, loginFailures, type RateLimitSettings } from './http/rate-limit.js';
import { RequestLog } from './http/request-log.js';
import type { AccessPipeline } from './http/route.js';
import { tokenBudgetAhead, withTokenRedaction } from './http/token-guard.js';
import { validatorCompiler } from './http/validation.js';
import { registerWebApp } from './http/web.js';
import { type Clock, systemClock } from './lib/clock.js';
import { type Mailer, OutboxMailer, SmtpMailer } from './mail/mailer.js';
import { mailboxRoutes } from './mail/routes.js';
import { METRICS_PATH, Metrics } from './metrics/index.js';
import { shutdownInOrder } from './shutdown.js';

/** What tests (and later issues) may swap. Everything not given is built from the config and owned
 *  (closed) by the app. */
export interface AppDeps {
  now?: Clock;
  rateLimits?: Partial<RateLimitSettings>;
  heartbeatMs?: number;
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** A ready verifier, or options laid over the config's (tests shorten timeouts, set the https port). */
  verifier?: Verifier | Partial<VerifierOptions>;
  /** How the statistics flush writes a batch (tests pass one that fails for chosen keys). */
  statsWriter?: BatchWriter;
  /** The tracker worker's script (TRACKER_WORKERS); tests, which run the sources, pass the built one. */
  trackerWorkerScript?: string;
}

function buildVerifier(config: Config, given: AppDeps['verifier']): Verifier {
  if (given && 'verify' in given && typeof given.verify === 'function') return given as Verifier;
  return createVerifier({ ...verifierOptionsFromConfig(config), ...(given as Partial<VerifierOptions>) });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The services' dependencies (scripts and tests reach the database and bus through it). */
    ctx: AppContext;
  }
}

export type App = FastifyInstance;

/** SQLite means one node: deliver in process. PostgreSQL may mean several nodes: LISTEN/NOTIFY. */
function createBus(
  db: Db,
  target: DatabaseTarget,
  log: FastifyInstance['log'],
): Promise<EventBus> | EventBus {
  if (target.kind === 'sqlite') return new InProcessBus();
  return PgBus.start(db, pgClientConfig(target.url), (msg, err) => log.warn({ err }, msg));
}

/** A per-client-address limit of a scope's calls, answered 429 with Retry-After. */
const perAddressLimit = (max: number) => ({
  max,
  timeWindow: 60_000,
  errorResponseBuilder: (_req: unknown, c: { ttl: number }) =>
    new HttpError(429, MSG.tooManyRequests, undefined, { 'Retry-After': String(Math.ceil(c.ttl / 1000)) }),
});

/**
 * Builds the whole server: database (migrated), event bus, mail, and every route. The returned app is
 * ready; call `listen`. It reads as the list of what the app is made of, and ends with the order in
 * which `close()` takes it apart.
 */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<App> {
  // One trust rule for Fastify's request.ip and for raw requests (the tracker's upgrades), so every
  // per-address limit sees the same client.
  const trust = trustFunction(config.trustProxy);
  const rateLimits = rateLimitsOf(config, deps);
  const edge = edgeOf(config);
  const app = createFastify(config, deps, trust, edge);
  const db = await openStorage(config, app.log);
  const ctx = await createContext(app, config, deps, db, { trust, rateLimits });
  const stats = await createStats(app, ctx, deps.statsWriter);
  const alerts = createAlerts(app, ctx);
  await registerHttpPlugins(app, config);
  await registerAccessPipeline(app, ctx, rateLimits);
  await registerGuestScope(app, ctx);
  await registerFeatureRoutes(app, ctx, stats, alerts);
  await registerIngest(app, ctx, stats, edge);
  const tracker = await registerPlayer(app, ctx, stats, edge, deps);
  const stopHashSweep = sweepExpiredHashes(ctx);
  await registerOperations(app, ctx);
  await registerWebApp(app, config.webDist, { supportEmail: config.supportEmail });
  await applySupervisorEmails(ctx);
  shutdownInOrder(app, {
    stopTaking: [
      ['the paths ahead of the router', () => edge.stop()],
      // Open streams would keep the HTTP server from closing.
      ['live streams', () => ctx.hub.closeAll()],
      ['connections past the deadline', () => cutConnectionsAfter(app, config.shutdownTimeoutMs / 4)],
      ['integrity hash sweep', stopHashSweep],
      ['tracker', () => tracker.stopTaking()],
    ],
    close: [
      ['tracker workers', () => tracker.close()],
      ['alerts', () => alerts.stop()],
      ['statistics (the last flush)', () => stats.stop()],
      ['statistics store', () => ctx.statsStore.close()],
      ['mail', () => ctx.mailer.close()],
      ['event bus', () => ctx.bus.close()],
      ['database', () => db.destroy()],
    ],
  });
  await app.ready();
  return app;
}

/**
 * Closing waits for every socket to end, and only then flushes the statistics and closes the database.
 * Idle keep-alive sockets are closed at once (Fastify); requests in flight get `ms`, then every socket
 * still open (a slow body, a stuck client) is cut.
 */
function cutConnectionsAfter(app: App, ms: number): void {
  setTimeout(() => app.server.closeAllConnections(), Math.floor(ms)).unref();
}

/** The HTTP server (http/edge.ts) with Node's limits: Fastify's defaults are no limit at all. */
function edgeOf(config: Config): Edge {
  return new Edge({
    // A body sent a byte every few seconds held its socket forever.
    requestTimeoutMs: config.requestTimeoutMs,
    headersTimeoutMs: config.headersTimeoutMs,
    // Fastify's default.
    keepAliveTimeoutMs: 72_000,
    // Node's 16 KiB held ~390 key hashes in an export URL; the contract allows 500 of up to 200
    // characters (~100 kB once the commas are escaped).
    maxHeaderSize: 128 * 1024,
    // How often Node looks for requests past those limits (its default, 30 s, would let a slow
    // request live up to 30 s longer).
    connectionsCheckingIntervalMs: Math.min(5000, Math.max(100, Math.floor(config.requestTimeoutMs / 4))),
  });
}

function createFastify(
  config: Config,
  deps: AppDeps,
  trust: ReturnType<typeof trustFunction>,
  edge: Edge,
): App {
  const app = Fastify({
    // The access log's URLs hold no API token (one put in a query string by mistake).
    // Its lines go to process.stdout itself, as the start banner does (main.ts): in the order written,
    // so the banner comes after Fastify's "listening" line, never before it.
    logger: withTokenRedaction(deps.logger ?? { level: config.logLevel, stream: process.stdout }),
    // Each request is logged once, at debug (http/request-log.ts), not twice at info.
    logController: new RequestLog(),
    bodyLimit: LIMITS.bodyBytes,
    trustProxy: trust,
    serverFactory: edge.serverFactory,
    // Path parameters longer than this are a 404 before any handler runs (hashes are ~43 characters).
    routerOptions: { maxParamLength: 500 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // JSON everywhere (forms and multipart in the guest scope); a text/plain body is a 415, not a string.
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('authInfo', null);
  app.decorateRequest('teamAccess', null);

  return app;
}

/** The database, writable and migrated (closed last by the shutdown). */
async function openStorage(config: Config, log: App['log']): Promise<Db> {
  ensureDatabaseFolder(config.database);
  // A database that cannot take writes fails the start, naming its file (it would drop every report).
  await assertDatabaseWritable(config.database);
  const db = openDatabase(config.database, log);
  await migrateToLatest(db);
  await assertDatabaseWritable(config.database, db);
  await ensureBlockLayout(db);

  return db;
}

/** The services' dependencies: clock, bus, live streams, mail, keys and gates. */
async function createContext(
  app: App,
  config: Config,
  deps: AppDeps,
  db: Db,
  { trust, rateLimits }: { trust: ReturnType<typeof trustFunction>; rateLimits: RateLimitSettings },
): Promise<AppContext> {
  const now = deps.now ?? systemClock;
  const bus = await createBus(db, config.database, app.log);
  const hub = new StreamHub(bus, now, deps.heartbeatMs ?? TIMINGS.heartbeatMs, (ids) =>
    liveSessionIds(db, ids, now()),
  );

  const mailer =
    deps.mailer ??
    (config.smtpUrl
      ? new SmtpMailer(config.smtpUrl, config.mailFrom)
      : new OutboxMailer(
          db,
          now,
          app.log,
          config.mailbox ? `${config.publicUrl}/mailbox` : 'the mail_outbox table',
        ));

  const keys = new UsableKeys(db, now);
  const ctx: AppContext = {
    config,
    db,
    bus,
    mailer,
    hub,
    now,
    log: app.log,
    loginFailures: loginFailures(db, rateLimits, now),
    verifier: buildVerifier(config, deps.verifier),
    origins: new OriginGate(db, keys, new URL(config.publicUrl).origin, now),
    keys,
    teamTokens: new TeamTokens(db, now, {
      failuresPerAddressPerMinute: config.tokenFailuresPerAddressPerMinute,
    }),
    addressOf: (req) => clientAddress(req, trust),
    metrics: new Metrics(),
    statsStore: await openStatsStore(config, db, app.log),
  };
  app.decorate('ctx', ctx);
  return ctx;
}

function rateLimitsOf(config: Config, deps: AppDeps): RateLimitSettings {
  return {
    ...DEFAULT_RATE_LIMITS,
    ...(config.guestPerMinute ? { guestPerMinute: config.guestPerMinute } : {}),
    ...deps.rateLimits,
  };
}

/** Security headers, compression and the API docs. */
async function registerHttpPlugins(app: App, config: Config): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine injects style attributes and <style> tags at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        // The demo page joins its swarms' trackers, other nodes' with TRACKER_NODES.
        connectSrc: ["'self'", ...config.trackerNodes.map((n) => n.replace(/^http/, 'ws'))],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // Plain-HTTP deployments (the local default) must not tell browsers to insist on HTTPS.
    hsts: config.publicUrl.startsWith('https:'),
  });
  // JSON answers over 1 KiB go compressed to clients that accept it (a day of statistics is ~160 kB of
  // JSON, ~25 kB compressed). Only JSON: the live stream, CSV downloads and the pre-compressed web app
  // files are left alone; compressed request bodies are not accepted (no decompression bombs).
  await app.register(compress, {
    customTypes: /^application\/json/,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    // Quality 1 and in-line (not through a zlib stream): about half a millisecond for a day of
    // statistics (185 kB of JSON to 32 kB), where quality 2 takes twice as long for a larger answer.
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } },
    syncThreshold: 1024 * 1024,
    globalDecompression: false,
  });
  await registerDocs(app);
}

async function registerAccessPipeline(
  app: App,
  ctx: AppContext,
  rateLimits: RateLimitSettings,
): Promise<void> {
  // Each route takes its token check and per-address limit from its contract endpoint (http/route.ts).
  // One hook per limit, shared by the routes that name it: a client's calls of all of them count together.
  await app.register(rateLimit, { global: false });
  const limitHooks = {
    guestPerMinute: app.rateLimit(perAddressLimit(rateLimits.guestPerMinute)),
    playerSettingsPerMinute: app.rateLimit(perAddressLimit(rateLimits.playerSettingsPerMinute)),
  };
  app.decorate('accessPipeline', {
    authenticate: authenticate((hash) => lookupSession(ctx, hash)),
    perAddress: (limit) => limitHooks[limit],
    authorizeTeam: (user, teamId, action) => authorizeTeam(ctx, user, teamId, action),
  } satisfies AccessPipeline);
}

async function registerGuestScope(app: App, ctx: AppContext): Promise<void> {
  // Guest scope: the only calls whose bodies may also be forms or multipart.
  await app.register(async (guest) => {
    await guest.register(formbody, { bodyLimit: LIMITS.bodyBytes });
    await guest.register(multipart, {
      attachFieldsToBody: 'keyValues',
      // Fields only: the guest forms have no files.
      limits: { files: 0, fields: 20, fieldSize: 16 * 1024, parts: 20 },
    });
    // The multipart plugin reads the body in a preValidation hook, where busboy reports a truncated or
    // garbled body as a plain Error: that is the client's fault (400), not ours.
    const bodyRead = new WeakSet<object>();
    guest.addHook('preHandler', async (req) => void bodyRead.add(req));
    guest.setErrorHandler(async (err: Error & { statusCode?: unknown }, req) => {
      if (req.isMultipart() && !bodyRead.has(req) && typeof err.statusCode !== 'number') {
        throw new HttpError(400, MSG.malformedBody);
      }
      throw err;
    });
    await guest.register(guestAuthRoutes(ctx));
    await guest.register(guestInvitationRoutes(ctx));
  });
}

async function registerFeatureRoutes(
  app: App,
  ctx: AppContext,
  stats: Awaited<ReturnType<typeof createStats>>,
  alerts: ReturnType<typeof createAlerts>,
): Promise<void> {
  // Every other call of the three APIs takes JSON only; its token check, supervisor check and limit
  // come from its endpoint.
  const features = [
    publicKeySettingRoutes(ctx),
    sessionRoutes(ctx),
    liveRoutes(ctx),
    userRoutes(ctx),
    accountRoutes(ctx),
    teamRoutes(ctx),
    teamSearchRoutes(ctx),
    teamLifecycleRoutes(ctx),
    teamTokenRoutes(ctx),
    invitationRoutes(ctx),
    exportRoutes(ctx),
    auditRoutes(ctx),
    domainRoutes(ctx),
    keyRoutes(ctx),
    keySettingRoutes(ctx),
    originRoutes(ctx),
    statsRoutes(stats),
    alertRoutes(ctx),
    alertPreviewRoutes(ctx),
    alertWebhookRoutes(ctx, alerts.webhooks),
  ];
  for (const routes of features) await app.register(routes);
}

async function registerIngest(
  app: App,
  ctx: AppContext,
  stats: Awaited<ReturnType<typeof createStats>>,
  edge: Edge,
): Promise<void> {
  // Ingest: no token, its own body limit, no guest rate limit (players report often).
  await app.register(ingestRoutes(stats));
  // Browsers' reports are answered ahead of Fastify's router, through the route's own function
  // (ingest-http.ts); a closing node leaves them to the route, which answers 503.
  edge.add(ingestFastPath(stats));
  // An address past its budget of refused API tokens is answered 429 there too (http/token-guard.ts).
  edge.add(tokenBudgetAhead(ctx));
}

async function registerPlayer(
  app: App,
  ctx: AppContext,
  stats: Awaited<ReturnType<typeof createStats>>,
  edge: Edge,
  deps: AppDeps,
): Promise<Tracker> {
  await app.register(playerRoutes(ctx));
  await app.register(integrityRoutes(ctx, edge, stats.countVerification));
  await app.register(hashPushRoutes(ctx));
  return startTracker(app, ctx, {
    workerScript: deps.trackerWorkerScript,
    settingOf: (key, settingId) => usableKeySetting(ctx.db, key, settingId),
  });
}

/** The reference lists, the mailbox, and the metrics of the node. */
async function registerOperations(app: App, ctx: AppContext): Promise<void> {
  const { config, hub } = ctx;
  await app.register(referenceRoutes(ctx));
  if (config.mailbox) await app.register(mailboxRoutes(ctx));
  // Requests a rate limit refused, by route (the tracker's refusals happen before any route).
  app.addHook('onResponse', (req, reply, done) => {
    if (reply.statusCode === 429) ctx.metrics.rateLimited.inc({ route: req.routeOptions.url ?? 'none' });
    done();
  });
  ctx.metrics.readFrom({
    trackerSockets: () => app.tracker.sockets.open,
    trackerSwarms: () => app.tracker.swarmCount(),
    trackerPeers: () => app.tracker.peerCount(),
    liveStreams: () => hub.size,
  });
  if (config.metrics) {
    ctx.metrics.withProcessMetrics();
    app.get(METRICS_PATH, { schema: { hide: true } }, async (_req, reply) =>
      reply.type(ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics()),
    );
  }
}
