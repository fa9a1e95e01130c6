import { sql } from 'kysely';
import { USABLE_DOMAIN, USABLE_KEY_ROW, USABLE_TEAM, type UsableKeys } from '../access/usable-keys.js';
import type { Db } from '../db/index.js';
import type { Clock } from '../lib/clock.js';
import { hostAndParents } from '../net/host.js';

interface Page {
  host: string;
  plainHttp: boolean;
}

/** The cache's key hash for "any key" (no key hash is empty). */
const ANY_KEY = '';
/** Answers remembered at most (then forgotten all at once): one per page and key of the live players. */
const MAX_ENTRIES = 50_000;

/** A page an `Origin` header names: its host (lower case) and whether it is a plain `http:` page; undefined
 *  for "null", opaque or malformed values and for any port other than its scheme's default (the URL
 *  parser drops an explicit :443 or :80, so those are the default port). */
function pageOf(origin: string): Page | undefined {
  try {
    const u = new URL(origin);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    if (u.port !== '') return undefined;
    return { host: u.hostname.toLowerCase().replace(/^\[|\]$/g, ''), plainHttp: u.protocol === 'http:' };
  } catch {
    return undefined;
  }
}

/**
 * The Origin rule of docs/DESIGN.md §7 and §11, shared by the ingest, the public settings read, the tracker and
 * the integrity service: for a given key, the key must be usable (access/usable-keys.ts, whatever the
 * Origin) and a browser's Origin must be the dashboard's own origin (PUBLIC_URL: the demo page) or a
 * verified, active, promoted domain (or a subdomain of it) that this very key serves (its own domain,
 * or any of its team's for a team-wide key). Without a key (CORS preflights), any usable domain of a
 * usable key is accepted. The scheme and the port count, or a page on
 * another scheme or port of a verified host would borrow its key: a domain's pages are `https://` on
 * the default port; its `http://` pages (port 80) only when the domain's `plain_http` option is on; any
 * other port never (a domain is stored as a bare host: whoever runs a page on another port is not
 * necessarily who verified the host). The dashboard's own origin is matched exactly.
 * Answers are cached briefly: a player sends many requests, a domain switched off is refused seconds later.
 */
export class OriginGate {
  /** Origin → key hash (ANY_KEY: any key) → the answer and until when it stands. By origin first: each
   *  player asks with one Origin, and no key and origin text is joined per request. */
  private readonly cache = new Map<string, Map<string, { ok: boolean; until: number }>>();
  private entries = 0;

  constructor(
    private readonly db: Db,
    private readonly keys: UsableKeys,
    private readonly dashboardOrigin: string,
    private readonly now: Clock,
    private readonly ttlMs = 5000,
  ) {}

  /** May a page of `origin` use the key `keyHash`? */
  async forKey(keyHash: string, origin: string | undefined): Promise<boolean> {
    if ((await this.keys.find(keyHash)) === null) return false;
    return this.forUsableKey(keyHash, origin);
  }

  /** forKey for a key the caller has just found usable (the ingest resolves a batch's keys at once):
   *  the cached answer, when there is one, without a wait. */
  forUsableKey(keyHash: string, origin: string | undefined): boolean | Promise<boolean> {
    if (origin === undefined || origin === this.dashboardOrigin) return true;
    return this.cached(origin, keyHash, (keys) => keys.where('k.key_hash', '=', keyHash));
  }

  /** Is `origin` a page of a usable domain with an active key of any customer (CORS preflight, tracker
   *  connections, which name no key)? The cached answer, when there is one, without a wait. */
  forAnyKey(origin: string | undefined): boolean | Promise<boolean> {
    if (origin === undefined || origin === this.dashboardOrigin) return true;
    return this.cached(origin, ANY_KEY, (keys) => keys);
  }

  /** Usable keys serving `page` (its host or a parent of it, and a domain that takes plain `http://`
   *  pages for one): the domain's own keys and its team's team-wide ones, the domain, its team and the
   *  key each passing their part of the one rule (access/usable-keys.ts). */
  private usableKeysOf({ host, plainHttp }: Page) {
    return this.db
      .selectFrom('domains as d')
      .innerJoin('teams as t', 't.id', 'd.team_id')
      .where('d.host', 'in', hostAndParents(host))
      .$if(plainHttp, (q) => q.where('d.plain_http', '=', 1))
      .where(USABLE_DOMAIN)
      .where(USABLE_TEAM)
      .innerJoin('keys as k', (j) =>
        j.on((eb) =>
          eb.or([
            eb('k.domain_id', '=', eb.ref('d.id')),
            eb.and([eb('k.domain_id', 'is', null), eb('k.team_id', '=', eb.ref('d.team_id'))]),
          ]),
        ),
      )
      .where(USABLE_KEY_ROW);
  }

  /**
   * The answer for `origin` and `keyHash` (no Origin and the dashboard's own are decided by the
   * callers): remembered for `ttlMs`, else looked up among the usable keys serving its page that
   * `narrow` keeps. An Origin that names no page we could accept is refused without a look-up. Each player sends many
   * requests with one Origin: a remembered answer is read before the Origin is even parsed.
   */
  private cached(
    origin: string,
    keyHash: string,
    narrow: (keys: ReturnType<OriginGate['usableKeysOf']>) => ReturnType<OriginGate['usableKeysOf']>,
  ): boolean | Promise<boolean> {
    const hit = this.cache.get(origin)?.get(keyHash);
    if (hit && hit.until > this.now()) return hit.ok;
    const page = pageOf(origin);
    if (page === undefined) return this.remember(origin, keyHash, false);
    return narrow(this.usableKeysOf(page))
      .select(sql<number>`1`.as('one'))
      .executeTakeFirst()
      .then((row) => this.remember(origin, keyHash, row !== undefined));
  }

  private remember(origin: string, keyHash: string, ok: boolean): boolean {
    if (this.entries >= MAX_ENTRIES) {
      this.cache.clear();
      this.entries = 0;
    }
    let byKey = this.cache.get(origin);
    if (byKey === undefined) {
      byKey = new Map();
      this.cache.set(origin, byKey);
    }
    if (!byKey.has(keyHash)) this.entries++;
    byKey.set(keyHash, { ok, until: this.now() + this.ttlMs });
    return ok;
  }
}
