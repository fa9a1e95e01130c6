import { Badge, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { findTimeZone, MSG, ROLE_NAMES, TEAM_VERSION_NAMES, timeZoneText } from '@tlprt/contract';
import { useSession } from '../session/SessionProvider';
import { teamLabel } from './currentTeam';

/** Team settings tab (spec §2): the current team's info, my role, time zone. Read-only for now. */
export function TeamSettings() {
  const { currentTeam, role, user } = useSession();
  if (!currentTeam) return null;
  const zone = findTimeZone(currentTeam.timezoneId);
  const zoneText = currentTeam.timeZone || (zone ? timeZoneText(zone.name) : 'UTC');
  const suspended = currentTeam.suspended === 1;
  return (
    <Stack gap="lg">
      <Card withBorder p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="lg">
          <Group justify="space-between" align="flex-start">
            <div>
              <Title order={2} fz="lg">
                Team info
              </Title>
              <Text size="sm" c="dimmed">
                {MSG.teamIdLabel(currentTeam.id)}
              </Text>
            </div>
            {suspended && (
              <Badge color="red" variant="light">
                Suspended
              </Badge>
            )}
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="Team name"
              value={teamLabel(currentTeam, MSG.teamIdLabel)}
              readOnly
              variant="filled"
            />
            <TextInput
              label="Website"
              value={currentTeam.website}
              readOnly
              variant="filled"
              placeholder="—"
            />
            <TextInput label="Time zone" value={zoneText} readOnly variant="filled" />
            {user.supervisor && (
              <TextInput
                label="Version"
                value={TEAM_VERSION_NAMES[currentTeam.version] ?? String(currentTeam.version)}
                readOnly
                variant="filled"
              />
            )}
          </SimpleGrid>
        </Stack>
      </Card>
      <Card withBorder p={{ base: 'md', sm: 'xl' }}>
        <Group justify="space-between">
          <div>
            <Title order={2} fz="lg">
              My role in this team
            </Title>
            <Text size="sm" c="dimmed">
              Your role decides what you can change in this team.
            </Text>
          </div>
          <Badge size="lg" variant="light" data-testid="my-role">
            {role !== null ? (ROLE_NAMES[role] ?? String(role)) : '—'}
          </Badge>
        </Group>
      </Card>
    </Stack>
  );
}
