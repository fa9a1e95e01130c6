import type { TOrigin } from '@tlprt/contract';
import type { OriginRow } from '../../db/schema.js';

const STATUS_NAMES: Record<number, string> = { 10: 'Active', 20: 'Inactive' };

export function presentOrigin(o: OriginRow): TOrigin {
  return {
    id: o.id,
    url: o.url,
    name: o.name,
    status: { id: o.status, name: STATUS_NAMES[o.status] ?? String(o.status) },
    suspended: o.suspended,
    createdAt: new Date(o.created_at).toISOString(),
  };
}
