import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { getToken } from './storage';

export const sessionKeys = {
  all: ['session'] as const,
  check: () => [...sessionKeys.all, 'check'] as const,
  serverTime: () => [...sessionKeys.all, 'serverTime'] as const,
};

/** GET /auth/v1/check: who is signed in, with their teams (TeamsRender). 401 ends the session. */
export function useSessionCheck() {
  return useQuery({
    queryKey: sessionKeys.check(),
    queryFn: api.check,
    enabled: getToken() !== null,
    select: (r) => r.data,
  });
}

/**
 * How far the server's clock is ahead of this browser's, in ms (spec §7: statistics windows end at
 * server time). Asked once per session; the midpoint of the request stands for the moment the server
 * read its clock. Undefined until known; 0 when the call fails, so the screen still works on the
 * browser's clock.
 */
export function useServerClockOffset(): number | undefined {
  const query = useQuery({
    queryKey: sessionKeys.serverTime(),
    queryFn: async ({ signal }) => {
      const sent = Date.now();
      try {
        const r = await api.serverTime(signal);
        return r.data.timestamp * 1000 - (sent + Date.now()) / 2;
      } catch (e) {
        if (signal.aborted) throw e;
        return 0;
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
  return query.data;
}
