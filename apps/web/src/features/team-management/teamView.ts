import { isShownSuspended, MSG_TEAM_MANAGEMENT, TeamStatus, type TTeamListItem } from '@tlprt/contract';
import { reloadPage } from '../../platform/api/navigation';
import { setStoredTeam } from '../../platform/session/storage';

/** What the panel shows as a team's status (spec §4). */
export function statusText(t: Pick<TTeamListItem, 'statusId' | 'suspended'>): string {
  if (isShownSuspended(t)) return MSG_TEAM_MANAGEMENT.suspended;
  if (t.statusId === TeamStatus.DeletionRequested) return 'Deletion requested';
  if (t.statusId === TeamStatus.Disabled) return 'Disabled';
  return 'Active';
}

export const teamName = (t: Pick<TTeamListItem, 'id' | 'name'>) => t.name.trim() || `Team ID ${t.id}`;

/** Spec §2: clicking a team makes it current (id and UTC offset stored) and reloads the page. */
export function makeCurrent(team: Pick<TTeamListItem, 'id' | 'utcOffset'>): void {
  setStoredTeam(team);
  reloadPage();
}
