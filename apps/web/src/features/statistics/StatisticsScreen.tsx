import {
  Alert,
  Anchor,
  Box,
  Button,
  Card,
  Grid,
  Group,
  Loader,
  SegmentedControl,
  Skeleton,
  Stack,
  Switch,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import {
  EventCode,
  MSG_STATS,
  PLAYER_PATHS,
  STATS_RANGES,
  TeamVersion,
  TIMINGS,
  type TStatsRange,
  WEB_PATHS,
} from '@tlprt/contract';
import { useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { formatTime, utcLabel } from '../../platform/dates';
import { useLiveEvent } from '../../platform/live/useLiveEvent';
import { invalidateDomainsAndKeys, useDomains } from '../../platform/queries/domains';
import { useRoleRights } from '../../platform/session/policy';
import { useServerClockOffset } from '../../platform/session/queries';
import { useSession } from '../../platform/session/SessionProvider';
import { useViewUtcOffset } from '../../platform/session/viewUtcOffset';
import { IconAlert, IconChart, IconKey } from '../../platform/ui/icons';
import { EmptyState, PageBody } from '../../platform/ui/Page';
import { formatBytes, formatCount, formatPercent, formatSignedPercent } from '../../platform/units';
import { BreakdownPanel } from './BreakdownPanel';
import type { ChartInput } from './chartOption';
import { zoomIndexes } from './chartOption';
import { type Delta, previousSummary, type SummaryDeltas, summaryDeltas } from './comparison';
import { DateRangePicker } from './DateRangePicker';
import { RANGE_LABEL, RANGE_ORDER, SAMPLE_STEP, sampleStats, summarize, useStoredRange } from './data';
import { ExperiencePanel, type ExperienceState } from './ExperiencePanel';
import { downloadText, visibleCsvText } from './exportCsv';
import { BreakdownFilterChip } from './FilterChip';
import { filterKey, filterLabel, useBreakdownFilter } from './filter';
import { useFilteredStats } from './filtered';
import { ListPanel } from './ListPanel';
import { activeTrafficKeys, groupDomains, hasVerifiedDomain } from './lists';
import {
  CUSTOM_RANGES,
  chooseRange,
  dayAt,
  daysWindow,
  earliestDay,
  parsePeriod,
  periodLabel,
} from './period';
import { BREAKDOWN_LIVE_POLL_MS, StatsPeriodContext, useStats, useStatsLists } from './queries';
import { StatsChart } from './StatsChart';
import { StatsTabs } from './StatsTabs';
import { useViewParams } from './view';

/** Wide screens show the list tabs in the header; narrow ones on the page. */
export const WIDE_QUERY = '(min-width: 48em)';

function NoDomain({ managesDomains }: { managesDomains: boolean }) {
  return (
    <EmptyState icon={<IconChart size={28} />} title="No verified domain yet">
      {!managesDomains ? (
        <Text c="dimmed">Your team haven't added any domain yet</Text>
      ) : (
        <>
          <Text c="dimmed">You haven't added any domain yet</Text>
          <Button component={Link} to={WEB_PATHS.addDomains} mt="xs">
            Go to add domains
          </Button>
        </>
      )}
    </EmptyState>
  );
}

function Figure({
  label,
  value,
  big,
  plain,
  aria,
  warning,
  describedBy,
  delta,
  judged,
  help,
  labelWidth,
}: {
  label: string;
  value: string;
  big?: boolean;
  /** A big figure in the text's colour, not the share's teal (the origin's saving beside it). */
  plain?: boolean;
  aria?: string;
  /** A figure that asks for attention (refused peer bytes): red.9, 5.5:1 on white. */
  warning?: boolean;
  describedBy?: string;
  /** Against the previous period (compare); null when it cannot be said (nothing served). */
  delta?: Delta | null;
  /** Whether up is better (a share): the delta in green or red, else grey. */
  judged?: boolean;
  /** What the figure counts: a tooltip on its label (dotted), and the value's description. */
  help?: string;
  /** The widest its label may be (px): a long one wraps onto two lines beside the others. */
  labelWidth?: number;
}) {
  const helpId = useId();
  const labelText = (
    <Text
      size="xs"
      c={warning ? 'red' : 'dimmed'}
      fw={600}
      tt="uppercase"
      maw={labelWidth}
      style={{
        letterSpacing: 0.5,
        ...(help ? { textDecoration: 'underline dotted', textUnderlineOffset: 3, cursor: 'help' } : {}),
      }}
      // Focusable when it has an explanation, so the keyboard shows it as the mouse does.
      tabIndex={help ? 0 : undefined}
    >
      {warning && <IconAlert size={12} style={{ verticalAlign: -1, marginRight: 4 }} />}
      {label}
    </Text>
  );
  const described = [describedBy, help ? helpId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <Stack gap={2}>
      {help ? (
        <Tooltip label={help} multiline w={280} withArrow events={{ hover: true, focus: true, touch: true }}>
          {labelText}
        </Tooltip>
      ) : (
        labelText
      )}
      {help && (
        <span id={helpId} hidden>
          {help}
        </span>
      )}
      <Text
        fz={big ? { base: 28, sm: 34 } : { base: 18, sm: 22 }}
        fw={700}
        lh={1.1}
        c={big && !plain ? 'teal.7' : warning ? 'red' : undefined}
        aria-label={aria}
        aria-describedby={described}
        role={aria ? 'status' : undefined}
        data-testid={`figure-${label.toLowerCase().replace(/\W+/g, '-')}`}
      >
        {value}
      </Text>
      {delta !== undefined && (
        <Text
          size="xs"
          fw={600}
          // A share up is better, down worse; more or less traffic is neither: said in the text's grey.
          c={
            !judged || delta === null || delta.direction === 'same'
              ? 'dimmed'
              : delta.direction === 'up'
                ? 'var(--mantine-color-teal-text)'
                : 'var(--mantine-color-red-text)'
          }
          data-testid={`delta-${label.toLowerCase().replace(/\W+/g, '-')}`}
        >
          <span aria-hidden="true">{delta ? `${delta.text} vs previous` : '— vs previous'}</span>
          <VisuallyHidden>
            {`${label}: ${delta ? delta.spoken : 'nothing to compare in the previous period'}`}
          </VisuallyHidden>
        </Text>
      )}
    </Stack>
  );
}

/** The id of the explanation of the refused peer bytes, which their figure refers to. */
const REFUSED_NOTE_ID = 'stats-refused-note';
/** The id of the explanation of the origin's saving, when verification took some of it. */
const SAVING_NOTE_ID = 'stats-saving-note';
/** The guide's section on what each source of a segment's hash costs. */
const VERIFICATION_GUIDE = `${PLAYER_PATHS.guide}#verification`;

/** Why the origin saved less than the P2P share and how to close the gap: shown when verifying
 *  peers' segments fetched bytes from the origin over the visible range. */
function SavingNote({ verifyBytes }: { verifyBytes: number }) {
  return (
    <Text id={SAVING_NOTE_ID} size="xs" c="dimmed" mt={-8} data-testid="saving-note">
      {MSG_STATS.originSavingNote(formatBytes(verifyBytes))} {MSG_STATS.originSavingHow}{' '}
      <Anchor component={Link} to={VERIFICATION_GUIDE} size="xs" inherit>
        {MSG_STATS.originSavingLink}
      </Anchor>
    </Text>
  );
}

function ChartSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" aria-label="Loading statistics">
      <Box>
        <Text size="sm" fw={600} mb={6}>
          Bandwidth
        </Text>
        <Skeleton height={250} radius="md" data-testid="loader-bandwidth" />
      </Box>
      <Box>
        <Text size="sm" fw={600} mb={6}>
          Viewers
        </Text>
        <Skeleton height={150} radius="md" data-testid="loader-viewers" />
      </Box>
      <Group justify="center">
        <Loader size="sm" />
      </Group>
    </Stack>
  );
}

