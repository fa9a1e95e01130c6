import {
  Alert,
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
} from '@mantine/core';
import { MSG_STATS, STATS_RANGES, type TStatsRange, WEB_PATHS } from '@tlprt/contract';
import { Link } from 'react-router';
import { IconAlert, IconChart, IconKey } from '../../platform/ui/icons';
import { EmptyState, PageBody } from '../../platform/ui/Page';
import { BreakdownPanel } from './BreakdownPanel';
import { DateRangePicker } from './DateRangePicker';
import { RANGE_LABEL, RANGE_ORDER } from './data';
import { ExperiencePanel } from './ExperiencePanel';
import { downloadText, visibleCsvText } from './exportCsv';
import { BreakdownFilterChip } from './FilterChip';
import { filterKey, filterLabel } from './filter';
import { ListPanel } from './ListPanel';
import { hasVerifiedDomain } from './lists';
import type { CustomPeriod } from './period';
import { earliestDay } from './period';
import { StatsPeriodContext } from './queries';
import { StatsChart } from './StatsChart';
import { StatsTabs } from './StatsTabs';
import { SummaryFigures, SummaryNotes, ViewCaption } from './SummaryFigures';
import { useStatisticsView } from './useStatisticsView';
import type { useViewParams } from './view';

export { WIDE_QUERY } from './useStatisticsView';

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

/** A list with no key to show. */
function NoKeys({ activeTraffic }: { activeTraffic: boolean }) {
  return (
    <Stack align="center" ta="center" gap="sm" py={80}>
      <IconKey size={32} color="var(--mantine-color-dimmed)" />
      <Text fw={600}>{MSG_STATS.noKey}</Text>
      <Text size="sm" c="dimmed">
        {activeTraffic
          ? 'No domain of this team has an active key yet. Create a list with "+" to choose other keys.'
          : 'Tick keys in the list to add their traffic to the chart.'}
      </Text>
    </Stack>
  );
}

/** The range switch, the custom dates and the comparison switch of the view. */
function ViewControls({
  view,
  range,
  period,
  onRange,
  dates,
  minDay,
  maxDay,
  checkDates,
  comparing,
  live,
}: {
  view: ReturnType<typeof useViewParams>;
  range: TStatsRange;
  period: CustomPeriod | null;
  onRange: (r: TStatsRange) => void;
  dates: { from: string; to: string } | null;
  minDay: string;
  maxDay: string;
  checkDates: (from: string, to: string) => string | null;
  comparing: boolean;
  live: boolean;
}) {
  return (
    <Group gap="sm" align="center" wrap="wrap" justify="flex-end">
      <SegmentedControl
        // Custom dates choose no range of the switch: choosing one returns to it, rolling.
        value={period ? '' : range}
        onChange={(v) => onRange(v as TStatsRange)}
        data={RANGE_ORDER.map((r) => ({ value: r, label: RANGE_LABEL[r] }))}
        aria-label="Time range"
        radius="md"
      />
      <DateRangePicker
        value={dates}
        minDay={minDay}
        maxDay={maxDay}
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
  );
}

/** The statistics screen of spec §2/§4. */
export function StatisticsScreen() {
  const {
    user,
    rights,
    teamId,
    utcOffset,
    domains,
    lists,
    view,
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
  } = useStatisticsView();

  if (domains.isPending) {
    return (
      <PageBody>
        <Group justify="center" py={80}>
          <Loader />
        </Group>
      </PageBody>
    );
  }
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
        <ViewControls
          view={view}
          range={range}
          period={period}
          onRange={setRange}
          dates={dates}
          minDay={earliestDay(nowS, utcOffset)}
          maxDay={today}
          checkDates={checkDates}
          comparing={comparing}
          live={live}
        />
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
              <NoKeys activeTraffic={lists.index === 0} />
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
                  <SummaryFigures summary={summary} deltas={deltas} failed={failed} />
                  <ViewCaption
                    live={live}
                    filtered={drill.filter !== null}
                    period={period}
                    step={drill.filter && !failed ? input.step : STATS_RANGES[chartRange].step}
                    comparing={input.previous !== undefined}
                    utcOffset={utcOffset}
                    updatedAt={stats.dataUpdatedAt > 0 ? readAtMs : null}
                  />
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
                <SummaryNotes summary={summary} />
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
