import { useDebouncedCallback, useSessionStorage } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  LIMITS,
  STATS_RANGES,
  STORAGE_KEYS,
  type TBreakdownBy,
  type TBreakdownQuery,
  type TBreakdownResponse,
  TIMINGS,
  type TStatsPoint,
  type TStatsRange,
  type TStatsResponse,
  type TStatsTab,
} from '@tlprt/contract';
import { createContext, useContext, useEffect } from 'react';
import { useServerClockOffset } from '../../platform/session/queries';
import { useSession } from '../../platform/session/SessionProvider';
import { statsApi } from './api';
import { buildStatsQuery } from './data';
import { nextListName } from './lists';
import { previousWindow, rollingWindow, type StatsWindow } from './period';
import { useViewParams } from './view';

const statsKeys = {
  all: ['statistics'] as const,
  settings: (userId: number, teamId: number) => [...statsKeys.all, 'settings', userId, teamId] as const,
  data: (teamId: number, range: TStatsRange, keys: readonly string[], period: string) =>
    [...statsKeys.all, 'data', teamId, range, [...keys].sort().join(','), period] as const,
  breakdown: (
    teamId: number,
    range: TStatsRange,
    keys: readonly string[],
    by: TBreakdownBy,
    period: string,
  ) => [...statsKeys.all, 'breakdown', teamId, range, [...keys].sort().join(','), by, period] as const,
};

/** Result of one statistics load: `failed` = error or empty response (spec §4: the sample is shown). */
type StatsResult =
  | { failed: false; points: TStatsPoint[]; step: number; totals: TStatsResponse['totals'] }
  | { failed: true; reason: 'error' | 'empty' };

const SAVE_DEBOUNCE_MS = 500;

/** Which window a query reads: the custom one of the screen (null: the range's rolling window ending
 *  now by the server's clock), or the period just before it (compare). */
export interface PeriodChoice {
  custom: StatsWindow | null;
  previous?: boolean;
}
const periodKey = ({ custom, previous }: PeriodChoice) =>
  `${custom ? `${custom.start}-${custom.end}` : 'rolling'}${previous ? ':previous' : ''}`;
/** The window of `choice` at `nowS`. */
function windowOf(range: TStatsRange, choice: PeriodChoice, nowS: number): StatsWindow {
  const w = choice.custom ?? rollingWindow(range, nowS);
  return choice.previous ? previousWindow(w) : w;
}
/** The request body of a chart or breakdown for `choice`. */
function periodQuery(
  range: TStatsRange,
  choice: PeriodChoice,
  nowS: number,
  keys: readonly string[],
  teamId: number,
  userId: number,
) {
  const w = windowOf(range, choice, nowS);
  return {
    ...buildStatsQuery(range, nowS, keys, teamId, userId),
    startTimestamp: w.start,
    endTimestamp: w.end,
  };
}

/** The custom window of the screen, for the panels under the chart (the breakdown follows it). */
export const StatsPeriodContext = createContext<StatsWindow | null>(null);

/** The chart data of the selected keys for the range's window ending now by the server's clock (spec
 *  §7), or the custom window, or the period before either (`previous`); Live polls every 3 s. */
export function useStats(
  range: TStatsRange,
  keys: readonly string[],
  teamId: number,
  userId: number,
  choice: PeriodChoice = { custom: null },
  enabled = true,
) {
  const clockOffset = useServerClockOffset();
  const rolling = choice.custom === null && !choice.previous;
  return useQuery({
    queryKey: statsKeys.data(teamId, range, keys, periodKey(choice)),
    queryFn: async ({ signal }): Promise<StatsResult> => {
      const nowS = (Date.now() + (clockOffset ?? 0)) / 1000;
      const body = {
        ...periodQuery(range, choice, nowS, keys, teamId, userId),
        // The chart draws a few series a point; the experience panel reads the window's totals.
        points: 'drawn' as const,
      };
      try {
        const r = await statsApi.query(range, body, signal);
        if (r.data.length === 0) return { failed: true, reason: 'empty' };
        return { failed: false, points: r.data, step: r.step || STATS_RANGES[range].step, totals: r.totals };
      } catch (e) {
        if (signal.aborted) throw e;
        return { failed: true, reason: 'error' };
      }
    },
    enabled: enabled && keys.length > 0 && teamId > 0 && clockOffset !== undefined,
    staleTime: 0,
    // Only the rolling Live window moves: a past period is not polled.
    refetchInterval: range === 'live' && rolling ? TIMINGS.livePollMs : false,
    refetchIntervalInBackground: false,
  });
}

/** Live breakdown refreshes: its rows are whole hours, so the chart's 3 s tick would only repeat the
 *  grouped query for changes the table barely shows. */
export const BREAKDOWN_LIVE_POLL_MS = 10 * TIMINGS.livePollMs;

/** A breakdown with the body it was asked with: the CSV download asks the same window again. */
export interface BreakdownResult {
  answer: TBreakdownResponse;
  body: TBreakdownQuery;
}

