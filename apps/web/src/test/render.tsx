import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { theme } from '../app/theme';
import { queryClient } from '../platform/api/queryClient';
import { AppModalsProvider } from '../platform/ui/AppModals';

function Where() {
  const { pathname } = useLocation();
  return <div data-testid="location">{pathname}</div>;
}

/**
 * Renders `ui` at `path` with the app's providers; any navigation lands on a page showing its path.
 * `pattern` is the route pattern when the screen reads params (e.g. "/changeEmail/:hash").
 */
export function renderScreen(ui: ReactElement, path = '/', pattern?: string) {
  // A test may render a second screen: it replaces the first, as the app has one modals manager.
  cleanup();
  queryClient.clear();
  const router = createMemoryRouter(
    [
      { path: pattern ?? path.split('?')[0], element: ui },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <AppModalsProvider>
          <RouterProvider router={router} />
        </AppModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, router };
}
