import { ActionIcon, Anchor, Avatar, Box, Burger, Group, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { WEB_PATHS } from '@tlprt/contract';
import { Link, useLocation } from 'react-router';
import { DraftNav } from '../../features/domains/DraftNav';
import { WIDE_QUERY } from '../../features/statistics/StatisticsScreen';
import { StatsTabs } from '../../features/statistics/StatsTabs';
import { GUIDE_URL } from '../../platform/config';
import { useRoleRights } from '../../platform/session/policy';
import { useSession } from '../../platform/session/SessionProvider';
import { SettingsTabs } from '../../platform/settings/SettingsTabs';
import { ProfileAvatar } from '../../platform/ui/avatars';
import { IconBook } from '../../platform/ui/icons';
import { Logo, LogoMark } from '../../platform/ui/Logo';
import { ColorSchemeMenu } from './ColorSchemeMenu';

function initials(name: string, surname: string, email: string): string {
  const a = name.trim()[0] ?? '';
  const b = surname.trim()[0] ?? '';
  return (a + b || email[0] || '?').toUpperCase();
}

/** Header of spec §2: per-screen content (settings tabs), docs link, avatar link to /settings. */
export function Header({ navOpened, toggleNav }: { navOpened: boolean; toggleNav: () => void }) {
  const { user, currentTeam } = useSession();
  const rights = useRoleRights();
  const { pathname } = useLocation();
  const at = (path: string) => pathname === path || pathname === `${path}/`;
  const onSettings = at(WEB_PATHS.settings);
  const onAddDomains = at(WEB_PATHS.addDomains) && currentTeam !== null && rights.managesDomains;
  // Narrow screens show the statistics lists on the page itself (only one tab bar is mounted).
  const wide = useMediaQuery(WIDE_QUERY, false, { getInitialValueInEffect: false });
  const onStatistics = at(WEB_PATHS.statistics) && currentTeam !== null && wide;
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="md">
      <Group gap="md" wrap="nowrap" miw={0} h="100%" style={{ flex: 1 }}>
        <Burger
          opened={navOpened}
          onClick={toggleNav}
          hiddenFrom="sm"
          size="sm"
          aria-label="Toggle navigation"
        />
        <Anchor
          component={Link}
          // Statistics is home for anyone in a team; without one there is nothing to chart yet.
          to={currentTeam ? WEB_PATHS.statistics : WEB_PATHS.settings}
          underline="never"
          aria-label="Home"
          w={{ sm: 228 }}
        >
          <Box visibleFrom="xs">
            <Logo size={28} />
          </Box>
          <Box hiddenFrom="xs" style={{ display: 'flex' }}>
            <LogoMark size={30} />
          </Box>
        </Anchor>
        {onSettings && (
          <Box visibleFrom="sm" h="100%">
            <SettingsTabs variant="header" />
          </Box>
        )}
        {onStatistics && (
          <Box h="100%" miw={0} style={{ flex: 1, display: 'flex', alignItems: 'center' }}>
            <StatsTabs variant="header" />
          </Box>
        )}
        {onAddDomains && (
          <Box visibleFrom="sm" h="100%" miw={0} style={{ flex: 1 }}>
            <DraftNav variant="header" />
          </Box>
        )}
      </Group>
      <Group gap="xs" wrap="nowrap">
        <ColorSchemeMenu />
        <Tooltip label="Documentation">
          <ActionIcon
            component="a"
            href={GUIDE_URL}
            target="_blank"
            rel="noreferrer"
            variant="subtle"
            color="gray"
            size="lg"
            aria-label="Documentation"
          >
            <IconBook size={20} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Profile">
          <Anchor
            component={Link}
            to={WEB_PATHS.settings}
            aria-label="Your profile"
            style={{ borderRadius: '50%' }}
          >
            {user.image > 0 ? (
              <ProfileAvatar image={user.image} size={34} />
            ) : (
              <Avatar color="brand" radius="xl" size={34}>
                {initials(user.name, user.surname, user.email)}
              </Avatar>
            )}
          </Anchor>
        </Tooltip>
      </Group>
    </Group>
  );
}
