import { ENDPOINTS, SUPERVISOR_SET } from '@tlprt/contract';
import { request } from '../../../platform/api/client';

const E = ENDPOINTS.keys;
const S = ENDPOINTS.keySettings;

export type SupervisorLayer = 'team' | 'domain' | 'key';
export interface SupervisorSettingInput {
  id: number;
  value: number | null;
  settingOverwrite: 0 | 1;
}

/** Key and key-setting calls of docs/domains-and-keys.md. */
export const keysApi = {
  list: (teamId: number, signal?: AbortSignal) => request(E.list, { params: { teamId }, signal }),
  /** domainId 0: a key for every domain of the team. */
  create: (teamId: number, domainId: number, name?: string) =>
    request(E.create, { params: { teamId, domainId }, body: name ? { name } : {} }),
  rename: (teamId: number, id: number, name: string) =>
    request(E.rename, { params: { teamId, id }, body: { name } }),
  toggleActive: (teamId: number, id: number) => request(E.toggleActive, { params: { teamId, id } }),
  remove: (teamId: number, id: number) => request(E.remove, { params: { teamId, id } }),
  suspend: (teamId: number, id: number) => request(E.suspend, { params: { teamId, id } }),
  settings: (teamId: number, domainId: number, keyId: number, signal?: AbortSignal) =>
    request(S.read, { params: { teamId, domainId, keyId }, signal }),
  supervisorSettings: (teamId: number, keyId: number, domainId: number | null, signal?: AbortSignal) =>
    request(S.readSupervisor, {
      params: { teamId, keyId },
      query: { domainId: domainId ?? undefined },
      signal,
    }),
  setSupervisorSettings: (
    teamId: number,
    layer: SupervisorLayer,
    body: { domainId: number | null; keyId: number; teamId: number; settings: SupervisorSettingInput[] },
  ) => request(S[SUPERVISOR_SET[layer]], { params: { teamId }, body }),
};
