import { originNameHost } from '../../access/origin-hosts.js';
import type { Db } from '../../db/index.js';
import type { Clock } from '../../lib/clock.js';
import { hostAndParents, normalizeHost } from '../../net/host.js';
import { teamHostRows } from './queries.js';

/** A team's hosts are read again after this long, like the key and Origin verdicts. */
const HOSTS_TTL_MS = 5000;
const HOSTS_CACHE_MAX = 10_000;

/**
 * The hosts a team's streams may come from (its usable domains and their subdomains, its active Origins),
 * cached briefly per team: the integrity service fetches only from them and the hash push accepts URLs
 * only on them, so one team can never read or set another team's segments.
 */
export class TeamHosts {
  private readonly cache = new Map<number, { hosts: Set<string>; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly now: Clock,
  ) {}

  async of(teamId: number): Promise<Set<string>> {
    const now = this.now();
    const hit = this.cache.get(teamId);
    if (hit && hit.until > now) return hit.hosts;
    const rows = await teamHostRows(this.db, teamId);
    const hosts = new Set(rows.domainHosts);
    for (const name of rows.originNames) {
      const host = originNameHost(name);
      if (host !== null) hosts.add(host);
    }
    if (this.cache.size >= HOSTS_CACHE_MAX) this.cache.clear();
    this.cache.set(teamId, { hosts, until: now + HOSTS_TTL_MS });
    return hosts;
  }

  /** Whether `hostname` is one of the team's hosts or under one. Address literals and single labels
   *  never are (domains are names). */
  async allows(teamId: number, hostname: string): Promise<boolean> {
    const host = normalizeHost(hostname);
    if (host === null) return false;
    const hosts = await this.of(teamId);
    return hostAndParents(host).some((h) => hosts.has(h));
  }
}
