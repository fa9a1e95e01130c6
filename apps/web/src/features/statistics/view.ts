import type { TStatsRange } from '@tlprt/contract';
import { useSearchParams } from 'react-router';
import { RANGE_ORDER } from './data';

/** The view of the statistics screen in its URL, `/statistics?range=week&list=2` (list 0 = Active
 *  traffic, i = the i-th saved list), with custom dates `from=2026-11-24&to=2026-11-30` (whole days in
 *  the view's offset, `to` included) and `compare=1` (the previous period beside): a link opens that
 *  view, and each choice is a history entry, so the browser's back button walks the views. Without
 *  them the stored choices apply. Parameters of other parts of the screen are kept as they are. */
export const parseRange = (raw: string | null): TStatsRange | null =>
  RANGE_ORDER.find((r) => r === raw) ?? null;
export const parseList = (raw: string | null): number | null =>
  raw !== null && /^\d{1,2}$/.test(raw) ? Number(raw) : null;
/** A day as the URL holds it (YYYY-MM-DD); whether it is a real one is period.ts's to say. */
export const parseDay = (raw: string | null): string | null =>
  raw !== null && /^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : null;

export interface ViewPatch {
  range?: TStatsRange;
  list?: number;
  /** Custom dates; null removes them (the rolling range again). */
  dates?: { from: string; to: string } | null;
  compare?: boolean;
}

/** The URL's parameters with `patch` applied; the others kept. */
export function patchParams(prev: URLSearchParams, patch: ViewPatch): URLSearchParams {
  const next = new URLSearchParams(prev);
  if (patch.range !== undefined) next.set('range', patch.range);
  if (patch.list !== undefined) next.set('list', String(patch.list));
  if (patch.dates === null) {
    next.delete('from');
    next.delete('to');
  } else if (patch.dates !== undefined) {
    next.set('from', patch.dates.from);
    next.set('to', patch.dates.to);
  }
  if (patch.compare === true) next.set('compare', '1');
  else if (patch.compare === false) next.delete('compare');
  return next;
}

export function useViewParams() {
  const [params, setParams] = useSearchParams();
  return {
    range: parseRange(params.get('range')),
    list: parseList(params.get('list')),
    from: parseDay(params.get('from')),
    to: parseDay(params.get('to')),
    compare: params.get('compare') === '1',
    /** A new history entry with these parts changed (or the current one rewritten with `replace`). */
    set: (patch: ViewPatch, replace = false) => setParams((prev) => patchParams(prev, patch), { replace }),
  };
}
