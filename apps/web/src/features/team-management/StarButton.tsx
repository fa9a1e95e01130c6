import { ActionIcon, Tooltip } from '@mantine/core';
import type { TTeamListItem } from '@tlprt/contract';
import { IconStar } from '../../platform/ui/icons';
import { useTeamStar } from './mutations';
import { teamName } from './teamView';

/** The caller's own favourite star of a team (each supervisor has their own). */
export function StarButton({ team }: { team: TTeamListItem }) {
  const star = useTeamStar();
  const label = team.favourite
    ? `Remove ${teamName(team)} from favourites`
    : `Add ${teamName(team)} to favourites`;
  return (
    <Tooltip label={team.favourite ? 'Favourite' : 'Add to favourites'} withinPortal>
      <ActionIcon
        variant="subtle"
        color={team.favourite ? 'yellow' : 'gray'}
        aria-label={label}
        aria-pressed={team.favourite}
        loading={star.isPending}
        onClick={(e) => {
          e.stopPropagation();
          star.mutate(team.id);
        }}
      >
        <IconStar size={18} fill={team.favourite ? 'currentColor' : 'none'} />
      </ActionIcon>
    </Tooltip>
  );
}
