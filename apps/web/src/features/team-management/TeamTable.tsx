import { Group, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { cutTeamName, isShownSuspended, type TTeamListItem } from '@tlprt/contract';
import { IconBan } from '../../platform/ui/icons';
import { StarButton } from './StarButton';
import { TeamHistoryButton } from './TeamHistory';
import { TeamTags } from './TeamTags';
import { makeCurrent, statusText, teamName } from './teamView';

/** The table form: Name (cut to 40 characters), Team ID, Status, Tags (spec §2). */
export function TeamTable({ teams }: { teams: TTeamListItem[] }) {
  return (
    <Table.ScrollContainer minWidth={620} type="native">
      <Table striped highlightOnHover stickyHeader verticalSpacing={6} aria-label="Teams">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th w={90}>Team ID</Table.Th>
            <Table.Th w={120}>Status</Table.Th>
            <Table.Th>Tags</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {teams.map((team) => {
            const suspended = isShownSuspended(team);
            const name = teamName(team);
            const cut = cutTeamName(name);
            return (
              <Table.Tr key={team.id} data-testid={`team-row-${team.id}`}>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <StarButton team={team} />
                    <Tooltip label={name} disabled={cut === name} withinPortal>
                      <UnstyledButton
                        onClick={() => makeCurrent(team)}
                        aria-label={`Make ${name} the current team`}
                        className="tm-team-open"
                        style={{ borderRadius: 6 }}
                      >
                        <Group gap={4} wrap="nowrap">
                          {suspended && <IconBan size={14} color="var(--mantine-color-red-7)" aria-hidden />}
                          <Text size="sm" fw={500} c={suspended ? 'red' : undefined} data-testid="team-name">
                            {cut}
                          </Text>
                        </Group>
                      </UnstyledButton>
                    </Tooltip>
                    <TeamHistoryButton team={team} />
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{team.id}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" fw={suspended ? 600 : 400} c={suspended ? 'red' : undefined}>
                    {statusText(team)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <TeamTags team={team} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
