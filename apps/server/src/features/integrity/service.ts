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
import { type ByteRange, demoFilePath, fetchSegment, readDemoFile } from './origin.js';
import { segmentId } from './store.js';
import { TeamHosts } from './team-hosts.js';

/** A hash is believed this long (segment URLs are meant to be immutable; this bounds the damage when
 *  an origin replaces a file under the same name). */
const HASH_TTL_MS = 10 * 60_000;
/** A failed fetch is remembered this long: every viewer of a failing segment must not re-ask it. */
const FAILURE_TTL_MS = 3000;
/** CDNs redirect to edges; a few hops, each checked by the SSRF guard. */
const MAX_REDIRECTS = 5;
const USER_AGENT = 'tlprt-integrity/1.0 (P2P segment check)';
/** The folder prefix of the demo stream's URLs (PLAYER_PATHS.demoStream is its playlist). */
const DEMO_PREFIX = PLAYER_PATHS.demoStream.slice(0, PLAYER_PATHS.demoStream.lastIndexOf('/') + 1);

export interface IntegrityService {
  /** The SHA-256 (hex) of the origin's bytes of `url` (and `range`); HttpError 403 when the URL is not
   *  one the key's team serves, 502 when its origin could not be read. */
  sha256Of(key: UsableKey, url: URL, range: ByteRange | undefined): Promise<string>;
  /** Outcomes held in memory (tests and the bench check the bound). */
  readonly cachedEntries: number;
}

export interface IntegrityServiceOptions {
  /** The address policy of the fetches: classifyAddress unless a test narrows it (a local site that
   *  stands for a public one). */
  classify?: SafeFetchOptions['classify'];
}

const services = new WeakMap<AppContext, IntegrityService>();

/** The integrity service of a running app (tests, the bench). */
export function integrityServiceOf(ctx: AppContext): IntegrityService | undefined {
  return services.get(ctx);
}

/**
 * DESIGN §11 "Integrity of P2P delivery": the reference hash of a segment, read by this server from the
 * segment's origin, only for hosts of the key's team (or the server's own demo stream), one fetch per
 * segment at a time, kept in a bounded cache.
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
    { maxEntries: limits.cacheEntries, okTtlMs: HASH_TTL_MS, failureTtlMs: FAILURE_TTL_MS },
    ctx.now,
  );
  const publicOrigin = new URL(config.publicUrl).origin;
  const demoRoot = join(DEMO_ASSETS, 'demo-stream');
  const teamHosts = new TeamHosts(ctx.db, ctx.now);

  /** A hash or a failure reason: errors never escape into the shared in-flight promise. */
  async function outcomeOf(read: () => Promise<Buffer>, url: URL): Promise<Outcome> {
    try {
      return {
        ok: true,
        sha256: createHash('sha256')
          .update(await read())
          .digest('hex'),
      };
    } catch (error) {
      const reason = reasonOf(error);
      ctx.log.info({ host: url.host, reason }, 'integrity: origin not read');
      return { ok: false, reason };
    }
  }

  async function sha256Of(key: UsableKey, given: URL, range: ByteRange | undefined): Promise<string> {
    const url = new URL(given.href);
    // The fragment never reaches the origin, so two URLs that differ only in it are the same segment.
    url.hash = '';
    let read: () => Promise<Buffer>;
    if (config.demoPages && url.origin === publicOrigin && url.pathname.startsWith(DEMO_PREFIX)) {
      const file = demoFilePath(demoRoot, url.pathname.slice(DEMO_PREFIX.length));
      if (file === undefined) throw new HttpError(403, MSG_INTEGRITY.notDemoFile);
      read = () => readDemoFile(file, range, limits.maxBytes);
    } else {
      if (!(await teamHosts.allows(key.teamId, url.hostname)))
        throw new HttpError(403, MSG_INTEGRITY.hostNotOfKey);
      // No segment of a stream on another port can ever be read: like a foreign host, all of it is
      // unverifiable (a redirect to such a port is one segment's failure, found by the fetch).
      if (
        url.port !== '' &&
        Number(url.port) !== fetchOptions.ports[url.protocol === 'https:' ? 'https' : 'http']
      )
        throw new HttpError(403, MSG_INTEGRITY.portNotFetched);
      read = () => fetchSegment(url, range, fetchOptions);
    }
    let fetched = false;
    const outcome = await cache.resolve(segmentId(url, range), () => {
      fetched = true;
      return outcomeOf(read, url);
    });
    ctx.metrics.integrityFetches.inc({ source: fetched ? 'origin' : 'cache' });
    if (!outcome.ok) throw new HttpError(502, `${MSG_INTEGRITY.originFailed}: ${outcome.reason}`);
    return outcome.sha256;
  }

  const service: IntegrityService = {
    sha256Of,
    get cachedEntries() {
      return cache.size;
    },
  };
  services.set(ctx, service);
  return service;
}
