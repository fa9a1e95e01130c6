import type { TOriginVerification } from '@tlprt/contract';
import type { Db } from '../db/index.js';
import { hostAndParents, normalizeHost } from '../net/host.js';
import { USABLE_DOMAIN } from './usable-keys.js';

/**
 * The one rule of issue 36 "may the integrity service fetch from this Origin's host": the Origins
 * screen shows it and the integrity service's team hosts apply it, so what the customer sees is what is
 * fetched. An Origin is a name anybody can type, so its host is fetched from only when the team proved
 * it serves that host (the verification file) or it lies under one of the team's usable domains, whose
 * verification proved as much already.
 */

/** An Origin's name as a host: a bare host name, or the host of an http(s) URL typed as its name. */
export function originNameHost(name: string): string | null {
  const bare = normalizeHost(name);
  if (bare !== null) return bare;
  try {
    const u = new URL(name.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? normalizeHost(u.hostname) : null;
  } catch {
    return null;
  }
}

/** Whether `host` is one of `hosts` or under one. */
function isUnder(host: string, hosts: ReadonlySet<string>): boolean {
  return hostAndParents(host).some((h) => hosts.has(h));
}

/** The team's usable domains (verified, promoted out of the drafts, active, not suspended: the domain's
 *  part of the key rule, usable-keys.ts USABLE_DOMAIN), as stored. */
export async function usableDomainHosts(db: Db, teamId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('domains as d')
    .select('d.host')
    .where('d.team_id', '=', teamId)
    .where(USABLE_DOMAIN)
    .execute();
  return rows.map((d) => d.host);
}

/** An Origin's state under the rule; `domainHosts` are the team's usable domains. A verification stays
 *  valid whatever happens to the domains; one that rests on a domain lasts as long as the domain does. */
export function originVerification(
  o: { name: string; verified_at: number | null },
  domainHosts: ReadonlySet<string>,
): TOriginVerification {
  const host = originNameHost(o.name);
  if (host === null) return 'notHost';
  if (o.verified_at !== null) return 'verified';
  return isUnder(host, domainHosts) ? 'domain' : 'unverified';
}

/** Whether the integrity service may fetch from the Origin's host (its status is the caller's). */
export const isFetchableOrigin = (state: TOriginVerification): boolean =>
  state === 'verified' || state === 'domain';
