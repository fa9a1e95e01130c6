import { ENDPOINTS, linkBases, type TInviteNewAccountRequest } from '@tlprt/contract';
import { request } from '../../../platform/api/client';

const E = ENDPOINTS.invitations;

/** The three link bases of an invitation mail (spec §2 "Links placed in e-mails"). */
function inviteLinks() {
  const b = linkBases(window.location.origin);
  return { accept_new_user_url: b.inviteNew, accept_url: b.inviteOld, decline_url: b.inviteDecline };
}

/** Invitation calls of spec §7 "Invitations". */
export const invitationsApi = {
  mine: () => request(E.mine),
  ofTeam: (teamId: number) => request(E.search, { params: { teamId } }),
  /** Failures are shown in the invitation result modal, not as a popup (except 401/403/5xx). */
  create: (teamId: number, invited_email: string, role: number) =>
    request(E.create, { params: { teamId }, body: { invited_email, role, teamId, ...inviteLinks() } }),
  accept: (teamId: number, inviteId: number) =>
    request(E.accept, { params: { teamId, inviteId }, popups: false }),
  /** The invited user declines, or an admin / the inviting Key master revokes. */
  cancel: (teamId: number, inviteId: number, popups = true) =>
    request(E.cancel, { params: { teamId, inviteId }, popups }),
  resend: (teamId: number, inviteId: number) =>
    request(E.resend, {
      params: { teamId, inviteId },
      body: { teamId, invite_id: inviteId, ...inviteLinks() },
    }),
  /** E-mail link, existing account: must be signed in as the invited user (the token is sent). */
  acceptByLinkSignedIn: (hash: string) =>
    request(E.acceptByLink, { params: { hash }, popups: false, withToken: true }),
  /** E-mail link, new address: the invite-account form; the answer signs the new user in. */
  acceptByLinkNew: (hash: string, body: TInviteNewAccountRequest) =>
    request(E.acceptByLink, { params: { hash }, body }),
  declineByLink: (hash: string) => request(E.declineByLink, { params: { hash }, popups: false }),
};
