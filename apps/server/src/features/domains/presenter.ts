import { ENUM_DICTIONARIES, type TDomain } from '@tlprt/contract';
import type { DomainRow } from '../../db/schema.js';
import { presentKey } from './keys/presenter.js';
import type { KeyView } from './keys/queries.js';

const STATUS_NAMES = new Map<number | string, string>(
  ENUM_DICTIONARIES.domain_statuses.map((s) => [s.id, s.name] as const),
);

const domainStatusRef = (id: number) => ({ id, name: STATUS_NAMES.get(id) ?? String(id) });

/** A domain as the screens show it, with its listed keys. */
export function presentDomain(d: DomainRow, keys: KeyView[]): TDomain {
  return {
    id: d.id,
    teamId: d.team_id,
    url: d.host,
    name: d.name,
    status: domainStatusRef(d.status),
    verification: { id: d.verification },
    verificationMethod: d.verification_method === null ? null : { id: d.verification_method },
    verificationHash: d.verification_hash,
    draft: { id: d.draft },
    suspended: d.suspended,
    plainHttp: d.plain_http === 1,
    createdAt: new Date(d.created_at).toISOString(),
    keys: keys.map(presentKey),
  };
}
