import { Tabs } from '@mantine/core';
import { useSession } from '../session/SessionProvider';
import { useSettingsTab } from './settingsTab';

/** The settings page's content: the tabs (in the header, or on the page on small screens) control it. */
export const SETTINGS_PANEL_ID = 'settings-panel';

/** "Profile settings" / "Team settings" (the latter only with a current team, spec §2 Header: the user's
 *  own or one a supervisor picked in Team Management). */
export function SettingsTabs({ variant }: { variant: 'header' | 'page' }) {
  const { currentTeam } = useSession();
  const [tab, setTab] = useSettingsTab();
  const value = currentTeam ? String(tab) : '0';
  return (
    <Tabs
      value={value}
      onChange={(v) => setTab(v === '1' ? 1 : 0)}
      h={variant === 'header' ? '100%' : undefined}
      styles={
        variant === 'header'
          ? {
              root: { display: 'flex', alignItems: 'flex-end' },
              list: { height: '100%' },
              tab: { height: '100%' },
            }
          : undefined
      }
    >
      <Tabs.List style={variant === 'header' ? { borderBottom: 0 } : undefined}>
        <Tabs.Tab value="0" aria-controls={SETTINGS_PANEL_ID}>
          Profile settings
        </Tabs.Tab>
        {currentTeam && (
          <Tabs.Tab value="1" aria-controls={SETTINGS_PANEL_ID}>
            Team settings
          </Tabs.Tab>
        )}
      </Tabs.List>
    </Tabs>
  );
}
