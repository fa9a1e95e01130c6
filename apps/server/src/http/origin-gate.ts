import { DomainStatus, KeyStatus, TeamStatus } from '@tlprt/contract';
import { sql } from 'kysely';
import type { UsableKeys } from '../access/usable-keys.js';
import type { Db } from '../db/index.js';
import type { Clock } from '../lib/clock.js';
import { hostAndParents } from '../net/host.js';

/** The host of an `Origin` header value, lower case; undefined for "null", opaque or malformed ones. */
function originHost(origin: string): string | undefined {
  try {
    const u = new URL(origin);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return u.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
}

/**
 * The Origin rule of DESIGN §7 and §11, shared by the ingest, the public settings read, the tracker and
 * the integrity service: for a given key, the key must be usable (access/usable-keys.ts, whatever the
 * Origin) and a browser's Origin must be the dashboard's own origin (PUBLIC_URL: the demo page) or a
 * verified, active, promoted domain (or a subdomain of it) that this very key serves (its own domain,
 * or any of its team's for a team-wide key). Without a key (CORS preflights), any usable domain of a
 * usable key is accepted.
 * Answers are cached briefly: a player sends many requests, a domain switched off is refused seconds later.
 */
export class OriginGate {
  private readonly cache = new Map<string, { ok: boolean; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly keys: UsableKeys,
    private readonly dashboardOrigin: string,
    private readonly now: Clock,
    private readonly ttlMs = 5000,
  ) {}

  /** No Origin (a server-side reporter) is accepted; the dashboard's own origin too. */
  private trivially(origin: string | undefined): boolean | undefined {
    if (origin === undefined) return true;
    if (origin === this.dashboardOrigin) return true;
    return originHost(origin) === undefined ? false : undefined;
  }

  /** May a page of `origin` use the key `keyHash`? */
  async forKey(keyHash: string, origin: string | undefined): Promise<boolean> {
    if ((await this.keys.find(keyHash)) === null) return false;
    const t = this.trivially(origin);
    if (t !== undefined) return t;
    return this.cached(`k\0${keyHash}\0${origin}`, async () => {
      const hosts = hostAndParents(originHost(origin as string) as string);
      const row = await this.usableKeysOf(hosts)
        .where('k.key_hash', '=', keyHash)
        .select(sql<number>`1`.as('one'))
        .executeTakeFirst();
      return row !== undefined;
    });
  }

  /** Is `origin` a page of a usable domain with an active key of any customer (CORS preflight, tracker
   *  connections, which name no key)? */
  async forAnyKey(origin: string | undefined): Promise<boolean> {
    const t = this.trivially(origin);
    if (t !== undefined) return t;
    return this.cached(`a\0${origin}`, async () => {
      const hosts = hostAndParents(originHost(origin as string) as string);
      const row = await this.usableKeysOf(hosts).select(sql<number>`1`.as('one')).executeTakeFirst();
      return row !== undefined;
    });
  }

  /** Active, unsuspended keys serving one of `hosts`: the domain's own keys and its team's team-wide ones. */
  private usableKeysOf(hosts: string[]) {
    return this.db
      .selectFrom('domains as d')
      .innerJoin('teams as t', 't.id', 'd.team_id')
      .where('d.host', 'in', hosts)
      .where('d.status', '=', DomainStatus.Active)
      .where('d.verification', '=', 1)
      .where('d.draft', '=', 1)
      .where('d.suspended', '=', 0)
      .where('t.suspended', '=', 0)
      .where('t.status_id', 'not in', [TeamStatus.Disabled, TeamStatus.Suspended])
      .innerJoin('keys as k', (j) =>
        j.on((eb) =>
          eb.or([
            eb('k.domain_id', '=', eb.ref('d.id')),
            eb.and([eb('k.domain_id', 'is', null), eb('k.team_id', '=', eb.ref('d.team_id'))]),
          ]),
        ),
      )
      .where('k.status', '=', KeyStatus.Active)
      .where('k.suspended', '=', 0);
  }

  private async cached(id: string, compute: () => Promise<boolean>): Promise<boolean> {
    const now = this.now();
    const hit = this.cache.get(id);
    if (hit && hit.until > now) return hit.ok;
    const ok = await compute();
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(id, { ok, until: now + this.ttlMs });
    return ok;
  }
}
