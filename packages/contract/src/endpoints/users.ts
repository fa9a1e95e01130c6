import { z } from 'zod';
import { ZId } from '../common.js';
import { endpoint } from '../endpoint.js';
import { ZUserSearchRequest, ZUserSearchResponse } from '../self-service.js';
import { ZUpdateUserRequest, ZUserResponse } from '../user.js';

const tag = 'user';
const params = z.object({ id: ZId });

/** Users: the supervisors' search and one user's profile. */
export const USER_ENDPOINTS = {
  /** Supervisors only, but refused with the policy's own message: the service checks it (`user`). */
  search: endpoint({
    method: 'POST',
    path: '/api/v1/user',
    access: 'user',
    tag,
    body: ZUserSearchRequest.nullish(),
    response: ZUserSearchResponse,
    errors: [400, 403],
  }),
  read: endpoint({
    method: 'GET',
    path: '/api/v1/user/:id',
    access: 'user',
    tag,
    params,
    response: ZUserResponse,
    errors: [400, 403, 404],
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/v1/user/:id',
    access: 'user',
    tag,
    params,
    body: ZUpdateUserRequest,
    response: ZUserResponse,
    errors: [400, 403, 404],
  }),
} as const;
