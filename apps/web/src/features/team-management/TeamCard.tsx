import { Card, Group, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { isShownSuspended, type TTeamListItem } from '@tlprt/contract';
import { formatDate } from '../../platform/dates';
import { IconBan } from '../../platform/ui/icons';
import { StarButton } from './StarButton';
import { TeamHistoryButton } from './TeamHistory';
import { TeamTags } from './TeamTags';
import { makeCurrent, statusText, teamName } from './teamView';

/** One card of the list: star, name, Team ID, Status, Creation date, Members, tags (spec §2). */
export function TeamCard({ team }: { team: TTeamListItem }) {
  const suspended = isShownSuspended(team);
  const name = teamName(team);
  return (
    <Card withBorder radius="md" padding="sm" data-testid={`team-card-${team.id}`}>
      <Group gap="xs" wrap="nowrap" align="center">
        <StarButton team={team} />
        <UnstyledButton
          onClick={() => makeCurrent(team)}
          aria-label={`Make ${name} the current team`}
          style={{ minWidth: 0, flex: 1, borderRadius: 6 }}
          className="tm-team-open"
        >
          <Group gap={6} wrap="nowrap">
            {suspended && <IconBan size={16} color="var(--mantine-color-red-7)" aria-hidden />}
            <Text fw={600} truncate c={suspended ? 'red' : undefined}>
              {name}
            </Text>
          </Group>
        </UnstyledButton>
        <TeamHistoryButton team={team} />
      </Group>
      <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="xs" verticalSpacing={6} mt="xs">
        <Field label="Team ID" value={String(team.id)} />
        <Field
          label="Status"
          value={statusText(team)}
          color={suspended ? 'red' : team.statusId === 10 ? 'teal' : 'orange'}
        />
        <Field label="Creation date" value={formatDate(team.createdAt)} />
        <Field label="Members" value={String(team.members)} />
      </SimpleGrid>
      <Stack gap={4} mt="xs">
        <Text size="xs" c="dimmed">
          Tags
        </Text>
        <TeamTags team={team} />
      </Stack>
    </Card>
  );
}

function Field({ label, value, color }: { label: string; value: string; color?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} c={color}>
        {value}
      </Text>
    </div>
  );
}
