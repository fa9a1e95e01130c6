import type { TInvitation } from '@tlprt/contract';
import type { InvitationView } from '../../directory/invitations.js';

/** An invitation card: never its link hash. */
export function presentInvitation(i: InvitationView): TInvitation {
  return {
    id: i.id,
    status: i.status,
    role: i.role,
    invited_email: i.invited_email,
    inviting_user: {
      id: i.inviting_user_id,
      email: i.inviter_email ?? '',
      name: `${i.inviter_name ?? ''} ${i.inviter_surname ?? ''}`.trim(),
    },
    team: { id: i.team_id, name: i.team_name },
    createdAt: new Date(i.created_at).toISOString(),
    expiresAt: new Date(i.expires_at).toISOString(),
  };
}