/** The statistics screen of spec §2/§4. */
export function StatisticsScreen() {
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
  // The panel reads the answer's whole-window totals, never the sample the chart falls back to.
  const experience: ExperienceState =
    stats.isPending || !result
      ? { kind: 'loading' }
      : result.failed
        ? { kind: 'sample' }
        : result.totals
          ? { kind: 'ready', totals: result.totals }
          : { kind: 'missing' };
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

  if (domains.isPending) {
    return (
      <PageBody>
        <Group justify="center" py={80}>
          <Loader />
        </Group>
      </PageBody>
    );
  }
  const rangeSwitch = (
    <SegmentedControl
      // Custom dates choose no range of the switch: choosing one returns to it, rolling.
      value={period ? '' : range}
      onChange={(v) => setRange(v as TStatsRange)}
      data={RANGE_ORDER.map((r) => ({ value: r, label: RANGE_LABEL[r] }))}
      aria-label="Time range"
      radius="md"
    />
  );

  if (!hasVerifiedDomain(groups)) {
    return (
      <PageBody>
        <Title order={1} fz={{ base: 22, sm: 26 }} mb="lg">
          Statistics
        </Title>
        <NoDomain managesDomains={rights.managesDomains} />
      </PageBody>
    );
  }

  const live = chartRange === 'live';
  const dates = period ? { from: period.from, to: period.to } : null;
  return (
    <PageBody>
      <Group justify="space-between" align="center" mb="md" gap="sm">
        <Title order={1} fz={{ base: 22, sm: 26 }}>
          Statistics
        </Title>
        <Group gap="sm" align="center" wrap="wrap" justify="flex-end">
          {rangeSwitch}
          <DateRangePicker
            value={dates}
            minDay={earliestDay(nowS, utcOffset)}
            maxDay={today}
            check={checkDates}
            onChange={(d) => view.set({ dates: d })}
          />
          <Switch
            label={MSG_STATS.compare}
            checked={comparing}
            disabled={live}
            title={live ? MSG_STATS.compareLive : undefined}
            onChange={(e) => view.set({ compare: e.currentTarget.checked })}
            data-testid="stats-compare"
          />
        </Group>
      </Group>
      {!wide && (
        <Box mb="sm" style={{ overflow: 'hidden' }}>
          <StatsTabs variant="page" />
        </Box>
      )}
      <Grid gutter="md" align="flex-start">
        <Grid.Col span={{ base: 12, md: 4, lg: 3 }} order={{ base: 2, md: 1 }}>
          <ListPanel
            key={lists.index}
            index={lists.index}
            name={tab?.nameTab ?? ''}
            keys={keys}
            groups={groups}
            onRename={(n) => lists.rename(lists.index, n)}
            onKeys={(k) => lists.setKeys(lists.index, k)}
            onDelete={() => lists.remove(lists.index)}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }} order={{ base: 1, md: 2 }}>
          <Card withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
            {drill.filter && keys.length > 0 && (
              <Box mb="sm">
                <BreakdownFilterChip
                  filter={drill.filter}
                  onRemove={drill.clear}
                  step={result && !result.failed ? result.step : undefined}
                />
              </Box>
            )}
            {keys.length === 0 ? (
              <Stack align="center" ta="center" gap="sm" py={80}>
                <IconKey size={32} color="var(--mantine-color-dimmed)" />
                <Text fw={600}>{MSG_STATS.noKey}</Text>
                <Text size="sm" c="dimmed">
                  {lists.index === 0
                    ? 'No domain of this team has an active key yet. Create a list with "+" to choose other keys.'
                    : 'Tick keys in the list to add their traffic to the chart.'}
                </Text>
              </Stack>
            ) : stats.isPending || !input || !summary ? (
              <ChartSkeleton />
            ) : (
              <Stack gap="md">
                {failed && (
                  <Alert color="red" variant="light" icon={<IconAlert size={18} />} p="sm">
                    <Text size="sm" fw={600}>
                      {MSG_STATS.loadError}
                    </Text>
                    <Text size="xs" c="dimmed">
                      The chart below shows sample data, not your traffic.
                    </Text>
                  </Alert>
                )}
                <Group gap="lg" align="flex-end" wrap="wrap">
                  <Figure
                    label={failed ? 'P2P share (sample)' : 'P2P share'}
                    value={summary.p2pShare === null ? '—' : formatPercent(summary.p2pShare)}
                    big
                    aria="P2P share"
                    delta={deltas ? deltas.p2pShare : undefined}
                    judged
                  />
                  <Figure
                    label={failed ? MSG_STATS.originSavingSample : MSG_STATS.originSaving}
                    value={summary.originSaving === null ? '—' : formatSignedPercent(summary.originSaving)}
                    big
                    plain
                    aria={MSG_STATS.originSaving}
                    describedBy={summary.verifyBytes > 0 ? SAVING_NOTE_ID : undefined}
                    delta={deltas ? deltas.originSaving : undefined}
                    judged
                  />
                  <Figure
                    label="Total traffic"
                    value={formatBytes(summary.totalBytes)}
                    delta={deltas?.totalBytes}
                  />
                  <Figure
                    label="Peak viewers"
                    value={formatCount(summary.peakViewers)}
                    delta={deltas?.peakViewers}
                  />
                  {/* Sample data has no networks; a range without P2P bytes has no share of them. */}
                  {!failed && summary.ownNetworkShare !== null && (
                    <Figure
                      label={MSG_STATS.ownNetwork}
                      value={formatPercent(summary.ownNetworkShare)}
                      aria={MSG_STATS.ownNetwork}
                      help={MSG_STATS.ownNetworkHelp}
                      delta={deltas ? deltas.ownNetworkShare : undefined}
                      judged
                      labelWidth={170}
                    />
                  )}
                  {summary.rejectedBytes > 0 && (
                    <Figure
                      label={MSG_STATS.refusedBytes}
                      value={formatBytes(summary.rejectedBytes)}
                      warning
                      describedBy={REFUSED_NOTE_ID}
                    />
                  )}
                  <Text size="xs" c="dimmed" ml="auto">
                    {live ? (
                      <>
                        <Box
                          component="span"
                          display="inline-block"
                          w={8}
                          h={8}
                          mr={6}
                          bg="red.6"
                          style={{ borderRadius: '50%' }}
                        />
                        Live · refreshes every{' '}
                        {(drill.filter ? BREAKDOWN_LIVE_POLL_MS : TIMINGS.livePollMs) / 1000} s
                      </>
                    ) : (
                      `${period ? periodLabel(period) : 'Visible range'} · ${(drill.filter && !failed ? input.step : STATS_RANGES[chartRange].step) / 60}-minute steps${
                        input.previous ? ' · dashed: previous period' : ''
                      }`
                    )}
                    {' · '}
                    {utcLabel(utcOffset)}
                    {stats.dataUpdatedAt > 0 && (
                      <>
                        {' · '}
                        <span data-testid="stats-updated">
                          Last updated {formatTime(readAtMs, { utcOffset, label: false }, true)}
                        </span>
                      </>
                    )}
                  </Text>
                  <Button
                    variant="default"
                    size="xs"
                    disabled={failed}
                    title={failed ? 'Sample data cannot be exported' : undefined}
                    onClick={() =>
                      // Every column of the API's file for the visible window; a filtered view's
                      // series is the breakdown's, written from the points on screen.
                      void visibleCsvText(
                        input,
                        zoom,
                        drill.filter ? null : { range: chartRange, teamId, keys, userId: user.id },
                      ).then(
                        (text) =>
                          downloadText(
                            period
                              ? `statistics-${period.from}-${period.to}.csv`
                              : `statistics-${range}-${new Date().toISOString().slice(0, 10)}.csv`,
                            text,
                          ),
                        // The API client has shown its failure popup already.
                        () => {},
                      )
                    }
                  >
                    Export CSV
                  </Button>
                </Group>
                {summary.verifyBytes > 0 && <SavingNote verifyBytes={summary.verifyBytes} />}
                {summary.rejectedBytes > 0 && (
                  <Text id={REFUSED_NOTE_ID} size="xs" c="red" mt={-8}>
                    {MSG_STATS.refusedNote}
                  </Text>
                )}
                <StatsChart
                  input={input}
                  view={`${chartRange} ${period ? `${period.start}-${period.end}` : ''} ${lists.index} ${keys.join(',')} ${filterKey(drill.filter)}`}
                  sample={failed}
                  onZoom={(s, e) => setZoom([s, e])}
                />
              </Stack>
            )}
          </Card>
          {keys.length > 0 && (
            <ExperiencePanel
              state={experience}
              filterLabel={drill.filter ? filterLabel(drill.filter) : undefined}
            />
          )}
          {/* Never beside sample data: its rows would pass for the team's. */}
          {keys.length > 0 && !failed && (
            <StatsPeriodContext.Provider value={period}>
              <BreakdownPanel
                range={chartRange}
                keys={keys}
                teamId={teamId}
                userId={user.id}
                utcOffset={utcOffset}
                filter={drill.filter}
                onFilter={drill.set}
              />
            </StatsPeriodContext.Provider>
          )}
        </Grid.Col>
      </Grid>
    </PageBody>
  );
}