/** The range's traffic of the selected keys by `by`, for the chart's window (server clock, or the
 *  screen's custom window: StatsPeriodContext); refreshed as the chart is, in Live less often. Errors are the table's to show (no popup but 401/403). */
export function useBreakdown(
  range: TStatsRange,
  keys: readonly string[],
  by: TBreakdownBy,
  teamId: number,
  userId: number,
) {
  const clockOffset = useServerClockOffset();
  const choice = { custom: useContext(StatsPeriodContext) };
  return useQuery({
    queryKey: statsKeys.breakdown(teamId, range, keys, by, periodKey(choice)),
    queryFn: async ({ signal }): Promise<BreakdownResult> => {
      const now = (Date.now() + (clockOffset ?? 0)) / 1000;
      const body: TBreakdownQuery = { ...periodQuery(range, choice, now, keys, teamId, userId), range, by };
      return { answer: await statsApi.breakdown(body, signal), body };
    },
    enabled: keys.length > 0 && teamId > 0 && clockOffset !== undefined,
    staleTime: 0,
    refetchInterval: range === 'live' ? BREAKDOWN_LIVE_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}

const SELECTED_LIST_KEY = STORAGE_KEYS.statsList;

/**
 * The statistics lists (spec §2): index 0 is the locked "Active traffic" list (not saved; its keys come
 * from the domains), indexes 1.. are the user's saved lists (settings get/put, at most 8 in all).
 * The header tab bar and the page share the selected list per browser tab (session storage). Changes
 * show at once and are saved 500 ms after the last one (a rename sends one PUT, not one per letter).
 */
export function useStatsLists() {
  const { user, currentTeam } = useSession();
  const queryClient = useQueryClient();
  const teamId = currentTeam?.id ?? 0;
  const key = statsKeys.settings(user.id, teamId);
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }): Promise<TStatsTab[]> => {
      try {
        const r = await statsApi.settingsGet(user.id, teamId, signal);
        return r.data.tabs.slice(0, LIMITS.statisticsTabs - 1);
      } catch (e) {
        if (signal.aborted) throw e;
        return [];
      }
    },
    enabled: teamId > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [selected, select] = useSessionStorage({
    key: SELECTED_LIST_KEY,
    defaultValue: 0,
    getInitialValueInEffect: false,
  });
  const view = useViewParams();
  const tabs = query.data ?? [];
  // The list of the URL (a shared link, the back button) before the one last chosen in this tab.
  const wanted = view.list ?? selected;
  const index = Math.min(wanted, tabs.length);
  const choose = (i: number) => {
    select(i);
    view.set({ list: i });
  };

  // A failed save keeps the lists shown; the next change sends them all again.
  const save = useMutation({
    mutationFn: (v: { userId: number; teamId: number; tabs: TStatsTab[] }) =>
      statsApi.settingsPut(v.userId, v.teamId, v.tabs),
  });
  // The lists of that user and team as they are when the delay ends: the latest change wins.
  const scheduleSave = useDebouncedCallback(
    (userId: number, team: number) => {
      const latest = queryClient.getQueryData<TStatsTab[]>(statsKeys.settings(userId, team));
      if (latest) save.mutate({ userId, teamId: team, tabs: latest });
    },
    { delay: SAVE_DEBOUNCE_MS, flushOnUnmount: true },
  );
  // Another team made current: what is pending belongs to the one before and is saved now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the flush is due when the user or team changes
  useEffect(() => () => scheduleSave.flush(), [user.id, teamId, scheduleSave]);

  const update = (next: TStatsTab[]) => {
    queryClient.setQueryData(key, next);
    scheduleSave(user.id, teamId);
  };
  const current = (): TStatsTab[] => queryClient.getQueryData<TStatsTab[]>(key) ?? [];

  return {
    loaded: query.isSuccess,
    tabs,
    /** 0 = Active traffic; i = tabs[i - 1]. */
    index,
    /** The list asked for (URL or stored), before it is clamped to the lists loaded. */
    wanted,
    canAdd: tabs.length + 1 < LIMITS.statisticsTabs,
    select: choose,
    add: () => {
      const list = current();
      if (list.length + 1 >= LIMITS.statisticsTabs) return;
      update([...list, { nameTab: nextListName(list.map((t) => t.nameTab)), activeKeys: [] }]);
      choose(list.length + 1);
    },
    rename: (i: number, name: string) =>
      update(current().map((t, j) => (j === i - 1 ? { ...t, nameTab: name.slice(0, 30) } : t))),
    setKeys: (i: number, keys: string[]) =>
      update(current().map((t, j) => (j === i - 1 ? { ...t, activeKeys: keys } : t))),
    remove: (i: number) => {
      if (i < 1) return;
      update(current().filter((_, j) => j !== i - 1));
      choose(Math.max(0, i - 1));
    },
  };
}
