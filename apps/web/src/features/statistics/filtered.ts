import { useQuery } from '@tanstack/react-query';
import {
  ENDPOINTS,
  type TBreakdownSeriesQuery,
  type TStatsPoint,
  type TStatsRange,
  type TStatsResponse,
} from '@tlprt/contract';
import { request } from '../../platform/api/client';
import { ApiError } from '../../platform/api/errors';
import { reportApiError } from '../../platform/api/popups';
import { useServerClockOffset } from '../../platform/session/queries';
import { buildStatsQuery } from './data';
import { type BreakdownFilter, filterKey } from './filter';
import { previousWindow, rollingWindow } from './period';
import { BREAKDOWN_LIVE_POLL_MS, type PeriodChoice } from './queries';

/** As useStats answers (queries.ts): the screen takes either without a change. */
export type FilteredStatsResult =
  | { failed: false; points: TStatsPoint[]; step: number; totals: TStatsResponse['totals'] }
  | { failed: true; reason: 'error' | 'empty' };

/**
 * The chart's points of one breakdown row (the drill-down), per hour over the breakdown's window, in
 * the shape of useStats, so the chart, the summary figures and the viewer experience take them as they
 * are. `choice` and `enabled` as useStats takes them (the screen's custom window, the previous period
 * when comparing). Asked only while `filter` is set: the screen calls both hooks and shows the one that
 * applies. Like useStats, a failure is answered as `failed` (the screen's error), 401 and 403 popups.
 */
export function useFilteredStats(
  range: TStatsRange,
  keys: readonly string[],
  teamId: number,
  userId: number,
  filter: BreakdownFilter | null,
  choice: PeriodChoice = { custom: null },
  enabled = true,
) {
  const clockOffset = useServerClockOffset();
  return useQuery({
    queryKey: [
      'statistics',
      'filtered',
      teamId,
      range,
      [...keys].sort().join(','),
      filterKey(filter),
      choice.custom ? `${choice.custom.start}-${choice.custom.end}` : 'rolling',
      choice.previous ? 'previous' : '',
    ],
    queryFn: async ({ signal }): Promise<FilteredStatsResult> => {
      if (!filter) return { failed: true, reason: 'empty' };
      const now = (Date.now() + (clockOffset ?? 0)) / 1000;
      const shown = choice.custom ?? rollingWindow(range, now);
      const window = choice.previous ? previousWindow(shown) : shown;
      const body: TBreakdownSeriesQuery = {
        ...buildStatsQuery(range, now, keys, teamId, userId),
        startTimestamp: window.start,
        endTimestamp: window.end,
        range,
        by: filter.by,
        value: filter.value,
      };
      try {
        const r = await request(ENDPOINTS.statistics.breakdownSeries, { body, popups: false, signal });
        if (r.data.length === 0) return { failed: true, reason: 'empty' };
        return { failed: false, points: r.data, step: r.step, totals: r.totals };
      } catch (e) {
        if (signal.aborted) throw e;
        if (e instanceof ApiError && (e.status === 401 || e.status === 403)) reportApiError(e, true);
        return { failed: true, reason: 'error' };
      }
    },
    enabled: enabled && filter !== null && keys.length > 0 && teamId > 0 && clockOffset !== undefined,
    staleTime: 0,
    // Whole hours: Live's 3 s tick would repeat the same points; refreshed as the breakdown is.
    refetchInterval: range === 'live' && !choice.custom && !choice.previous ? BREAKDOWN_LIVE_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}
