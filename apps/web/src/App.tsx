import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { queryClient } from './api/queryClient';
import { AppModalsProvider } from './components/AppModals';
import { createAppRouter } from './router';
import { cssVariablesResolver, theme } from './theme';

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <AppModalsProvider>
          <RouterProvider router={router} />
        </AppModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
