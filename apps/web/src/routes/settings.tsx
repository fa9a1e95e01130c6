import { Box, Stack } from '@mantine/core';
import { ROUTE_NAMES } from '@tlprt/contract';
import { PageBody, PageTitle } from '../components/Page';
import { ProfileDetails } from '../features/profile/ProfileDetails';
import { useSession } from '../features/session/SessionProvider';
import { useRouteName } from '../features/session/useRouteName';
import { SettingsTabs } from '../features/settings/SettingsTabs';
import { useSettingsTab } from '../features/settings/settingsTab';
import { TeamSettings } from '../features/teams/TeamSettings';

/** /settings — tab 0 profile, tab 1 team (spec §2 Settings screen). */
export default function SettingsRoute() {
  useRouteName(ROUTE_NAMES.settings);
  const { teams } = useSession();
  const [tab] = useSettingsTab();
  const showTeam = tab === 1 && teams.length > 0;
  return (
    <PageBody>
      <PageTitle title={showTeam ? 'Team settings' : 'Profile settings'} />
      {/* On small screens the header has no room for the tabs: they sit on the page instead. */}
      <Box hiddenFrom="sm" mb="md">
        <SettingsTabs variant="page" />
      </Box>
      <Stack gap="lg">{showTeam ? <TeamSettings /> : <ProfileDetails />}</Stack>
    </PageBody>
  );
}
