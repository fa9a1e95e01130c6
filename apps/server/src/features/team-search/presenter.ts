import type { TTeamListItem } from '@tlprt/contract';
import type { TeamRow } from '../../db/schema.js';
import { presentTeamSummary } from '../../directory/teams.js';
import type { TeamSearchRow } from './queries.js';

/** One row of the team search. */
export function presentTeamListItem(
  row: TeamSearchRow,
  role: number,
  tags: string[],
  at: Date,
): TTeamListItem {
  const { member_role: _m, members, ...team } = row;
  return {
    ...presentTeamSummary({ ...(team as TeamRow), role, favourite: row.favourite }, at),
    members,
    tags,
  };
}
