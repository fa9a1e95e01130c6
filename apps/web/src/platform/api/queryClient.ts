import { QueryClient } from '@tanstack/react-query';

/** Errors are mapped to popups by the client (api/popups.ts); retrying would show them twice. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
