import { useQueryClient } from '@tanstack/react-query';
import { EventCode, InviteStatus, MSG_TEAMS, roleName, type TLiveEvent, WEB_PATHS } from '@tlprt/contract';
import { invalidateAlerts } from '../../features/alerts/queries';
import { invitationsApi } from '../../features/teams/invitations/api';
import { invitationKeys } from '../../features/teams/invitations/queries';
import { navigateTo, reloadPage } from '../../platform/api/navigation';
import { showPopup } from '../../platform/api/popups';
import { useLiveEvent } from '../../platform/live/useLiveEvent';
import { invalidateDomainsAndKeys } from '../../platform/queries/domains';
import { invalidateTeams } from '../../platform/queries/teams';
import { useSession } from '../../platform/session/SessionProvider';
import { clearStoredTeam, setSettingsHeadFlag } from '../../platform/session/storage';
import { useSettingsTab } from '../../platform/settings/settingsTab';

/** Codes that only mean "what you see may be stale" (spec §4 "refresh"): teams, domains and keys. */
const REFRESH_CODES = [
  EventCode.UserAdded,
  EventCode.UserLeft,
  EventCode.DomainCreated,
  EventCode.DomainStatus,
  EventCode.KeyCreated,
  EventCode.KeyDeleted,
  EventCode.KeyChanged,
] as const;

const num = (v: unknown): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : null;

/**
 * The client reactions of spec §4's live-event table. Mounted once in the signed-in layout; the stream
 * has already closed every open modal before these run (LiveProvider).
 */
function useLiveReactions(): void {
  const queryClient = useQueryClient();
  const { user, currentTeam } = useSession();
  const [, setSettingsTab] = useSettingsTab();
  const refresh = () => {
    void invalidateTeams(queryClient);
    void invalidateDomainsAndKeys(queryClient);
  };
  const refreshInvitations = () => void queryClient.invalidateQueries({ queryKey: invitationKeys.all });

  /** OK of the "team deleted" / "signed off" popups: drop the current team, go to settings. */
  const leaveTeam = (event: TLiveEvent) => () => {
    const teamId = num(event.team_id);
    if (teamId === null || teamId === currentTeam?.id) clearStoredTeam();
    void invalidateTeams(queryClient);
    navigateTo(WEB_PATHS.settings);
  };

  useLiveEvent(REFRESH_CODES, refresh);

  useLiveEvent(EventCode.GoToSettings, () => {
    void invalidateTeams(queryClient);
    navigateTo(WEB_PATHS.settings);
  });

  useLiveEvent(EventCode.TeamDeleted, (event) =>
    showPopup({
      kind: 'notice',
      title: MSG_TEAMS.evTeamDeletedTitle,
      text: MSG_TEAMS.evTeamDeletedText,
      onOk: leaveTeam(event),
    }),
  );

  useLiveEvent(EventCode.TeamStatus, (event) => {
    const status = num(event.new_status);
    if (status === EventCode.TeamReactivated) {
      reloadPage();
      return;
    }
    void invalidateTeams(queryClient);
    if (status === EventCode.TeamBlocked) showPopup({ kind: 'notice', title: MSG_TEAMS.evTeamBlocked });
    else if (status === EventCode.TeamSuspended)
      showPopup({
        kind: 'notice',
        title: MSG_TEAMS.evTeamSuspendedTitle,
        text: MSG_TEAMS.evTeamSuspendedText,
      });
  });

  useLiveEvent(EventCode.UserRemoved, (event) =>
    showPopup({
      kind: 'notice',
      title: MSG_TEAMS.evRemovedTitle,
      text: MSG_TEAMS.evRemovedText,
      onOk: leaveTeam(event),
    }),
  );

  // Spec §4 "40 (and 80 in popups)": 80 gets a popup of its own, telling who invited the user to which
  // team (docs/teams-and-accounts.md); the invitations are searched again for it.
  useLiveEvent(EventCode.Invited, (event) => {
    // The team's members get it too: their list of the team's pending invitations changed.
    void invalidateTeams(queryClient);
    const inviteId = num(event.invite_id);
    void queryClient
      .fetchQuery({ queryKey: invitationKeys.mine(), queryFn: invitationsApi.mine, staleTime: 0 })
      .then((r) => {
        const invitation = r.data.find((i) => i.id === inviteId && i.status === InviteStatus.Pending);
        if (!invitation) return;
        showPopup({
          kind: 'notice',
          title: MSG_TEAMS.evInvitedTitle,
          text: MSG_TEAMS.evInvitedText(
            invitation.inviting_user.email,
            invitation.team.name,
            roleName(invitation.role),
          ),
          onOk: () => {
            setSettingsTab(0);
            navigateTo(WEB_PATHS.settings);
          },
        });
      }, refreshInvitations);
  });

  useLiveEvent(EventCode.InviteChanged, refreshInvitations);

  useLiveEvent(EventCode.RoleChanged, (event) => {
    // The role updates live for everybody; only the member concerned gets the popup.
    void invalidateTeams(queryClient);
    const changed = num(event.changed_role_user);
    if (changed !== null && changed !== user.id) return;
    showPopup({
      kind: 'notice',
      title: MSG_TEAMS.evRoleChangedTitle,
      text: MSG_TEAMS.evRoleChangedText,
      onOk: () => {
        setSettingsHeadFlag();
        setSettingsTab(1);
      },
    });
  });

  // An alert rule of a team changed (saved, deleted, opened, resolved): its list and open delivery logs.
  useLiveEvent(EventCode.AlertChanged, (event) => {
    const teamId = num(event.team_id);
    if (teamId !== null) void invalidateAlerts(queryClient, teamId);
  });

  useLiveEvent(EventCode.DomainDeleted, () =>
    showPopup({ kind: 'notice', title: MSG_TEAMS.evDomainDeleted, onOk: reloadPage }),
  );
}

/** Component form, for the layout. */
export function LiveReactions() {
  useLiveReactions();
  return null;
}
