import { OriginStatus, type TOrigin } from '@tlprt/contract';
import { originNameHost, originVerification } from '../../access/origin-hosts.js';
import type { OriginRow } from '../../db/schema.js';

const STATUS_NAMES: Record<number, string> = {
  [OriginStatus.Active]: 'Active',
  [OriginStatus.Inactive]: 'Inactive',
};

/** What presenting an origin needs beside its row: the team's usable domains and the verifier's file. */
export interface OriginView {
  domainHosts: ReadonlySet<string>;
  /** The verification file of `host` for `hash` (the HTML-file method of domain verification). */
  fileOf(host: string, hash: string): { url: string; fileName: string; content: string };
}

export function presentOrigin(o: OriginRow, view: OriginView): TOrigin {
  const host = originNameHost(o.name);
  const verification = originVerification(o, view.domainHosts);
  const file = host !== null && verification === 'unverified' && o.verification_hash !== '';
  const html = file ? view.fileOf(host, o.verification_hash) : null;
  return {
    id: o.id,
    url: o.url,
    name: o.name,
    status: { id: o.status, name: STATUS_NAMES[o.status] ?? String(o.status) },
    suspended: o.suspended,
    createdAt: new Date(o.created_at).toISOString(),
    host,
    verification,
    verifiedAt: o.verified_at === null ? null : new Date(o.verified_at).toISOString(),
    verificationFile: html && { url: html.url, path: `/${html.fileName}`, content: html.content },
  };
}
