import { OriginStatus } from '@tlprt/contract';
import { isFetchableOrigin, originVerification, usableDomainHosts } from '../../access/origin-hosts.js';
import type { Db } from '../../db/index.js';

/** The hosts a team's streams may come from, as stored: its usable domains (verified, promoted out of
 *  the drafts, active, not suspended) and the names of its active Origins that may be fetched from
 *  (verified, or on a host under one of those domains: access/origin-hosts.ts). Always one team's. */
export async function teamHostRows(
  db: Db,
  teamId: number,
): Promise<{ domainHosts: string[]; originNames: string[] }> {
  const [domainHosts, origins] = await Promise.all([
    usableDomainHosts(db, teamId),
    db
      .selectFrom('origins')
      .select(['name', 'verified_at'])
      .where('team_id', '=', teamId)
      .where('status', '=', OriginStatus.Active)
      .where('suspended', '=', 0)
      .execute(),
  ]);
  const domains = new Set(domainHosts);
  const fetchable = origins.filter((o) => isFetchableOrigin(originVerification(o, domains)));
  return { domainHosts, originNames: fetchable.map((o) => o.name) };
}
