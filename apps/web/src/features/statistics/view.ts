import type { TStatsRange } from '@tlprt/contract';
import { useSearchParams } from 'react-router';
import { RANGE_ORDER } from './data';

/** The view of the statistics screen in its URL, `/statistics?range=week&list=2` (list 0 = Active
 *  traffic, i = the i-th saved list): a link opens that view, and each choice is a history entry, so
 *  the browser's back button walks the views. Without them the stored choices apply. */
export const parseRange = (raw: string | null): TStatsRange | null =>
  RANGE_ORDER.find((r) => r === raw) ?? null;
export const parseList = (raw: string | null): number | null =>
  raw !== null && /^\d{1,2}$/.test(raw) ? Number(raw) : null;

export function useViewParams() {
  const [params, setParams] = useSearchParams();
  return {
    range: parseRange(params.get('range')),
    list: parseList(params.get('list')),
    /** A new history entry with these parts changed (or the current one rewritten with `replace`). */
    set: (patch: { range?: TStatsRange; list?: number }, replace = false) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (patch.range !== undefined) next.set('range', patch.range);
          if (patch.list !== undefined) next.set('list', String(patch.list));
          return next;
        },
        { replace },
      ),
  };
}
