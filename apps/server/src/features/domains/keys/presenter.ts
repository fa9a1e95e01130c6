import { DomainStatus, KeyStatus, type TKey } from '@tlprt/contract';
import type { KeyView } from './queries.js';

/** Spec §4: a key of an inactive domain is shown as inactive (20), whatever its own status. */
function shownKeyStatus(k: Pick<KeyView, 'status' | 'domain_status'>): number {
  return k.domain_status === DomainStatus.Inactive && k.status === KeyStatus.Active
    ? KeyStatus.Inactive
    : k.status;
}

export function presentKey(k: KeyView): TKey {
  return {
    id: k.id,
    teamId: k.team_id,
    domainId: k.domain_id,
    keyHash: k.key_hash,
    name: k.name,
    createdAt: new Date(k.created_at).toISOString(),
    status: shownKeyStatus(k),
    suspended: k.suspended,
  };
}
