import { useQuery } from '@tanstack/react-query';
import { keysRoot } from '../../../platform/queries/domains';
import { keysApi } from './api';

/** Query keys of the keys feature: mutations and live events 90–92 invalidate these. */
export const keyKeys = {
  all: keysRoot,
  list: (teamId: number) => [...keyKeys.all, 'list', teamId] as const,
  settings: (teamId: number, domainId: number, keyId: number) =>
    [...keyKeys.all, 'settings', teamId, domainId, keyId] as const,
  supervisor: (teamId: number, keyId: number, domainId: number | null) =>
    [...keyKeys.all, 'supervisor', teamId, keyId, domainId] as const,
};

/** POST /v1/keys/{teamId}: keys with status 10, 20, 30, 40 (team-wide ones included). */
export function useKeys(teamId: number | null) {
  return useQuery({
    queryKey: keyKeys.list(teamId ?? 0),
    queryFn: ({ signal }) => keysApi.list(teamId as number, signal),
    enabled: teamId !== null,
    select: (r) => r.data,
  });
}

/** The customer layer of a key's player settings (read-only on screen: the controls say "Soon..."). */
export function useKeySettings(teamId: number, domainId: number, keyId: number, enabled: boolean) {
  return useQuery({
    queryKey: keyKeys.settings(teamId, domainId, keyId),
    queryFn: ({ signal }) => keysApi.settings(teamId, domainId, keyId, signal),
    enabled,
    select: (r) => r.data,
  });
}

/** One ZSupervisorSettingRow per setting (supervisors). */
export function useSupervisorSettings(
  teamId: number,
  keyId: number,
  domainId: number | null,
  enabled: boolean,
) {
  return useQuery({
    queryKey: keyKeys.supervisor(teamId, keyId, domainId),
    queryFn: ({ signal }) => keysApi.supervisorSettings(teamId, keyId, domainId, signal),
    enabled,
    staleTime: 0,
    select: (r) => r.data,
  });
}
