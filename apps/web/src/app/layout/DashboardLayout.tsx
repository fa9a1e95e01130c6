import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LiveProvider } from '../../platform/live/LiveProvider';
import { SessionProvider } from '../../platform/session/SessionProvider';
import { getToken, loginReturningTo } from '../../platform/session/storage';
import { LiveReactions } from '../live/reactions';
import { Header } from './Header';
import { Sidebar } from './Sidebar';

/** Shared layout of the authenticated routes (spec §2): guard, session check, live stream, shell. A
 *  signed-out visitor goes to the login screen, which brings them back to the address they opened. */
export function DashboardLayout() {
  const { pathname, search, hash } = useLocation();
  if (!getToken()) return <Navigate to={loginReturningTo(`${pathname}${search}${hash}`)} replace />;
  return (
    <SessionProvider>
      <LiveProvider>
        <LiveReactions />
        <Shell />
      </LiveProvider>
    </SessionProvider>
  );
}

function Shell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'md', sm: 'xl' }}
    >
      <AppShell.Header>
        <Header navOpened={opened} toggleNav={toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="md" aria-label="Sidebar">
        <Sidebar onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main bg="var(--app-bg)">
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
