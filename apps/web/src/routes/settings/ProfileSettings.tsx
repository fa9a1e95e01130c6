import { Stack } from '@mantine/core';
import { canEditOwnProfile } from '@tlprt/contract';
import { ChangeEmail } from '../../features/profile/ChangeEmail';
import { ChangePassword } from '../../features/profile/ChangePassword';
import { ChartTimeZone } from '../../features/profile/ChartTimeZone';
import { DeleteAccount } from '../../features/profile/DeleteAccount';
import { ProfileDetails } from '../../features/profile/ProfileDetails';
import { CreateTeam } from '../../features/teams/CreateTeam';
import { InvitationsBlock } from '../../features/teams/invitations/InvitationsBlock';
import { useSession } from '../../platform/session/SessionProvider';

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
      <ChartTimeZone locked={!editable} />
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
