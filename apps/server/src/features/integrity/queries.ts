import { DomainStatus } from '@tlprt/contract';
import type { Db } from '../../db/index.js';

/** origins.status of an active Origin (the origins feature's OriginStatus.Active). */
const ORIGIN_ACTIVE = 10;

/** The hosts a team's streams may come from, as stored: its usable domains (verified, promoted out of
 *  the drafts, active, not suspended) and the names of its active Origins. Always one team's. */
export async function teamHostRows(
  db: Db,
  teamId: number,
): Promise<{ domainHosts: string[]; originNames: string[] }> {
  const [domains, origins] = await Promise.all([
    db
      .selectFrom('domains')
      .select('host')
      .where('team_id', '=', teamId)
      .where('verification', '=', 1)
      .where('draft', '=', 1)
      .where('status', '=', DomainStatus.Active)
      .where('suspended', '=', 0)
      .execute(),
    db
      .selectFrom('origins')
      .select('name')
      .where('team_id', '=', teamId)
      .where('status', '=', ORIGIN_ACTIVE)
      .where('suspended', '=', 0)
      .execute(),
  ]);
  return { domainHosts: domains.map((d) => d.host), originNames: origins.map((o) => o.name) };
}
