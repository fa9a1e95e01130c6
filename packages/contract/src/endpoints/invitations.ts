import { z } from 'zod';
import { ZHash, ZId, ZMessage, ZTeamParams } from '../common.js';
import { endpoint } from '../endpoint.js';
import {
  ZInvitationCreateRequest,
  ZInvitationListResponse,
  ZInvitationResendRequest,
  ZInviteAcceptResponse,
  ZInviteNewAccountRequest,
} from '../invitations.js';

const tag = 'invitations';
const one = z.object({ teamId: ZId, inviteId: ZId });
const byHash = z.object({ hash: ZHash });

/** Team invitations: sent and managed by signed-in users, answered from the mailed link. */
export const INVITATION_ENDPOINTS = {
  create: endpoint({
    method: 'POST',
    path: '/api/v1/teams/:teamId/invitation/create',
    access: 'user',
    action: 'team.invite',
    tag,
    params: ZTeamParams,
    body: ZInvitationCreateRequest,
    status: 201,
    response: ZMessage,
    errors: [400, 403, 404, 409],
  }),
  search: endpoint({
    method: 'POST',
    path: '/api/v1/teams/:teamId/invitation/search',
    access: 'user',
    action: 'team.searchInvitations',
    tag,
    params: ZTeamParams,
    response: ZInvitationListResponse,
    errors: [400, 403, 404],
  }),
  /** The caller's own pending invitations. */
  mine: endpoint({
    method: 'POST',
    path: '/api/v1/user/invitation/search',
    access: 'user',
    tag,
    response: ZInvitationListResponse,
    errors: [],
  }),
  accept: endpoint({
    method: 'PUT',
    path: '/api/v1/teams/:teamId/invitation/:inviteId',
    access: 'user',
    tag,
    params: one,
    response: ZInviteAcceptResponse,
    errors: [400, 404],
  }),
  /** The invited user declines, or an admin or the inviter revokes. */
  cancel: endpoint({
    method: 'DELETE',
    path: '/api/v1/teams/:teamId/invitation/:inviteId',
    access: 'user',
    tag,
    params: one,
    response: ZMessage,
    errors: [400, 403, 404],
  }),
  resend: endpoint({
    method: 'POST',
    path: '/api/v1/teams/:teamId/invitation/:inviteId/resend',
    access: 'user',
    tag,
    params: one,
    body: ZInvitationResendRequest,
    response: ZMessage,
    errors: [400, 403, 404],
  }),
  /** From the mailed link: a new account's password in the body; an existing account sends its
   *  bearer token (optional for the call, so checked by the handler: a bad one is a 401). */
  acceptByLink: endpoint({
    method: 'PUT',
    path: '/auth/guest/invitation/:hash',
    access: 'guest',
    tag,
    params: byHash,
    body: ZInviteNewAccountRequest.nullish(),
    response: ZInviteAcceptResponse,
    errors: [400, 401, 403, 404, 409],
  }),
  declineByLink: endpoint({
    method: 'DELETE',
    path: '/auth/guest/invitation/:hash',
    access: 'guest',
    tag,
    params: byHash,
    response: ZMessage,
    errors: [400, 404],
  }),
} as const;
