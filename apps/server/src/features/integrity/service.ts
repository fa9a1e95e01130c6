import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { MSG_INTEGRITY, PLAYER_PATHS } from '@tlprt/contract';
import type { UsableKey } from '../../access/usable-keys.js';
import { DEMO_ASSETS } from '../../config.js';
import type { AppContext } from '../../context.js';
import { HttpError } from '../../http/errors.js';
import { createDnsClient } from '../../net/dns.js';
import { reasonOf } from '../../net/failure.js';
import type { SafeFetchOptions } from '../../net/safe-fetch.js';
import { HashCache, type Outcome } from './cache.js';
import { OriginFetchLimits } from './fetch-limits.js';
import {
  type ByteRange,
  demoFilePath,
  type OriginHash,
  OriginReadFailed,
  readDemoFile,
  readOriginHash,
} from './origin.js';
import { readStoredHash, SegmentHashSource, segmentId, storeLearnedHash } from './store.js';
import { TeamHosts } from './team-hosts.js';

/** A hash learned from an origin is believed this long, by every node (segment URLs are meant to be
 *  immutable; this bounds the damage when an origin replaces a file under the same name). */
const LEARNED_TTL_MS = 10 * 60_000;
/** A node keeps a hash in memory this long before it reads the shared table again, so a hash pushed on
 *  another node replaces one this node learned within this time. */
const MEMORY_TTL_MS = 60_000;
/** A failed fetch is remembered this long: every viewer of a failing segment must not re-ask it. */
const FAILURE_TTL_MS = 3000;
/** CDNs redirect to edges; a few hops, each checked by the SSRF guard. */
const MAX_REDIRECTS = 5;
const USER_AGENT = 'tlprt-integrity/1.0 (P2P segment check)';
/** The folder prefix of the demo stream's URLs (PLAYER_PATHS.demoStream is its playlist). */
const DEMO_PREFIX = PLAYER_PATHS.demoStream.slice(0, PLAYER_PATHS.demoStream.lastIndexOf('/') + 1);

/** What one asker wants verified: the key, the segment (fragment dropped) and range, its stream's name. */
export interface SegmentQuestion {
  key: UsableKey;
  url: URL;
  range: ByteRange | undefined;
  /** The player's stream name, for the verification bytes' breakdown by stream. */
  stream: string | undefined;
}

export interface IntegrityService {
  /** The SHA-256 (hex) of the origin's bytes of the segment (and range); HttpError 403 when the URL is
   *  not one the key's team serves, 502 when its origin could not be read. */
  sha256Of(q: SegmentQuestion): Promise<string>;
  /** The hash already in this node's memory for the key's team, without awaiting anything (the fast
   *  path); undefined when it must be looked up (or the URL is not the team's: sha256Of decides). */
  cached(key: UsableKey, url: URL, range: ByteRange | undefined): string | undefined;
  /** Segments whose hashes the team just pushed: this node forgets what it held for them. */
  forget(teamId: number, segments: readonly string[]): void;
  /** Outcomes held in memory (tests and the bench check the bound). */
  readonly cachedEntries: number;
}

export interface IntegrityServiceOptions {
  /** The address policy of the fetches: classifyAddress unless a test narrows it (a local site that
   *  stands for a public one). */
  classify?: SafeFetchOptions['classify'];
  /** Bytes fetched from a key's origins to verify its peers' segments (the statistics' verifyDwSize). */
  countVerification?: (key: UsableKey, bytes: number, stream: string | undefined) => void;
}

const services = new WeakMap<AppContext, IntegrityService>();

/** The integrity service of a running app (tests, the bench, the hash push). */
export function integrityServiceOf(ctx: AppContext): IntegrityService | undefined {
  return services.get(ctx);
}

/** The segment's URL without its fragment: the fragment never reaches the origin, so two URLs that
 *  differ only in it are the same segment. */
function withoutFragment(given: URL): URL {
  if (given.hash === '') return given;
  const url = new URL(given.href);
  url.hash = '';
  return url;
}

/** What reading a customer's segment needs of the service. */
interface CustomerReadDeps {
  ctx: AppContext;
  fetchOptions: SafeFetchOptions;
  fetchLimits: OriginFetchLimits;
  teamHosts: TeamHosts;
  count: NonNullable<IntegrityServiceOptions['countVerification']>;
}

/** A customer's segment: the shared table first, then the origin (whose answer goes to the table). */
function customerRead(
  { ctx, fetchOptions, fetchLimits, teamHosts, count }: CustomerReadDeps,
  q: SegmentQuestion,
  segment: string,
): () => Promise<Outcome> {
  const { key, url, range } = q;
  return async () => {
    const now = ctx.now();
    const stored = await readStoredHash(ctx.db, key.teamId, segment, now).catch((err: unknown) => {
      // The origin can still answer: a database hiccup costs a fetch, not the viewer's P2P.
      ctx.log.warn({ err }, 'integrity: stored hashes not read');
      return undefined;
    });
    if (stored) return { ok: true, from: 'stored', sha256: stored.sha256, ttlMs: stored.expiresAt - now };
    let got: OriginHash;
    try {
      got = await fetchLimits.run(key.teamId, () =>
        readOriginHash(url, range, {
          ...fetchOptions,
          allowHost: (h) => teamHosts.allows(key.teamId, h),
          allowedHosts: "the team's",
        }),
      );
    } catch (err) {
      // Bytes a failed read received were paid for at the origin all the same.
      if (err instanceof OriginReadFailed && err.originBytes > 0) count(key, err.originBytes, q.stream);
      throw err;
    }
    if (got.originBytes > 0) count(key, got.originBytes, q.stream);
    const { sha256 } = got;
    await storeLearnedHash(
      ctx.db,
      key.teamId,
      segment,
      { sha256, source: got.source === 'stated' ? SegmentHashSource.Stated : SegmentHashSource.Fetched },
      now + LEARNED_TTL_MS,
      now,
    ).catch((err: unknown) => ctx.log.warn({ err }, 'integrity: learned hash not stored'));
    return { ok: true, from: 'origin', sha256 };
  };
}

