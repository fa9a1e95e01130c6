import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_TAB_NAME,
  LIMITS,
  STATS_RANGES,
  TIMINGS,
  type TStatsPoint,
  type TStatsRange,
  type TStatsTab,
} from '@tlprt/contract';
import { useCallback, useSyncExternalStore } from 'react';
import { useServerClockOffset } from '../session/queries';
import { useSession } from '../session/SessionProvider';
import { statsApi } from './api';
import { buildStatsQuery } from './data';

const statsKeys = {
  all: ['statistics'] as const,
  settings: (userId: number, teamId: number) => [...statsKeys.all, 'settings', userId, teamId] as const,
  data: (teamId: number, range: TStatsRange, keys: readonly string[]) =>
    [...statsKeys.all, 'data', teamId, range, [...keys].sort().join(',')] as const,
};

/** Result of one statistics load: `failed` = error or empty response (spec §4: the sample is shown). */
type StatsResult =
  | { failed: false; points: TStatsPoint[]; step: number }
  | { failed: true; reason: 'error' | 'empty' };

const SAVE_DEBOUNCE_MS = 500;

/** The chart data of the selected keys for the range's window ending now by the server's clock (spec
 *  §7); Live polls every 3 s. */
export function useStats(range: TStatsRange, keys: readonly string[], teamId: number, userId: number) {
  const clockOffset = useServerClockOffset();
  return useQuery({
    queryKey: statsKeys.data(teamId, range, keys),
    queryFn: async ({ signal }): Promise<StatsResult> => {
      const body = buildStatsQuery(range, (Date.now() + (clockOffset ?? 0)) / 1000, keys, teamId, userId);
      try {
        const r = await statsApi.query(range, body, signal);
        if (r.data.length === 0) return { failed: true, reason: 'empty' };
        return { failed: false, points: r.data, step: r.step || STATS_RANGES[range].step };
      } catch (e) {
        if (signal.aborted) throw e;
        return { failed: true, reason: 'error' };
      }
    },
    enabled: keys.length > 0 && teamId > 0 && clockOffset !== undefined,
    staleTime: 0,
    refetchInterval: range === 'live' ? TIMINGS.livePollMs : false,
    refetchIntervalInBackground: false,
  });
}

/* ---------- the selected list (shared by the header tab bar and the page) ---------- */

let selected = 0;
const listeners = new Set<() => void>();
export function selectList(index: number): void {
  selected = index;
  for (const l of [...listeners]) l();
}
function useSelectedIndex(): number {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => selected,
    () => selected,
  );
}

/* ---------- saving (debounced PUT of the user's lists) ---------- */

const timers = new Map<string, ReturnType<typeof setTimeout>>();
function scheduleSave(userId: number, teamId: number, tabs: TStatsTab[]): void {
  const id = `${userId}/${teamId}`;
  const t = timers.get(id);
  if (t) clearTimeout(t);
  timers.set(
    id,
    setTimeout(() => {
      timers.delete(id);
      statsApi.settingsPut(userId, teamId, tabs).catch(() => {
        /* kept locally; the next change retries */
      });
    }, SAVE_DEBOUNCE_MS),
  );
}
/** Tests: drop pending saves. */
export function cancelPendingSaves(): void {
  for (const t of timers.values()) clearTimeout(t);
  timers.clear();
}

/**
 * The statistics lists (spec §2): index 0 is the locked "Active traffic" list (not saved; its keys come
 * from the domains), indexes 1.. are the user's saved lists (settings get/put, at most 8 in all).
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
  const tabs = query.data ?? [];
  const index = Math.min(useSelectedIndex(), tabs.length);

  const update = useCallback(
    (next: TStatsTab[]) => {
      queryClient.setQueryData(key, next);
      scheduleSave(user.id, teamId, next);
    },
    [queryClient, key, user.id, teamId],
  );
  const current = (): TStatsTab[] => queryClient.getQueryData<TStatsTab[]>(key) ?? [];

  return {
    loaded: query.isSuccess,
    tabs,
    /** 0 = Active traffic; i = tabs[i - 1]. */
    index,
    canAdd: tabs.length + 1 < LIMITS.statisticsTabs,
    select: selectList,
    add: () => {
      const list = current();
      if (list.length + 1 >= LIMITS.statisticsTabs) return;
      update([...list, { nameTab: DEFAULT_TAB_NAME, activeKeys: [] }]);
      selectList(list.length + 1);
    },
    rename: (i: number, name: string) =>
      update(current().map((t, j) => (j === i - 1 ? { ...t, nameTab: name.slice(0, 30) } : t))),
    setKeys: (i: number, keys: string[]) =>
      update(current().map((t, j) => (j === i - 1 ? { ...t, activeKeys: keys } : t))),
    remove: (i: number) => {
      if (i < 1) return;
      update(current().filter((_, j) => j !== i - 1));
      selectList(Math.max(0, i - 1));
    },
  };
}
