import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { EventCode, MSG_STATS, STATS_RANGES, TeamVersion, type TStatsRange } from '@tlprt/contract';
import { useEffect, useMemo, useState } from 'react';
import { useLiveEvent } from '../../platform/live/useLiveEvent';
import { invalidateDomainsAndKeys, useDomains } from '../../platform/queries/domains';
import { useRoleRights } from '../../platform/session/policy';
import { useServerClockOffset } from '../../platform/session/queries';
import { useSession } from '../../platform/session/SessionProvider';
import { useViewUtcOffset } from '../../platform/session/viewUtcOffset';
import type { ChartInput } from './chartOption';
import { zoomIndexes } from './chartOption';
import { previousSummary, type SummaryDeltas, summaryDeltas } from './comparison';
import { SAMPLE_STEP, sampleStats, summarize, useStoredRange } from './data';
import type { ExperienceState } from './ExperiencePanel';
import { useBreakdownFilter } from './filter';
import { useFilteredStats } from './filtered';
import { activeTrafficKeys, groupDomains } from './lists';
import { CUSTOM_RANGES, chooseRange, dayAt, daysWindow, parsePeriod } from './period';
import { useStats, useStatsLists } from './queries';
import { useViewParams } from './view';

/** Wide screens show the list tabs in the header; narrow ones on the page. */
export const WIDE_QUERY = '(min-width: 48em)';

/** The range or the custom dates of the view (the URL's, else the stored range), on the server's clock. */
function useStatisticsPeriod(utcOffset: number) {
  const [storedRange, storeRange] = useStoredRange();
  const view = useViewParams();
  const range = view.range ?? storedRange;
  const clockOffset = useServerClockOffset();
  // The server's now, read again when the dates or the offset change (a day starts by its clock).
  // biome-ignore lint/correctness/useExhaustiveDependencies: now is read when what it is used for changes
  const nowS = useMemo(
    () => (Date.now() + (clockOffset ?? 0)) / 1000,
    [clockOffset, view.from, view.to, utcOffset],
  );
  // Custom dates of the URL (null when absent or not servable: the rolling range then).
  const period = useMemo(
    () => parsePeriod(view.from, view.to, utcOffset, nowS, view.compare),
    [view.from, view.to, utcOffset, nowS, view.compare],
  );
  /** The range the chart reads: the finest serving the dates, or the one chosen. */
  const chartRange = period?.range ?? range;
  const comparing = view.compare && chartRange !== 'live';
  const setRange = (r: TStatsRange) => {
    storeRange(r);
    view.set({ range: r, dates: null });
  };
  const today = dayAt(nowS, utcOffset);
  const checkDates = (from: string, to: string) => {
    const w = daysWindow(from, to, utcOffset);
    const longest = STATS_RANGES[CUSTOM_RANGES[CUSTOM_RANGES.length - 1] ?? 'month'].maxSpan;
    return w && chooseRange(w, nowS, false)
      ? null
      : MSG_STATS.customDatesTooLong(Math.floor(longest / 86_400));
  };
  return { view, range, clockOffset, nowS, period, chartRange, comparing, setRange, today, checkDates };
}

/**
 * What the statistics screen shows, read from the URL, the session and the server: the range or dates,
 * the list's keys, the chart's answer (or the filtered row's), the previous period's, and the summary of
 * the visible part.
 */
