import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { getToken } from './storage';

export const sessionKeys = {
  all: ['session'] as const,
  check: () => [...sessionKeys.all, 'check'] as const,
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
