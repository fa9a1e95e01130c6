import { TEAM_SEARCH } from '@tlprt/contract';
import { type RefObject, useCallback, useEffect, useRef } from 'react';

const reached = (el: HTMLElement) =>
  el.scrollHeight > 0 && (el.scrollTop + el.clientHeight) / el.scrollHeight >= TEAM_SEARCH.scrollThreshold;

/**
 * Spec §9: the next page loads when the list is scrolled to 99% of its height and is still there
 * 100 ms later. Also loads on when the list does not fill its box (nothing to scroll yet).
 */
export function useScrollToEnd(
  ref: RefObject<HTMLElement | null>,
  loadMore: () => void,
  canLoad: boolean,
  contentVersion: unknown,
) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onScroll = useCallback(() => {
    const el = ref.current;
    clearTimeout(timer.current);
    if (!el || !canLoad || !reached(el)) return;
    timer.current = setTimeout(() => {
      if (ref.current && reached(ref.current)) loadMore();
    }, TEAM_SEARCH.scrollDelayMs);
  }, [ref, loadMore, canLoad]);

  useEffect(() => () => clearTimeout(timer.current), []);

  // Re-checked whenever the content changes or loading becomes possible again: a list scrolled to its
  // end while a page (or a new search) was loading would otherwise wait for another scroll.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-checked whenever the content changes
  useEffect(() => {
    const el = ref.current;
    if (!el || !canLoad || el.clientHeight === 0) return;
    if (el.scrollHeight <= el.clientHeight + 1) loadMore();
    else onScroll();
  }, [contentVersion, canLoad]);

  return onScroll;
}
