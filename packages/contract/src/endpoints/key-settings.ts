import { z } from 'zod';
import { ZId, ZIdOrZero, ZMessage, ZTeamParams } from '../common.js';
import {
  ZKeySettingsResponse,
  ZPublicKeySettingsResponse,
  ZSetKeySettingsRequest,
  ZSetSupervisorSettingsRequest,
  ZSupervisorSettingsResponse,
} from '../domains.js';
import { endpoint } from '../endpoint.js';
import { PLAYER_API_PATHS } from '../player.js';

const tag = 'key settings';
const ZCustomerParams = z.object({ teamId: ZId, domainId: ZIdOrZero, keyId: ZId });
/** `?domainId=` empty means no domain context. */
const ZOptionalDomainId = z.preprocess(
  (v) => (v === '' || v === 'null' ? undefined : v),
  ZIdOrZero.optional(),
);

/** One supervisor layer's write: the team, domain or key layer (the body names the domain or key). */
const setSupervisor = {
  method: 'POST',
  access: 'user',
  action: 'domains.supervise',
  tag,
  params: ZTeamParams,
  body: ZSetSupervisorSettingsRequest,
  response: ZMessage,
  errors: [400, 403, 404],
} as const;

/** Player settings of a key: the customer layer, the supervisor layers and what the plugin reads. */
export const KEY_SETTING_ENDPOINTS = {
  read: endpoint({
    method: 'GET',
    path: '/api/v1/key_settings/team/:teamId/domain/:domainId/key/:keyId/get',
    access: 'user',
    action: 'statistics.read',
    tag,
    params: ZCustomerParams,
    response: ZKeySettingsResponse,
    errors: [400, 404],
  }),
  write: endpoint({
    method: 'POST',
    path: '/api/v1/key_settings/team/:teamId/domain/:domainId/key/:keyId/set',
    access: 'user',
    action: 'keys.manage',
    tag,
    params: ZCustomerParams,
    body: ZSetKeySettingsRequest,
    response: ZKeySettingsResponse,
    errors: [400, 403, 404],
  }),
  /** Every layer of every setting (the team's supervisor table; strangers get 404, not 403). */
  readSupervisor: endpoint({
    method: 'GET',
    path: '/api/v1/key_settings/team/:teamId/domain/key/:keyId/get_supervisor',
    access: 'user',
    action: 'domains.superviseRead',
    tag,
    params: z.object({ teamId: ZId, keyId: ZId }),
    query: z.object({ domainId: ZOptionalDomainId }),
    response: ZSupervisorSettingsResponse,
    errors: [400, 403, 404],
  }),
  setSupervisorByKey: endpoint({
    ...setSupervisor,
    path: '/api/v1/key_settings/team/:teamId/set_supervisor_by_key',
  }),
  setSupervisorByTeam: endpoint({
    ...setSupervisor,
    path: '/api/v1/key_settings/team/:teamId/set_supervisor_by_team',
  }),
  setSupervisorByDomain: endpoint({
    ...setSupervisor,
    path: '/api/v1/key_settings/team/:teamId/set_supervisor_by_domain',
  }),
  /** What the player plugin reads at attach (404: the key is not usable on that page). */
  publicRead: endpoint({
    method: 'GET',
    path: PLAYER_API_PATHS.settings,
    access: 'player',
    tag,
    // Any text up to 200: a hash no key can have is "not usable" like any other (404, CDN only).
    params: z.object({ keyHash: z.string().min(1).max(200) }),
    response: ZPublicKeySettingsResponse,
    errors: [400, 404],
    perAddressLimit: 'playerSettingsPerMinute',
  }),
} as const;

/** The supervisor's write of each layer (docs/DESIGN.md §11: key, team and domain overrides). */
export const SUPERVISOR_SET = {
  key: 'setSupervisorByKey',
  team: 'setSupervisorByTeam',
  domain: 'setSupervisorByDomain',
} as const satisfies Record<string, keyof typeof KEY_SETTING_ENDPOINTS>;