/**
 * docs/DESIGN.md §11 "Integrity of P2P delivery" and issue 36: the reference hash of a segment, from the
 * cheapest trusted source first. This node's memory; the shared table (a hash the team's packager
 * pushed, or one any node of the cluster learned); the origin's digest header (no body); the origin's
 * body, hashed by this server. Only for hosts of the key's team (or the server's own demo stream), one
 * origin read per segment at a time on this node, the bytes read counted as the key's verification.
 */
export function createIntegrityService(
  ctx: AppContext,
  options: IntegrityServiceOptions = {},
): IntegrityService {
  const { config } = ctx;
  const limits = config.integrity;
  const dns = createDnsClient({ servers: config.dnsServers, timeoutMs: limits.timeoutMs });
  const fetchOptions: SafeFetchOptions = {
    ports: { http: config.verifyHttpPort, https: 443 },
    allowPrivate: config.verifyAllowPrivate,
    timeoutMs: limits.timeoutMs,
    maxBytes: limits.maxBytes,
    maxRedirects: MAX_REDIRECTS,
    userAgent: USER_AGENT,
    resolveAddresses: (host) => dns.addresses(host),
    ...(options.classify ? { classify: options.classify } : {}),
  };
  const cache = new HashCache(
    { maxEntries: limits.cacheEntries, okTtlMs: MEMORY_TTL_MS, failureTtlMs: FAILURE_TTL_MS },
    ctx.now,
  );
  const publicOrigin = new URL(config.publicUrl).origin;
  const demoRoot = join(DEMO_ASSETS, 'demo-stream');
  const teamHosts = new TeamHosts(ctx.db, ctx.now);
  const fetchLimits = new OriginFetchLimits(
    {
      perNode: limits.concurrentPerNode,
      perTeam: limits.concurrentPerTeam,
      teamBytesPerMinute: limits.teamBytesPerMinute,
    },
    ctx.now,
    ctx.metrics,
  );
  const count = options.countVerification ?? (() => {});

  const isDemo = (url: URL) =>
    config.demoPages && url.origin === publicOrigin && url.pathname.startsWith(DEMO_PREFIX);
  /** Memory is per team: a team's pushed hash is its own claim about its own segments. */
  const memoryId = (teamId: number, segment: string) => `${teamId}:${segment}`;

  /** A hash or a failure reason, remembered briefly; a refusal of our own limits (429) is thrown to
   *  every asker waiting for this read and remembered by nobody. */
  async function outcomeOf(read: () => Promise<Outcome>, url: URL): Promise<Outcome> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof HttpError) throw error;
      const reason = reasonOf(error);
      ctx.log.info({ host: url.host, reason }, 'integrity: origin not read');
      return { ok: false, reason };
    }
  }

  /** The server's own demo stream: its files, on this node's disk (no origin bytes to count). */
  function demoRead(url: URL, range: ByteRange | undefined): () => Promise<Outcome> {
    const file = demoFilePath(demoRoot, url.pathname.slice(DEMO_PREFIX.length));
    if (file === undefined) throw new HttpError(403, MSG_INTEGRITY.notDemoFile);
    return async () => ({
      ok: true,
      from: 'disk',
      sha256: createHash('sha256')
        .update(await readDemoFile(file, range, limits.maxBytes))
        .digest('hex'),
    });
  }

  async function sha256Of(q: SegmentQuestion): Promise<string> {
    const url = withoutFragment(q.url);
    const segment = segmentId(url, q.range);
    let read: () => Promise<Outcome>;
    if (isDemo(url)) {
      read = demoRead(url, q.range);
    } else {
      if (!(await teamHosts.allows(q.key.teamId, url.hostname)))
        throw new HttpError(403, MSG_INTEGRITY.hostNotOfKey);
      // No segment of a stream on another port can ever be read: like a foreign host, all of it is
      // unverifiable (a redirect to such a port is one segment's failure, found by the fetch).
      if (
        url.port !== '' &&
        Number(url.port) !== fetchOptions.ports[url.protocol === 'https:' ? 'https' : 'http']
      )
        throw new HttpError(403, MSG_INTEGRITY.portNotFetched);
      read = customerRead({ ctx, fetchOptions, fetchLimits, teamHosts, count }, { ...q, url }, segment);
    }
    let computed = false;
    const outcome = await cache.resolve(memoryId(q.key.teamId, segment), () => {
      computed = true;
      return outcomeOf(read, url);
    });
    ctx.metrics.integrityFetches.inc({ source: !computed ? 'cache' : outcome.ok ? outcome.from : 'origin' });
    if (!outcome.ok) throw new HttpError(502, `${MSG_INTEGRITY.originFailed}: ${outcome.reason}`);
    return outcome.sha256;
  }

  const service: IntegrityService = {
    sha256Of,
    cached: (key, url, range) => cache.peek(memoryId(key.teamId, segmentId(withoutFragment(url), range))),
    forget(teamId, segments) {
      for (const s of segments) cache.forget(memoryId(teamId, s));
    },
    get cachedEntries() {
      return cache.size;
    },
  };
  services.set(ctx, service);
  return service;
}
