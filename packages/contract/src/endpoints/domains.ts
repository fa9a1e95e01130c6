import { ZMessage, ZTeamItemParams, ZTeamParams } from '../common.js';
import {
  ZCreateDomainRequest,
  ZCreateDomainResponse,
  ZDomainListResponse,
  ZDomainResponse,
  ZLegacyDomainListRequest,
  ZSetPlainHttpRequest,
  ZVerificationInstructionsResponse,
  ZVerifyDomainRequest,
  ZVerifyDomainResponse,
} from '../domains.js';
import { endpoint } from '../endpoint.js';

const tag = 'domains';

const legacyList = {
  method: 'POST',
  access: 'user',
  tag,
  body: ZLegacyDomainListRequest,
  response: ZDomainListResponse,
  errors: [400, 404],
} as const;

const create = {
  method: 'POST',
  access: 'user',
  action: 'domains.manage',
  tag,
  params: ZTeamParams,
  body: ZCreateDomainRequest,
  status: 201,
  response: ZCreateDomainResponse,
  errors: [400, 403, 404, 406, 409],
} as const;

/** Domains of a team (docs/domains-and-keys.md). */
export const DOMAIN_ENDPOINTS = {
  list: endpoint({
    method: 'POST',
    path: '/api/v1/domains/:teamId',
    access: 'user',
    tag,
    params: ZTeamParams,
    response: ZDomainListResponse,
    errors: [400, 404],
  }),
  /** The older form of spec §7 (POST /v1/cdn/): the same list, the team in the body. */
  legacyList: endpoint({ ...legacyList, path: '/api/v1/cdn/' }),
  /** The same without the trailing slash (the router tells the two apart). */
  legacyListNoSlash: endpoint({ ...legacyList, path: '/api/v1/cdn' }),
  create: endpoint({ ...create, path: '/api/v1/domains/create/:teamId' }),
  /** The older form of spec §7 (POST /v1/cdn/{teamId}/create). */
  legacyCreate: endpoint({ ...create, path: '/api/v1/cdn/:teamId/create' }),
  instructions: endpoint({
    method: 'GET',
    path: '/api/v1/domains/instructions/:teamId/:id',
    access: 'user',
    action: 'domains.manage',
    tag,
    params: ZTeamItemParams,
    response: ZVerificationInstructionsResponse,
    errors: [400, 403, 404],
  }),
  verify: endpoint({
    method: 'PUT',
    path: '/api/v1/domains/verify/:teamId/:id',
    access: 'user',
    action: 'domains.manage',
    tag,
    params: ZTeamItemParams,
    body: ZVerifyDomainRequest,
    response: ZVerifyDomainResponse,
    errors: [400, 403, 404],
  }),
  /** A verified draft moves to My domains. */
  promote: endpoint({
    method: 'GET',
    path: '/api/v1/domains/update_draft/:teamId/:id',
    access: 'user',
    action: 'domains.manage',
    tag,
    params: ZTeamItemParams,
    response: ZDomainResponse,
    errors: [400, 403, 404, 409],
  }),
  toggleActive: endpoint({
    method: 'GET',
    path: '/api/v1/domains/update_active/:teamId/:id',
    access: 'user',
    action: 'domains.manage',
    tag,
    params: ZTeamItemParams,
    response: ZDomainResponse,
    errors: [400, 403, 404, 409],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/v1/domains/:teamId/:id',
    access: 'user',
    action: 'domains.manage',
    tag,
    params: ZTeamItemParams,
    response: ZMessage,
    errors: [400, 403, 404],
  }),
  suspend: endpoint({
    method: 'POST',
    path: '/api/v1/domains/suspended/:teamId/:id',
    access: 'user',
    action: 'domains.supervise',
    tag,
    params: ZTeamItemParams,
    response: ZDomainResponse,
    errors: [400, 403, 404],
  }),
  /** The "Plain HTTP pages" option of a promoted domain (not a draft: 409). */
  setPlainHttp: endpoint({
    method: 'PUT',
    path: '/api/v1/domains/plain_http/:teamId/:id',
    access: 'user',
    action: 'domains.manage',
    tag,
    params: ZTeamItemParams,
    body: ZSetPlainHttpRequest,
    response: ZDomainResponse,
    errors: [400, 403, 404, 409],
  }),
} as const;
