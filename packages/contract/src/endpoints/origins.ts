import { ZMessage, ZTeamItemParams, ZTeamParams } from '../common.js';
import { ZCreateOriginRequest, ZOriginListResponse, ZOriginResponse } from '../domains.js';
import { endpoint } from '../endpoint.js';

const tag = 'origins';

/** A team's origins. */
export const ORIGIN_ENDPOINTS = {
  list: endpoint({
    method: 'GET',
    path: '/api/v1/origins/:teamId',
    access: 'user',
    action: 'statistics.read',
    tag,
    params: ZTeamParams,
    response: ZOriginListResponse,
    errors: [400, 404],
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/v1/origins/:teamId',
    access: 'user',
    action: 'domains.manage',
    tag,
    params: ZTeamParams,
    body: ZCreateOriginRequest,
    status: 201,
    response: ZOriginResponse,
    /** 400: not a bare host; 409: the team has this host already (both name `name`). */
    errors: [400, 403, 404, 409],
  }),
  toggle: endpoint({
    method: 'GET',
    path: '/api/v1/origins/:teamId/:id/toggle',
    access: 'user',
    action: 'domains.manage',
    tag,
    params: ZTeamItemParams,
    response: ZOriginResponse,
    errors: [400, 403, 404],
  }),
  /** Fetches the Origin's verification file from its host (https, then http) and marks it verified
   *  when the file holds its content; 400 with the URL otherwise. */
  verify: endpoint({
    method: 'POST',
    path: '/api/v1/origins/:teamId/:id/verify',
    access: 'user',
    action: 'domains.manage',
    tag,
    params: ZTeamItemParams,
    response: ZOriginResponse,
    errors: [400, 403, 404],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/v1/origins/:teamId/:id',
    access: 'user',
    action: 'domains.manage',
    tag,
    params: ZTeamItemParams,
    response: ZMessage,
    errors: [400, 403, 404],
  }),
} as const;
