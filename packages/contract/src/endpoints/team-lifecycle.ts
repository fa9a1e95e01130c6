import { z } from 'zod';
import { ZId, ZMessage } from '../common.js';
import { endpoint } from '../endpoint.js';
import {
  ZDeleteLockRequest,
  ZHashRequest,
  ZLinkPathsRequest,
  ZOptionalHashRequest,
  ZSuspendRequest,
} from '../team-management.js';

const tag = 'teams';
const params = z.object({ id: ZId });

/** A team's deletion and suspension: requested, confirmed by a mailed link, resent, cancelled. */
export const TEAM_LIFECYCLE_ENDPOINTS = {
  deleteLock: endpoint({
    method: 'POST',
    path: '/api/v1/teams/:id/delete/lock',
    access: 'user',
    action: 'team.deleteLock',
    tag,
    params,
    body: ZDeleteLockRequest,
    response: ZMessage,
    errors: [400, 403, 404],
  }),
  deleteResend: endpoint({
    method: 'POST',
    path: '/api/v1/teams/:id/delete/resend',
    access: 'user',
    action: 'team.deleteManage',
    tag,
    params,
    body: ZLinkPathsRequest,
    response: ZMessage,
    errors: [400, 403, 404],
  }),
  deleteCancel: endpoint({
    method: 'POST',
    path: '/api/v1/teams/:id/delete/cancel',
    access: 'user',
    action: 'team.deleteManage',
    tag,
    params,
    body: ZOptionalHashRequest.nullish(),
    response: ZMessage,
    errors: [400, 403, 404],
  }),
  deleteConfirm: endpoint({
    method: 'DELETE',
    path: '/api/v1/teams/delete/confirm',
    access: 'user',
    tag,
    body: ZHashRequest,
    response: ZMessage,
    errors: [400, 403, 404],
  }),
  /** Starts a suspension, or lifts it at once for a team already suspended. */
  suspend: endpoint({
    method: 'POST',
    path: '/api/v1/teams/:id/suspended',
    access: 'user',
    action: 'team.suspend',
    tag,
    params,
    body: ZSuspendRequest,
    response: ZMessage,
    errors: [400, 403, 404, 409],
  }),
  suspendResend: endpoint({
    method: 'POST',
    path: '/api/v1/teams/:id/suspended/resend',
    access: 'user',
    action: 'team.suspend',
    tag,
    params,
    body: ZLinkPathsRequest,
    response: ZMessage,
    errors: [400, 403, 404],
  }),
  suspendRevoke: endpoint({
    method: 'POST',
    path: '/api/v1/teams/:id/suspended/revoke',
    access: 'user',
    action: 'team.suspend',
    tag,
    params,
    body: ZOptionalHashRequest.nullish(),
    response: ZMessage,
    errors: [400, 403, 404],
  }),
  suspendConfirm: endpoint({
    method: 'PUT',
    path: '/api/v1/teams/suspended/confirm',
    access: 'user',
    tag,
    body: ZHashRequest,
    response: ZMessage,
    errors: [400, 403, 404],
  }),
} as const;
