import { useSessionStorage } from '@mantine/hooks';
import { STORAGE_KEYS, type TDomain } from '@tlprt/contract';

/**
 * Which draft the Add-domain screen shows: a draft id, 'new' (the "New domain" entry), or null =
 * automatic (the last draft, or none).
 */
type DraftSelection = number | 'new' | null;

/** The selection shared by the header list and the page; per browser tab (session storage), so another
 *  tab keeps its own. */
export function useDraftSelection(): [DraftSelection, (next: DraftSelection) => void] {
  const [selection, setSelection] = useSessionStorage<DraftSelection>({
    key: STORAGE_KEYS.draftSelection,
    defaultValue: null,
    getInitialValueInEffect: false,
  });
  return [selection, setSelection];
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
