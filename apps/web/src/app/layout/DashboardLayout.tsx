import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
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

/** The id of the authenticated layout's main element: the skip link's target. */
export const MAIN_ID = 'main-content';
export const SKIP_LINK_TEXT = 'Skip to main content';

/**
 * The first focusable element of every authenticated screen: past the header's and sidebar's controls
 * straight to the screen. Hidden until focused. The click moves focus itself rather than following the
 * fragment, which would put "#main-content" into an address other screens keep their state in.
 */
function SkipLink() {
  const [focused, setFocused] = useState(false);
  return (
    <a
      href={`#${MAIN_ID}`}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      onClick={(e) => {
        const main = document.getElementById(MAIN_ID);
        if (!main) return;
        e.preventDefault();
        main.focus();
        main.scrollIntoView?.({ block: 'start' });
      }}
      style={
        focused
          ? {
              position: 'fixed',
              top: 8,
              left: 8,
              zIndex: 1000,
              padding: '8px 14px',
              borderRadius: 6,
              background: 'var(--mantine-color-body)',
              color: 'var(--mantine-color-text)',
              boxShadow: 'var(--mantine-shadow-md)',
              fontWeight: 600,
            }
          : {
              position: 'absolute',
              width: 1,
              height: 1,
              overflow: 'hidden',
              clip: 'rect(0 0 0 0)',
              clipPath: 'inset(50%)',
              whiteSpace: 'nowrap',
            }
      }
    >
      {SKIP_LINK_TEXT}
    </a>
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
      <SkipLink />
      <AppShell.Header>
        <Header navOpened={opened} toggleNav={toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="md" aria-label="Sidebar">
        <Sidebar onNavigate={close} />
      </AppShell.Navbar>
      {/* Focusable from the skip link only; its own outline would frame the whole screen. */}
      <AppShell.Main bg="var(--app-bg)" id={MAIN_ID} tabIndex={-1} style={{ outline: 'none' }}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
