import { z } from 'zod';
import {
  ZCheckHashResponse,
  ZLoginRequest,
  ZLoginResponse,
  ZPasswordRecoveryAcceptRequest,
  ZRecoveryRequest,
  ZRegisterRequest,
  ZSetNewPasswordRequest,
} from '../auth.js';
import { ZHash, ZMessage } from '../common.js';
import { endpoint } from '../endpoint.js';
import { ZCheckResponse } from '../user.js';

const tag = 'auth';

/** Sign-in, sign-up, password recovery and the session (spec §7 Auth). */
export const AUTH_ENDPOINTS = {
  login: endpoint({
    method: 'POST',
    path: '/auth/guest/auth',
    access: 'guest',
    tag,
    body: ZLoginRequest,
    response: ZLoginResponse,
    errors: [400, 401],
  }),
  register: endpoint({
    method: 'POST',
    path: '/auth/guest/register',
    access: 'guest',
    tag,
    body: ZRegisterRequest,
    status: 201,
    response: ZMessage,
    errors: [400],
  }),
  recoveryPassword: endpoint({
    method: 'POST',
    path: '/auth/guest/recovery-password',
    access: 'guest',
    tag,
    body: ZRecoveryRequest,
    response: ZMessage,
    errors: [400],
  }),
  setNewPassword: endpoint({
    method: 'POST',
    path: '/auth/guest/set-new-password',
    access: 'guest',
    tag,
    body: ZSetNewPasswordRequest,
    response: ZLoginResponse,
    errors: [400, 404],
  }),
  passwordRecoveryAccept: endpoint({
    method: 'POST',
    path: '/auth/guest/password-recovery-accept',
    access: 'guest',
    tag,
    body: ZPasswordRecoveryAcceptRequest,
    response: ZLoginResponse,
    errors: [400, 404],
  }),
  /** A dead link answers 404 with the same shape (no `data`), so a link screen reads one body. */
  checkHash: endpoint({
    method: 'GET',
    path: '/auth/guest/check_hash/:hash',
    access: 'guest',
    tag,
    params: z.object({ hash: ZHash }),
    response: ZCheckHashResponse,
    errors: [400],
    otherResponses: { 404: ZCheckHashResponse },
  }),
  logout: endpoint({
    method: 'GET',
    path: '/auth/v1/logout',
    access: 'user',
    tag,
    response: ZMessage,
    errors: [],
  }),
  check: endpoint({
    method: 'GET',
    path: '/auth/v1/check',
    access: 'user',
    tag,
    response: ZCheckResponse,
    errors: [],
  }),
} as const;
