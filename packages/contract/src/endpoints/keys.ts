import { z } from 'zod';
import { ZId, ZIdOrZero, ZMessage, ZTeamItemParams, ZTeamParams } from '../common.js';
import { ZCreateKeyRequest, ZKeyListResponse, ZKeyResponse, ZRenameKeyRequest } from '../domains.js';
import { endpoint } from '../endpoint.js';

const tag = 'keys';

/** Access keys of a team (docs/domains-and-keys.md). */
export const KEY_ENDPOINTS = {
  /** domainId 0: a key for every domain of the team. */
  create: endpoint({
    method: 'POST',
    path: '/api/v1/keys/create/:teamId/:domainId',
    access: 'user',
    action: 'keys.manage',
    tag,
    params: z.object({ teamId: ZId, domainId: ZIdOrZero }),
    body: ZCreateKeyRequest.nullish(),
    status: 201,
    response: ZKeyResponse,
    errors: [400, 403, 404, 409],
  }),
  list: endpoint({
    method: 'POST',
    path: '/api/v1/keys/:teamId',
    access: 'user',
    action: 'statistics.read',
    tag,
    params: ZTeamParams,
    response: ZKeyListResponse,
    errors: [400, 404],
  }),
  read: endpoint({
    method: 'GET',
    path: '/api/v1/keys/:teamId/:id',
    access: 'user',
    action: 'statistics.read',
    tag,
    params: ZTeamItemParams,
    response: ZKeyResponse,
    errors: [400, 404],
  }),
  rename: endpoint({
    method: 'PUT',
    path: '/api/v1/keys/:teamId/:id',
    access: 'user',
    action: 'keys.manage',
    tag,
    params: ZTeamItemParams,
    body: ZRenameKeyRequest,
    response: ZKeyResponse,
    errors: [400, 403, 404],
  }),
  toggleActive: endpoint({
    method: 'GET',
    path: '/api/v1/keys/active_key/:teamId/:id',
    access: 'user',
    action: 'keys.manage',
    tag,
    params: ZTeamItemParams,
    response: ZKeyResponse,
    errors: [400, 403, 404],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/v1/keys/:teamId/:id',
    access: 'user',
    action: 'keys.manage',
    tag,
    params: ZTeamItemParams,
    response: ZMessage,
    errors: [400, 403, 404],
  }),
  suspend: endpoint({
    method: 'POST',
    path: '/api/v1/keys/suspended/:teamId/:id',
    access: 'user',
    action: 'domains.supervise',
    tag,
    params: ZTeamItemParams,
    response: ZKeyResponse,
    errors: [400, 403, 404],
  }),
} as const;
