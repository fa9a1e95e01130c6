import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { WEB_PATHS } from '@tlprt/contract';
import { Navigate, Outlet } from 'react-router';
import { LiveProvider } from '../../platform/live/LiveProvider';
import { SessionProvider } from '../../platform/session/SessionProvider';
import { getToken } from '../../platform/session/storage';
import { LiveReactions } from '../live/reactions';
import { Header } from './Header';
import { Sidebar } from './Sidebar';

/** Shared layout of the authenticated routes (spec §2): guard, session check, live stream, shell. */
export function DashboardLayout() {
  if (!getToken()) return <Navigate to={WEB_PATHS.login} replace />;
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
