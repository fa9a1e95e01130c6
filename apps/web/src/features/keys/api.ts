import {
  API,
  ZKeyListResponse,
  ZKeyResponse,
  ZKeySettingsResponse,
  ZMessage,
  ZSupervisorSettingsResponse,
} from '@tlprt/contract';
import { call } from '../../api/client';

export type SupervisorLayer = 'team' | 'domain' | 'key';
export interface SupervisorSettingInput {
  id: number;
  value: number | null;
  settingOverwrite: 0 | 1;
}

/** Key and key-setting calls of docs/domains-and-keys.md. */
export const keysApi = {
  list: (teamId: number, signal?: AbortSignal) =>
    call({ method: 'POST', path: API.keys.list(teamId), schema: ZKeyListResponse, auth: 'bearer', signal }),
  /** domainId 0: a key for every domain of the team. */
  create: (teamId: number, domainId: number, name?: string) =>
    call({
      method: 'POST',
      path: API.keys.create(teamId, domainId),
      body: name ? { name } : {},
      schema: ZKeyResponse,
      auth: 'bearer',
    }),
  rename: (teamId: number, id: number, name: string) =>
    call({ method: 'PUT', path: API.keys.one(teamId, id), body: { name }, schema: ZMessage, auth: 'bearer' }),
  toggleActive: (teamId: number, id: number) =>
    call({ path: API.keys.toggleActive(teamId, id), schema: ZMessage, auth: 'bearer' }),
  remove: (teamId: number, id: number) =>
    call({ method: 'DELETE', path: API.keys.one(teamId, id), schema: ZMessage, auth: 'bearer' }),
  suspend: (teamId: number, id: number) =>
    call({ method: 'POST', path: API.keys.suspend(teamId, id), schema: ZMessage, auth: 'bearer' }),
  settings: (teamId: number, domainId: number, keyId: number, signal?: AbortSignal) =>
    call({
      path: API.keys.settingsGet(teamId, domainId, keyId),
      schema: ZKeySettingsResponse,
      auth: 'bearer',
      signal,
    }),
  supervisorSettings: (teamId: number, keyId: number, domainId: number | null, signal?: AbortSignal) =>
    call({
      path: API.keys.supervisorGet(teamId, keyId, domainId),
      schema: ZSupervisorSettingsResponse,
      auth: 'bearer',
      signal,
    }),
  setSupervisorSettings: (
    teamId: number,
    layer: SupervisorLayer,
    body: { domainId: number | null; keyId: number; teamId: number; settings: SupervisorSettingInput[] },
  ) =>
    call({
      method: 'POST',
      path: API.keys.supervisorSet(teamId, layer),
      body,
      schema: ZMessage,
      auth: 'bearer',
    }),
};
