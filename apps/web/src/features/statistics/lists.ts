import {
  DomainStatus,
  KeyStatus,
  MSG_STATS,
  type TDomain,
  type TDomainListResponse,
  type TKey,
} from '@tlprt/contract';

export interface DomainGroups {
  active: TDomain[];
  inactive: TDomain[];
  deleted: TDomain[];
}

const isVerified = (d: TDomain) => d.verification.id === 1 && d.draft.id === 1;

/** The verified domains of the list response (My domains) in the selector's Active and Inactive groups;
 *  Deleted holds the deleted keys whose statistics are still kept, under their domains. */
export function groupDomains(list: TDomainListResponse | undefined): DomainGroups {
  const seen = new Set<number>();
  const all = [...(list?.verified ?? []), ...(list?.data ?? [])].filter((d) => {
    if (seen.has(d.id) || !isVerified(d)) return false;
    seen.add(d.id);
    return true;
  });
  return {
    active: all.filter((d) => d.status.id === DomainStatus.Active && d.suspended === 0),
    inactive: all.filter((d) => !(d.status.id === DomainStatus.Active && d.suspended === 0)),
    deleted: list?.deleted ?? [],
  };
}

export const hasVerifiedDomain = (g: DomainGroups) =>
  g.active.length + g.inactive.length + g.deleted.length > 0;

/** Keys of the locked "Active traffic" list: the active keys of the verified active domains. */
export function activeTrafficKeys(g: DomainGroups): string[] {
  return g.active
    .flatMap((d) => d.keys.filter((k) => k.status === KeyStatus.Active && k.suspended === 0))
    .map((k) => k.keyHash);
}

/** Key label: its name, or its hash when unnamed. */
export const keyLabel = (k: TKey) => (k.name.trim() ? k.name : k.keyHash);

/** Inactive keys are coloured by status (spec §2): 20 grey, 40 red. */
export function keyColor(k: TKey): string | undefined {
  if (k.status === KeyStatus.Inactive) return 'dimmed';
  if (k.status === KeyStatus.Restricted) return 'red.7';
  return undefined;
}

export const tabLabel = (name: string) => (name.trim() ? name : MSG_STATS.noName);
