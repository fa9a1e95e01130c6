import { Box, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { ROUTE_NAMES, WEB_PATHS } from '@tlprt/contract';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { teamsApi } from '../features/teams/api';
import { invalidateTeams } from '../platform/queries/teams';
import { useSession } from '../platform/session/SessionProvider';
import { useRouteName } from '../platform/session/useRouteName';
import { SETTINGS_PANEL_ID, SettingsTabs } from '../platform/settings/SettingsTabs';
import { useSettingsTab } from '../platform/settings/settingsTab';
import { PageBody, PageTitle } from '../platform/ui/Page';
import { ProfileSettings } from './settings/ProfileSettings';
import { TeamSettings } from './settings/TeamSettings';

/**
 * /settings — tab 0 profile, tab 1 team (spec §2 Settings screen). Query `teamDelete=decline` revokes
 * that team's deletion and `teamSuspended=decline` its suspension (links of the e-mails), then /settings/.
 */
export default function SettingsRoute() {
  useRouteName(ROUTE_NAMES.settings);
  const { currentTeam } = useSession();
  const [tab] = useSettingsTab();
  useDeclineParams();
  const showTeam = tab === 1 && currentTeam !== null;
  return (
    <PageBody>
      <PageTitle title={showTeam ? 'Team settings' : 'Profile settings'} />
      {/* On small screens the header has no room for the tabs: they sit on the page instead. */}
      <Box hiddenFrom="sm" mb="md">
        <SettingsTabs variant="page" />
      </Box>
      <Stack
        gap="lg"
        id={SETTINGS_PANEL_ID}
        role="tabpanel"
        aria-label={showTeam ? 'Team settings' : 'Profile settings'}
      >
        {showTeam ? <TeamSettings /> : <ProfileSettings />}
      </Stack>
    </PageBody>
  );
}

function useDeclineParams() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const done = useRef(false);
  const teamId = Number(params.get('teamId'));
  const teamDelete = params.get('teamDelete');
  const teamSuspended = params.get('teamSuspended');
  useEffect(() => {
    if (done.current || !Number.isInteger(teamId) || teamId <= 0) return;
    const call =
      teamDelete === 'decline'
        ? () => teamsApi.deleteCancel(teamId)
        : teamSuspended === 'decline'
          ? () => teamsApi.suspendRevoke(teamId)
          : null;
    if (!call) return;
    done.current = true;
    call()
      .then(() => invalidateTeams(queryClient))
      .catch(() => {})
      .finally(() => navigate(`${WEB_PATHS.settings}/`, { replace: true }));
  }, [teamId, teamDelete, teamSuspended, navigate, queryClient]);
}
