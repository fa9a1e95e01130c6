import { z } from 'zod';
import { ZId, ZMessage } from '../common.js';
import { endpoint } from '../endpoint.js';
import {
  ZChangeEmailRequest,
  ZChangeEmailResendRequest,
  ZChangeEmailRevokeRequest,
  ZChangePasswordRequest,
  ZDeleteInfoResponse,
  ZDeleteUserRequest,
  ZUserResendRequest,
  ZUserRevokeRequest,
} from '../self-service.js';
import { ZHashRequest } from '../team-management.js';

const tag = 'user';
const params = z.object({ id: ZId });

/** Account self-service: password, e-mail change, account deletion (spec §6 profile settings). */
export const ACCOUNT_ENDPOINTS = {
  changePassword: endpoint({
    method: 'POST',
    path: '/api/v1/profile_settings/user/:id/change_password',
    access: 'user',
    tag,
    params,
    body: ZChangePasswordRequest,
    response: ZMessage,
    errors: [400, 403],
  }),
  changeEmail: endpoint({
    method: 'POST',
    path: '/api/v1/profile_settings/user/:id/change_email',
    access: 'user',
    tag,
    params,
    body: ZChangeEmailRequest,
    response: ZMessage,
    errors: [400, 403, 409],
  }),
  changeEmailAccept: endpoint({
    method: 'POST',
    path: '/api/v1/profile_settings/change_email/accept',
    access: 'user',
    tag,
    body: ZHashRequest,
    response: ZMessage,
    errors: [400, 403, 404, 409],
  }),
  changeEmailResend: endpoint({
    method: 'POST',
    path: '/api/v1/profile_settings/change_email/resend',
    access: 'user',
    tag,
    body: ZChangeEmailResendRequest,
    response: ZMessage,
    errors: [400, 403, 409],
  }),
  changeEmailRevoke: endpoint({
    method: 'POST',
    path: '/api/v1/profile_settings/change_email/revoke',
    access: 'user',
    tag,
    body: ZChangeEmailRevokeRequest.nullish(),
    response: ZMessage,
    errors: [400, 409],
  }),
  deletionInfo: endpoint({
    method: 'POST',
    path: '/api/v1/user/:id/info_delete',
    access: 'user',
    tag,
    params,
    response: ZDeleteInfoResponse,
    errors: [400, 403],
  }),
  /** The mailed link's confirmation (the hash in the body). */
  deleteAccept: endpoint({
    method: 'DELETE',
    path: '/api/v1/user/accept',
    access: 'user',
    tag,
    body: ZHashRequest,
    response: ZMessage,
    errors: [400, 403, 404, 409],
  }),
  /** Asks for the deletion: the password, then a link by mail. */
  remove: endpoint({
    method: 'DELETE',
    path: '/api/v1/user/:id',
    access: 'user',
    tag,
    params,
    body: ZDeleteUserRequest,
    response: ZMessage,
    errors: [400, 403, 409],
  }),
  deleteResend: endpoint({
    method: 'POST',
    path: '/api/v1/user/:id/resend',
    access: 'user',
    tag,
    params,
    body: ZUserResendRequest,
    response: ZMessage,
    errors: [400, 403, 409],
  }),
  deleteRevoke: endpoint({
    method: 'POST',
    path: '/api/v1/user/:id/revoke',
    access: 'user',
    tag,
    params,
    body: ZUserRevokeRequest.nullish(),
    response: ZMessage,
    errors: [400, 403, 409],
  }),
} as const;
