import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { STORAGE_KEYS } from '@tlprt/contract';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { queryClient } from '../platform/api/queryClient';
import { AppModalsProvider } from '../platform/ui/AppModals';
import { createAppRouter } from './router';
import { cssVariablesResolver, theme } from './theme';

/** The header's light / dark / system choice, kept in localStorage; none stored = follow the browser. */
const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.colorScheme });

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
    >
      <QueryClientProvider client={queryClient}>
        <AppModalsProvider>
          <RouterProvider router={router} />
        </AppModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
