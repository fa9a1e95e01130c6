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
import type { ChartInput } from './chartOption';
import { DateRangePicker } from './DateRangePicker';
import { RANGE_LABEL, RANGE_ORDER, type StatsSummary } from './data';
import { ExperiencePanel } from './ExperiencePanel';
import { downloadText, visibleCsvText } from './exportCsv';
import { BreakdownFilterChip } from './FilterChip';
import { filterKey, filterLabel } from './filter';
import { ListPanel } from './ListPanel';
import { hasVerifiedDomain } from './lists';
import { earliestDay } from './period';
import { StatsPeriodContext } from './queries';
import { StatsChart } from './StatsChart';
import { StatsTabs } from './StatsTabs';
import { SummaryFigures, SummaryNotes, ViewCaption } from './SummaryFigures';
import { type StatisticsView, useStatisticsView } from './useStatisticsView';

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

/** The chart's two panels, while its points load. */
const SKELETON_PANELS = [
  { title: 'Bandwidth', height: 250, testId: 'loader-bandwidth' },
  { title: 'Viewers', height: 150, testId: 'loader-viewers' },
] as const;

function ChartSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" aria-label="Loading statistics">
      {SKELETON_PANELS.map((panel) => (
        <Box key={panel.testId}>
          <Text size="sm" fw={600} mb={6}>
            {panel.title}
          </Text>
          <Skeleton height={panel.height} radius="md" data-testid={panel.testId} />
        </Box>
      ))}
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
function ViewControls({ view }: { view: StatisticsView }) {
  const live = view.chartRange === 'live';
  return (
    <Group gap="sm" align="center" wrap="wrap" justify="flex-end">
      <SegmentedControl
        // Custom dates choose no range of the switch: choosing one returns to it, rolling.
        value={view.period ? '' : view.range}
        onChange={(v) => view.setRange(v as TStatsRange)}
        data={RANGE_ORDER.map((r) => ({ value: r, label: RANGE_LABEL[r] }))}
        aria-label="Time range"
        radius="md"
      />
      <DateRangePicker
        value={view.period ? { from: view.period.from, to: view.period.to } : null}
        minDay={earliestDay(view.nowS, view.utcOffset)}
        maxDay={view.today}
        check={view.checkDates}
        onChange={(d) => view.url.set({ dates: d })}
      />
      <Switch
        label={MSG_STATS.compare}
        checked={view.comparing}
        disabled={live}
        title={live ? MSG_STATS.compareLive : undefined}
        onChange={(e) => view.url.set({ compare: e.currentTarget.checked })}
        data-testid="stats-compare"
      />
    </Group>
  );
}

/** Downloads every column of the API's file for the visible window; a filtered view's series is the
 *  breakdown's, written from the points on screen. */
function ExportCsvButton({ view, input }: { view: StatisticsView; input: ChartInput }) {
  const { period, failed } = view;
  const source = view.drill.filter
    ? null
    : { range: view.chartRange, teamId: view.teamId, keys: view.keys, userId: view.user.id };
  const fileName = () =>
    period
      ? `statistics-${period.from}-${period.to}.csv`
      : `statistics-${view.range}-${new Date().toISOString().slice(0, 10)}.csv`;
  return (
    <Button
      variant="default"
      size="xs"
      disabled={failed}
      title={failed ? 'Sample data cannot be exported' : undefined}
      onClick={() =>
        void visibleCsvText(input, view.zoom, source).then(
          (text) => downloadText(fileName(), text),
          // The API client has shown its failure popup already.
          () => {},
        )
      }
    >
      Export CSV
    </Button>
  );
}

/** The chart's answer: the figures of its visible part, what they cover, and the chart itself. */
function ChartFigures({
  view,
  input,
  summary,
}: {
  view: StatisticsView;
  input: ChartInput;
  summary: StatsSummary;
}) {
  const { drill, failed, period, chartRange } = view;
  return (
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
        <SummaryFigures summary={summary} deltas={view.deltas} failed={failed} />
        <ViewCaption
          live={chartRange === 'live'}
          filtered={drill.filter !== null}
          period={period}
          step={drill.filter && !failed ? input.step : STATS_RANGES[chartRange].step}
          comparing={input.previous !== undefined}
          utcOffset={view.utcOffset}
          updatedAt={view.stats.dataUpdatedAt > 0 ? view.readAtMs : null}
        />
        <ExportCsvButton view={view} input={input} />
      </Group>
      <SummaryNotes summary={summary} />
      <StatsChart
        input={input}
        view={`${chartRange} ${period ? `${period.start}-${period.end}` : ''} ${view.lists.index} ${view.keys.join(',')} ${filterKey(drill.filter)}`}
        sample={failed}
        onZoom={(s, e) => view.setZoom([s, e])}
      />
    </Stack>
  );
}

/** The chart's card: the breakdown row it is filtered by, and the chart, its loading or its absence. */
function ChartCard({ view }: { view: StatisticsView }) {
  const { drill, keys, result } = view;
  return (
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
        <NoKeys activeTraffic={view.lists.index === 0} />
      ) : view.stats.isPending || !view.input || !view.summary ? (
        <ChartSkeleton />
      ) : (
        <ChartFigures view={view} input={view.input} summary={view.summary} />
      )}
    </Card>
  );
}

/** The statistics screen of spec §2/§4. */
export function StatisticsScreen() {
  const view = useStatisticsView();
  const { lists, keys, drill } = view;

  if (view.domains.isPending) {
    return (
      <PageBody>
        <Group justify="center" py={80}>
          <Loader />
        </Group>
      </PageBody>
    );
  }
  if (!hasVerifiedDomain(view.groups)) {
    return (
      <PageBody>
        <Title order={1} fz={{ base: 22, sm: 26 }} mb="lg">
          Statistics
        </Title>
        <NoDomain managesDomains={view.rights.managesDomains} />
      </PageBody>
    );
  }

  return (
    <PageBody>
      <Group justify="space-between" align="center" mb="md" gap="sm">
        <Title order={1} fz={{ base: 22, sm: 26 }}>
          Statistics
        </Title>
        <ViewControls view={view} />
      </Group>
      {!view.wide && (
        <Box mb="sm" style={{ overflow: 'hidden' }}>
          <StatsTabs variant="page" />
        </Box>
      )}
      <Grid gutter="md" align="flex-start">
        <Grid.Col span={{ base: 12, md: 4, lg: 3 }} order={{ base: 2, md: 1 }}>
          <ListPanel
            key={lists.index}
            index={lists.index}
            name={view.tab?.nameTab ?? ''}
            keys={keys}
            groups={view.groups}
            onRename={(n) => lists.rename(lists.index, n)}
            onKeys={(k) => lists.setKeys(lists.index, k)}
            onDelete={() => lists.remove(lists.index)}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }} order={{ base: 1, md: 2 }}>
          <ChartCard view={view} />
          {keys.length > 0 && (
            <ExperiencePanel
              state={view.experience}
              filterLabel={drill.filter ? filterLabel(drill.filter) : undefined}
            />
          )}
          {/* Never beside sample data: its rows would pass for the team's. */}
          {keys.length > 0 && !view.failed && (
            <StatsPeriodContext.Provider value={view.period}>
              <BreakdownPanel
                range={view.chartRange}
                keys={keys}
                teamId={view.teamId}
                userId={view.user.id}
                utcOffset={view.utcOffset}
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