export function useStatisticsView() {
  const { user, currentTeam } = useSession();
  const rights = useRoleRights();
  const queryClient = useQueryClient();
  const teamId = currentTeam?.id ?? 0;
  const utcOffset = useViewUtcOffset();
  const nodr = currentTeam?.version === TeamVersion.Nodr;
  const domains = useDomains(teamId || null);
  // 60, 62, 90–92 already refresh through the live reactions; a deleted domain (61) does here.
  useLiveEvent(EventCode.DomainDeleted, () => void invalidateDomainsAndKeys(queryClient));
  const lists = useStatsLists();
  const { view, range, clockOffset, nowS, period, chartRange, comparing, setRange, today, checkDates } =
    useStatisticsPeriod(utcOffset);
  // The URL names the view shown (a link to share), filled in without a new history entry.
  const wantedList = lists.wanted;
  useEffect(() => {
    if (view.range === null || view.list === null) view.set({ range, list: wantedList }, true);
  }, [view.range, view.list, range, wantedList, view.set]);
  const wide = useMediaQuery(WIDE_QUERY, false, { getInitialValueInEffect: false });
  const groups = useMemo(() => groupDomains(domains.data), [domains.data]);
  const activeKeys = useMemo(() => activeTrafficKeys(groups), [groups]);
  const tab = lists.index > 0 ? lists.tabs[lists.index - 1] : undefined;
  const keys = lists.index === 0 ? activeKeys : (tab?.activeKeys ?? []);
  // The drill-down (a breakdown row clicked): its own series, in the same shape, instead of the chart's.
  const drill = useBreakdownFilter();
  const all = useStats(chartRange, keys, teamId, user.id, { custom: period }, !drill.filter);
  const allBefore = useStats(
    chartRange,
    keys,
    teamId,
    user.id,
    { custom: period, previous: true },
    comparing && !drill.filter,
  );
  const row = useFilteredStats(chartRange, keys, teamId, user.id, drill.filter, { custom: period });
  const rowBefore = useFilteredStats(
    chartRange,
    keys,
    teamId,
    user.id,
    drill.filter,
    { custom: period, previous: true },
    comparing,
  );
  const stats = drill.filter ? row : all;
  const before = drill.filter ? rowBefore : allBefore;
  const [zoom, setZoom] = useState<[number, number]>([0, 100]);

  const result = stats.data;
  const failed = result?.failed === true;
  // Sample points end at a fixed minute per load so the chart does not jump while it is shown.
  const sampleEnd = stats.dataUpdatedAt ? Math.floor(stats.dataUpdatedAt / 60_000) * 60 : 0;
  /** When the server answered, on its clock (ms): "Last updated" and the minute still being counted. */
  const readAtMs = stats.dataUpdatedAt + (clockOffset ?? 0);
  const input: ChartInput | null = useMemo(() => {
    if (!result) return null;
    if (result.failed) return { points: sampleStats(sampleEnd, nodr), step: SAMPLE_STEP, nodr, utcOffset };
    // The last point whose span had not ended when it was read is still being counted.
    const readAt = readAtMs / 1000;
    const last = result.points[result.points.length - 1];
    const open = last !== undefined && last.datePoint + result.step > readAt;
    const openFor = open ? Math.max(0, readAt - last.datePoint) : undefined;
    // The previous period is drawn once it answered (an empty one is nothing to draw: no line).
    const prev = comparing && before.data && !before.data.failed ? before.data : null;
    const shift = (period ?? { shift: STATS_RANGES[chartRange].window }).shift;
    const previous = prev ? { points: prev.points, shift } : undefined;
    return { points: result.points, step: result.step, nodr, utcOffset, openFor, previous };
  }, [result, sampleEnd, nodr, utcOffset, readAtMs, comparing, before.data, period, chartRange]);
  const experience = experienceOf(stats.isPending ? undefined : result);
  const summary = useMemo(() => {
    if (!input) return null;
    const [from, to] = zoomIndexes(input.points.length, zoom[0], zoom[1]);
    return summarize(input.points, from, to);
  }, [input, zoom]);
  /** The figures against the previous period's part matching the visible one (compare). */
  const deltas: SummaryDeltas | null = useMemo(() => {
    if (!input?.previous || !summary) return null;
    const [from, to] = zoomIndexes(input.points.length, zoom[0], zoom[1]);
    const fromT = input.points[from]?.datePoint ?? 0;
    const toT = input.points[to]?.datePoint ?? 0;
    return summaryDeltas(summary, previousSummary(input.previous, fromT, toT));
  }, [input, summary, zoom]);

  return {
    user,
    rights,
    teamId,
    utcOffset,
    domains,
    lists,
    /** The URL's view parameters, and how to change them (view.ts). */
    url: view,
    range,
    nowS,
    period,
    chartRange,
    comparing,
    setRange,
    today,
    checkDates,
    wide,
    groups,
    tab,
    keys,
    drill,
    stats,
    zoom,
    setZoom,
    result,
    failed,
    readAtMs,
    input,
    experience,
    summary,
    deltas,
  };
}

/** What the statistics screen shows: one object its parts read (`view.keys`, `view.input`...). */
export type StatisticsView = ReturnType<typeof useStatisticsView>;

/** The experience panel reads the answer's whole-window totals, never the sample the chart falls back
 *  to. */
function experienceOf(result: ReturnType<typeof useStats>['data']): ExperienceState {
  if (!result) return { kind: 'loading' };
  if (result.failed) return { kind: 'sample' };
  return result.totals ? { kind: 'ready', totals: result.totals } : { kind: 'missing' };
}
