import { Card, Loader, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { findTimeZone, timeZoneLabel } from '@tlprt/contract';
import { useTimeZoneOptions } from '../../platform/queries/timeZones';
import { useSession } from '../../platform/session/SessionProvider';
import { useUpdateUser } from './mutations';

/** What the select sends for "the team's zone": no id, stored as null. */
const TEAM_ZONE = '';

/**
 * A person's own time zone for charts (issue 39): Statistics (the chart, its UTC label, the breakdown's
 * hours and the CSV export) show times in it instead of the current team's. Saved on change.
 */
export function ChartTimeZone({ locked }: { locked: boolean }) {
  const { user, currentTeam } = useSession();
  const own = user.timezoneId ?? null;
  const update = useUpdateUser(user.id);
  const zones = useTimeZoneOptions(own);
  const teamZone = currentTeam ? findTimeZone(currentTeam.timezoneId) : undefined;
  return (
    <Card withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="chart-zone-title">
      <Stack gap="md">
        <div>
          <Title order={2} fz="lg" id="chart-zone-title">
            Time zone
          </Title>
          <Text size="sm" c="dimmed">
            Statistics show times in this zone: the chart, the breakdown and the CSV exports.
            {teamZone ? ` Your current team's is ${timeZoneLabel(teamZone.name)}.` : ''}
          </Text>
        </div>
        <NativeSelect
          label="Time zone for charts"
          maw={420}
          data={[{ value: TEAM_ZONE, label: "Team's time zone (default)" }, ...zones]}
          value={own === null ? TEAM_ZONE : String(own)}
          disabled={locked || update.isPending}
          onChange={(e) => {
            const value = e.currentTarget.value;
            update.mutate({ timezoneId: value === TEAM_ZONE ? null : Number(value) });
          }}
          rightSection={update.isPending ? <Loader size={14} /> : undefined}
        />
      </Stack>
    </Card>
  );
}
