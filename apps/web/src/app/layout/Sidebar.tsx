import { NavLink, ScrollArea, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { WEB_PATHS } from '@tlprt/contract';
import { Link, useLocation } from 'react-router';
import { TeamManagementButton } from '../../features/team-management/TeamManagementButton';
import { TeamSwitcher } from '../../features/teams/TeamSwitcher';
import { api } from '../../platform/api/client';
import { endSession } from '../../platform/api/navigation';
import { useRoleRights } from '../../platform/session/policy';
import { useSession } from '../../platform/session/SessionProvider';
import { IconBell, IconChart, IconLogout, IconPlug, IconSettings } from '../../platform/ui/icons';

/** The Integration group's links, in the sidebar's order. */
const INTEGRATION_LINKS = [
  [WEB_PATHS.integration, 'My domains'],
  [WEB_PATHS.addDomains, 'Add domains'],
  [WEB_PATHS.origins, 'Origins'],
] as const;

/** Sidebar of spec §2: team block, Statistics, Alerts (docs/DESIGN.md §13), Integration (My domains, Add domains, Origins), Settings, Logout. */
export function Sidebar({ onNavigate }: { onNavigate: () => void }) {
  const { currentTeam } = useSession();
  const rights = useRoleRights();
  const { pathname } = useLocation();
  // The token is dropped locally whatever the server answers.
  const logout = useMutation({ mutationFn: () => api.logout(), onSettled: endSession });
  const at = (path: string) => pathname === path || pathname === `${path}/`;
  // A supervisor working in a team picked in Team Management has no team of their own, but a current one.
  const showStatistics = currentTeam !== null;
  const showIntegration = currentTeam !== null && rights.managesDomains;
  const inIntegration = INTEGRATION_LINKS.some(([path]) => at(path));

  return (
    <Stack h="100%" gap="md" justify="space-between">
      <Stack gap="md" style={{ minHeight: 0, flex: 1 }}>
        <TeamSwitcher onSelected={onNavigate} />
        <TeamManagementButton onOpen={onNavigate} />
        <ScrollArea style={{ flex: 1 }} type="auto">
          <nav aria-label="Main">
            <Stack gap={4}>
              {showStatistics && (
                <NavLink
                  component={Link}
                  to={WEB_PATHS.statistics}
                  label="Statistics"
                  leftSection={<IconChart />}
                  active={at(WEB_PATHS.statistics)}
                  onClick={onNavigate}
                  style={{ borderRadius: 8 }}
                />
              )}
              {showStatistics && (
                <NavLink
                  component={Link}
                  to={WEB_PATHS.alerts}
                  label="Alerts"
                  leftSection={<IconBell />}
                  active={at(WEB_PATHS.alerts)}
                  onClick={onNavigate}
                  style={{ borderRadius: 8 }}
                />
              )}
              {showIntegration && (
                <NavLink
                  label="Integration"
                  leftSection={<IconPlug />}
                  defaultOpened
                  active={inIntegration}
                  variant="subtle"
                  style={{ borderRadius: 8 }}
                >
                  {INTEGRATION_LINKS.map(([path, label]) => (
                    <NavLink
                      key={path}
                      component={Link}
                      to={path}
                      label={label}
                      active={at(path)}
                      onClick={onNavigate}
                      style={{ borderRadius: 8 }}
                    />
                  ))}
                </NavLink>
              )}
              <NavLink
                component={Link}
                to={WEB_PATHS.settings}
                label="Settings"
                leftSection={<IconSettings />}
                active={at(WEB_PATHS.settings)}
                onClick={onNavigate}
                style={{ borderRadius: 8 }}
              />
            </Stack>
          </nav>
        </ScrollArea>
      </Stack>
      <NavLink
        component="button"
        label={logout.isPending ? 'Logging out…' : 'Logout'}
        aria-label="Logout"
        leftSection={<IconLogout />}
        onClick={() => logout.mutate()}
        disabled={logout.isPending}
        style={{ borderRadius: 8 }}
      />
    </Stack>
  );
}
