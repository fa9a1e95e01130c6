import {
  allDomainsGroup,
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
 *  Deleted holds the deleted keys whose statistics are still kept, under their domains. The keys for all
 *  domains are one more row, first of Active (and of Deleted for deleted ones): they carry traffic like
 *  any key, so they are in Active traffic and can be ticked in a list. */
export function groupDomains(list: TDomainListResponse | undefined): DomainGroups {
  const seen = new Set<number>();
  const all = [...(list?.verified ?? []), ...(list?.data ?? [])].filter((d) => {
    if (seen.has(d.id) || !isVerified(d)) return false;
    seen.add(d.id);
    return true;
  });
  const teamWide = list?.allDomains ?? [];
  const deletedTeamWide = list?.deletedAllDomains ?? [];
  return {
    active: [
      ...(teamWide.length > 0 ? [allDomainsGroup(teamWide)] : []),
      ...all.filter((d) => d.status.id === DomainStatus.Active && d.suspended === 0),
    ],
    inactive: all.filter((d) => !(d.status.id === DomainStatus.Active && d.suspended === 0)),
    deleted: [
      ...(deletedTeamWide.length > 0 ? [allDomainsGroup(deletedTeamWide)] : []),
      ...(list?.deleted ?? []),
    ],
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

/** A key hash's short form: its first 8 characters and an ellipsis ("3f9a1c07…"). */
export const shortHash = (hash: string) => (hash.length > 10 ? `${hash.slice(0, 8)}…` : hash);
/** Key label: its name, or the short form of its hash when unnamed (the full hash in its title). */
export const keyLabel = (k: TKey) => (k.name.trim() ? k.name : shortHash(k.keyHash));
/** The whole of a key's name or hash, for its tooltip and accessible name. */
export const keyTitle = (k: TKey) => (k.name.trim() ? k.name : k.keyHash);

/** A new list's name: the spec's "New list" (§2), then "New list 2", "New list 3", … while taken, so
 *  each tab can still be told apart. */
export function nextListName(names: readonly string[]): string {
  const taken = new Set(names.map((n) => n.trim()));
  if (!taken.has(MSG_STATS.newList)) return MSG_STATS.newList;
  let i = 2;
  while (taken.has(`${MSG_STATS.newList} ${i}`)) i += 1;
  return `${MSG_STATS.newList} ${i}`;
}

/** Inactive keys are coloured by status (spec §2): 20 grey, 40 red. */
export function keyColor(k: TKey): string | undefined {
  if (k.status === KeyStatus.Inactive) return 'dimmed';
  if (k.status === KeyStatus.Restricted) return 'red';
  return undefined;
}

export const tabLabel = (name: string) => (name.trim() ? name : MSG_STATS.noName);
