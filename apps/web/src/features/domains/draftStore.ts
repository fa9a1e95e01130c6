import type { TDomain } from '@tlprt/contract';
import { useSyncExternalStore } from 'react';

/**
 * Which draft the Add-domain screen shows, shared by the header list and the page: a draft id, 'new'
 * (the "New domain" entry), or null = automatic (the last draft, or none).
 */
type DraftSelection = number | 'new' | null;

let selection: DraftSelection = null;
const listeners = new Set<() => void>();

export function selectDraft(next: DraftSelection): void {
  selection = next;
  for (const l of [...listeners]) l();
}

export function useDraftSelection(): DraftSelection {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => selection,
    () => selection,
  );
}

/** Spec §4: after delete or promote the current draft becomes the last remaining draft, or none. */
export function currentDraft(drafts: readonly TDomain[], sel: DraftSelection): TDomain | null {
  if (sel === 'new') return null;
  if (sel !== null) {
    const found = drafts.find((d) => d.id === sel);
    if (found) return found;
  }
  return drafts[drafts.length - 1] ?? null;
}

export const isVerifiedDraft = (d: TDomain) => d.verification.id === 1;
