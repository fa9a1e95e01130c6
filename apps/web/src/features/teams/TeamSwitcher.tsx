import { ActionIcon, Box, Group, Menu, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { MSG, type TTeamSummary } from '@tlprt/contract';
import { splitFavourites, teamLabel } from '../../platform/session/currentTeam';
import { useSession } from '../../platform/session/SessionProvider';
import { IconCheck, IconSelector, IconStar } from '../../platform/ui/icons';
import { useToggleFavourite } from './mutations';

/**
 * Sidebar team block (spec §2): the current team's name ("Team ID {id}" if unnamed, "No teams" if none)
 * and a dropdown of Favorite teams and the others, the current one ticked.
 */
export function TeamSwitcher({ onSelected }: { onSelected?: () => void }) {
  const { teams, currentTeam, selectTeam } = useSession();
  const favourite = useToggleFavourite();
  const title = currentTeam ? teamLabel(currentTeam, MSG.teamIdLabel) : MSG.noTeams;

  if (!currentTeam) {
    return (
      <Box px="sm" py={10} style={{ borderRadius: 10, background: 'var(--app-subtle)' }}>
        <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
          Team
        </Text>
        <Text fw={600} data-testid="current-team">
          {title}
        </Text>
      </Box>
    );
  }

  const { favourites, others } = splitFavourites(teams);
  const item = (team: TTeamSummary) => {
    const current = team.id === currentTeam.id;
    const label = teamLabel(team, MSG.teamIdLabel);
    return (
      <Group key={team.id} gap={0} wrap="nowrap">
        <Menu.Item
          onClick={() => {
            if (!current) selectTeam(team.id);
            onSelected?.();
          }}
          rightSection={current ? <IconCheck size={16} aria-label="Current team" /> : null}
          aria-current={current ? 'true' : undefined}
          fw={current ? 600 : 400}
          style={{ flex: 1, minWidth: 0 }}
        >
          <Text inherit truncate>
            {label}
          </Text>
        </Menu.Item>
        <Tooltip label={team.favourite ? 'Remove from favourites' : 'Add to favourites'} withinPortal>
          <ActionIcon
            variant="subtle"
            color={team.favourite ? 'yellow' : 'gray'}
            aria-label={team.favourite ? `Remove ${label} from favourites` : `Add ${label} to favourites`}
            aria-pressed={team.favourite}
            loading={favourite.isPending && favourite.variables === team.id}
            onClick={() => favourite.mutate(team.id)}
          >
            <IconStar size={16} fill={team.favourite ? 'currentColor' : 'none'} />
          </ActionIcon>
        </Tooltip>
      </Group>
    );
  };

  return (
    <Menu position="bottom-start" width="target" shadow="md" withinPortal closeOnItemClick>
      <Menu.Target>
        <UnstyledButton
          aria-label={`Current team: ${title}. Switch team`}
          px="sm"
          py={10}
          w="100%"
          style={{
            borderRadius: 10,
            border: '1px solid var(--app-border)',
            background: 'var(--app-surface)',
          }}
        >
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Box miw={0}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                Team
              </Text>
              <Text fw={600} truncate data-testid="current-team">
                {title}
              </Text>
            </Box>
            <IconSelector size={16} color="var(--mantine-color-gray-6)" />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown mah={360} style={{ overflowY: 'auto' }}>
        {favourites.length > 0 && <Menu.Label>Favorite teams</Menu.Label>}
        {favourites.map(item)}
        {favourites.length > 0 && others.length > 0 && <Menu.Divider />}
        {others.length > 0 && favourites.length > 0 && <Menu.Label>Other teams</Menu.Label>}
        {others.length > 0 && favourites.length === 0 && <Menu.Label>Teams</Menu.Label>}
        {others.map(item)}
      </Menu.Dropdown>
    </Menu>
  );
}
