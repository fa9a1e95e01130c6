import { MSG_ALERTS, MSG_DOMAINS, type TDomainListResponse, type TKey } from '@tlprt/contract';
import { useMemo } from 'react';
import { useDomains } from '../../platform/queries/domains';

export interface KeyGroup {
  group: string;
  items: { value: string; label: string }[];
}

/** The team's live keys by domain (the keys of every domain last, as "All domains"): the form's choices
 *  and the names the list shows for the hashes a rule stores. */
export function keyGroups(answer: TDomainListResponse | undefined): KeyGroup[] {
  if (!answer) return [];
  const item = (k: TKey) => ({ value: k.keyHash, label: k.name || k.keyHash });
  const groups = answer.data
    .filter((d) => d.keys.length > 0)
    .map((d) => ({ group: d.name || d.url, items: d.keys.map(item) }));
  if (answer.allDomains.length > 0)
    groups.push({ group: MSG_DOMAINS.allDomains, items: answer.allDomains.map(item) });
  return groups;
}

export function useTeamKeys(teamId: number) {
  const domains = useDomains(teamId);
  return useMemo(() => {
    const groups = keyGroups(domains.data);
    const names = new Map(groups.flatMap((g) => g.items.map((i) => [i.value, i.label] as const)));
    // A deleted key's hash stays in a rule until it is edited: shown by the start of its hash.
    const nameOf = (hash: string) => names.get(hash) ?? MSG_ALERTS.unknownKeyName(hash);
    return { groups, nameOf };
  }, [domains.data]);
}
