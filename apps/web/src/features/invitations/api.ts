import {
  API,
  linkBases,
  type TInviteNewAccountRequest,
  ZInvitationListResponse,
  ZInviteAcceptResponse,
  ZMessage,
} from '@tlprt/contract';
import { call } from '../../api/client';

/** The three link bases of an invitation mail (spec §2 "Links placed in e-mails"). */
function inviteLinks() {
  const b = linkBases(window.location.origin);
  return { accept_new_user_url: b.inviteNew, accept_url: b.inviteOld, decline_url: b.inviteDecline };
}

/** Invitation calls of spec §7 "Invitations". */
export const invitationsApi = {
  mine: () =>
    call({
      method: 'POST',
      path: API.users.invitations,
      body: {},
      schema: ZInvitationListResponse,
      auth: 'bearer',
    }),
  ofTeam: (teamId: number) =>
    call({
      method: 'POST',
      path: API.invitations.search(teamId),
      body: {},
      schema: ZInvitationListResponse,
      auth: 'bearer',
    }),
  /** Failures are shown in the invitation result modal, not as a popup (except 401/403/5xx). */
  create: (teamId: number, invited_email: string, role: number) =>
    call({
      method: 'POST',
      path: API.invitations.create(teamId),
      body: { invited_email, role, teamId, ...inviteLinks() },
      schema: ZMessage,
      auth: 'bearer',
    }),
  accept: (teamId: number, inviteId: number) =>
    call({
      method: 'PUT',
      path: API.invitations.one(teamId, inviteId),
      schema: ZMessage,
      auth: 'bearer',
      popups: false,
    }),
  /** The invited user declines, or an admin / the inviting Key master revokes. */
  cancel: (teamId: number, inviteId: number, popups = true) =>
    call({
      method: 'DELETE',
      path: API.invitations.one(teamId, inviteId),
      schema: ZMessage,
      auth: 'bearer',
      popups,
    }),
  resend: (teamId: number, inviteId: number) =>
    call({
      method: 'POST',
      path: API.invitations.resend(teamId, inviteId),
      body: { teamId, invite_id: inviteId, ...inviteLinks() },
      schema: ZMessage,
      auth: 'bearer',
    }),
  /** E-mail link, existing account: must be signed in as the invited user (Bearer). */
  acceptByLinkSignedIn: (hash: string) =>
    call({
      method: 'PUT',
      path: API.invitations.guest(hash),
      body: {},
      schema: ZInviteAcceptResponse,
      auth: 'bearer',
      popups: false,
    }),
  /** E-mail link, new address: the invite-account form; the answer signs the new user in. */
  acceptByLinkNew: (hash: string, body: TInviteNewAccountRequest) =>
    call({
      method: 'PUT',
      path: API.invitations.guest(hash),
      body,
      schema: ZInviteAcceptResponse,
      auth: 'guest',
    }),
  declineByLink: (hash: string) =>
    call({
      method: 'DELETE',
      path: API.invitations.guest(hash),
      schema: ZMessage,
      auth: 'guest',
      popups: false,
    }),
};
