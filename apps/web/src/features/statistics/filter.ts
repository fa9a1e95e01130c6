import { BREAKDOWN_DIMENSIONS, BREAKDOWN_VALUE_MAX, MSG_STATS, type TBreakdownBy } from '@tlprt/contract';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { breakdownName } from './breakdown';

/** One breakdown row the chart and the viewer experience are filtered to (the drill-down). */
export interface BreakdownFilter {
  by: TBreakdownBy;
  /** The row's name as the server answered it (an ISO code for a country, not its shown name). */
  value: string;
}

/** The URL's names: `/statistics?range=day&by=country&value=FR`, a link to share, kept on reload. */
export const FILTER_PARAMS = { by: 'by', value: 'value' } as const;

/** The filter of a URL's query; null unless both parts are there and valid. */
export function parseFilter(params: URLSearchParams): BreakdownFilter | null {
  const by = BREAKDOWN_DIMENSIONS.find((d) => d === params.get(FILTER_PARAMS.by));
  const value = params.get(FILTER_PARAMS.value);
  if (!by || value === null || value === '' || value.length > BREAKDOWN_VALUE_MAX) return null;
  return { by, value };
}

/** The query with the filter set (or both its parts removed for null); the rest of the view kept. */
export function withFilter(params: URLSearchParams, filter: BreakdownFilter | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (filter) {
    next.set(FILTER_PARAMS.by, filter.by);
    next.set(FILTER_PARAMS.value, filter.value);
  } else {
    next.delete(FILTER_PARAMS.by);
    next.delete(FILTER_PARAMS.value);
  }
  return next;
}

/** "Stream", "Country"...: what a row of that tab is (the contract's column name). */
export const filterNoun = (by: TBreakdownBy) => MSG_STATS.breakdownNames[by].label;

/** The chip's words: "Stream: cdn.example.com/live.m3u8", "Country: France (FR)". */
export const filterLabel = (f: BreakdownFilter) =>
  MSG_STATS.filterChip(filterNoun(f.by), breakdownName(f.by, f.value));

/** A text naming the filter for a key or the chart's `view` (which resets the zoom): '' without one. */
export const filterKey = (f: BreakdownFilter | null) => (f ? `${f.by}=${f.value}` : '');

/**
 * The drill-down in the URL. Setting or removing it is a history entry, as choosing a range is, so
 * the browser's back button returns to the view before.
 */
export function useBreakdownFilter() {
  const [params, setParams] = useSearchParams();
  const by = params.get(FILTER_PARAMS.by);
  const value = params.get(FILTER_PARAMS.value);
  // Rebuilt only when its parts change: the queries and effects keyed on it stay still.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `by` and `value` are what parseFilter reads
  const filter = useMemo(() => parseFilter(params), [by, value]);
  const set = useCallback(
    (next: BreakdownFilter | null) => setParams((prev) => withFilter(prev, next)),
    [setParams],
  );
  const clear = useCallback(() => set(null), [set]);
  return { filter, set, clear };
}
