import { Stack } from '@mantine/core';
import { canEditOwnProfile } from '@tlprt/contract';
import { InvitationsBlock } from '../invitations/InvitationsBlock';
import { useSession } from '../session/SessionProvider';
import { ChangeEmail } from './ChangeEmail';
import { ChangePassword } from './ChangePassword';
import { CreateTeam } from './CreateTeam';
import { DeleteAccount } from './DeleteAccount';
import { ProfileDetails } from './ProfileDetails';

/** Profile tab of /settings (spec §2): details and image, password, e-mail, invitations, own team, deletion. */
export function ProfileSettings() {
  const { user, teams } = useSession();
  const editable = canEditOwnProfile(user);
  // Spec §4: a team whose suspension awaits confirmation blocks its members' password and e-mail change.
  const suspensionPending = teams.some((t) => t.suspendedProcess === 1);
  const credentialsLocked = !editable || suspensionPending;
  const lockReason = !editable
    ? 'Your account status does not allow changes.'
    : suspensionPending
      ? 'Blocked while a team suspension awaits confirmation.'
      : undefined;
  return (
    <Stack gap="lg">
      <InvitationsBlock />
      <ProfileDetails />
      <ChangePassword locked={credentialsLocked} lockedReason={lockReason} />
      <ChangeEmail
        locked={credentialsLocked || user.deleteProgress === 1}
        lockedReason={
          user.deleteProgress === 1 ? 'Blocked while the account deletion is in progress.' : lockReason
        }
      />
      {editable && <CreateTeam />}
      {!user.supervisor && <DeleteAccount />}
    </Stack>
  );
}
