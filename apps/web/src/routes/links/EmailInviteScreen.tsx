import { useMutation } from '@tanstack/react-query';
import {
  LinkKind,
  MSG_TEAMS,
  type TInviteAcceptResponse,
  type TInviteNewAccountRequest,
  WEB_PATHS,
} from '@tlprt/contract';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { invitationsApi } from '../../features/teams/invitations/api';
import { isApiError } from '../../platform/api/errors';
import { queryClient } from '../../platform/api/queryClient';
import { setStoredTeamId, setStoredUserId, setToken } from '../../platform/session/storage';
import { useSettingsTab } from '../../platform/settings/settingsTab';
import { AuthCard } from '../../platform/ui/AuthCard';
import { LinkExpired } from '../../platform/ui/LinkExpired';
import NotFoundRoute from '../notFound';
import { ConfirmActionLogin } from './ConfirmActionLogin';
import { InviteAccountForm } from './InviteAccountForm';
import { CantPerform, LinkSuccess, Working } from './LinkScreens';
import { useLinkAction } from './useLinkAction';

/**
 * /email_invite_handler/{old|new|decline}/{hash}?teamIdInvite= (spec §2). old and new first check the
 * hash like every other link (a dead one: "This link is expired" before any form). old: sign in if
 * needed and accept with the Bearer; new: the "Create account" form signs the new user in; both make the
 * invited team current and go to /settings. decline: "The invite was declined" or "Can't perform this
 * action" (the spec's own failure text for it).
 */
export function EmailInviteScreen({
  type,
  hash,
  teamIdInvite,
}: {
  type?: string;
  hash: string;
  teamIdInvite: number | null;
}) {
  const navigate = useNavigate();
  const known = type === 'old' || type === 'new' || type === 'decline';
  const [, setSettingsTab] = useSettingsTab();

  const enterTeam = (res: TInviteAcceptResponse) => {
    const teamId = teamIdInvite ?? res.data.team_id;
    setStoredTeamId(teamId);
    setSettingsTab(1);
    queryClient.clear();
    navigate(WEB_PATHS.settings, { replace: true });
  };

  // old and new: the hash first; old accepts with the Bearer, new waits for the "Create account" form.
  const { state, perform } = useLinkAction({
    hash,
    kinds: [LinkKind.Invite],
    enabled: type === 'old' || type === 'new',
    run: () => invitationsApi.acceptByLinkSignedIn(hash),
    onSuccess: enterTeam,
    auto: type === 'old',
  });

  const create = useMutation({
    mutationFn: (body: TInviteNewAccountRequest) => invitationsApi.acceptByLinkNew(hash, body),
    onSuccess: (res) => {
      const token = res.access_token ?? res.data.session?.access_token;
      if (token) {
        queryClient.clear();
        setToken(token);
        if (res.data.session) setStoredUserId(res.data.session.user_id);
      }
      enterTeam(res);
    },
  });
  const createExpired = isApiError(create.error) && create.error.status === 404;
  const createAccount = async (body: TInviteNewAccountRequest) => {
    try {
      await create.mutateAsync(body);
    } catch (error) {
      // A spent link reads as expired; field errors and the message go back onto the form.
      if (!(isApiError(error) && error.status === 404)) throw error;
    }
  };

  const decline = useMutation({ mutationFn: () => invitationsApi.declineByLink(hash) });
  const declining = useRef(false);
  const { mutate: declineNow } = decline;
  useEffect(() => {
    if (type !== 'decline' || declining.current) return;
    declining.current = true;
    declineNow();
  }, [type, declineNow]);

  if (!known) return <NotFoundRoute />;
  if (type === 'decline') {
    if (decline.isSuccess) return <LinkSuccess title={MSG_TEAMS.inviteDeclined} />;
    if (decline.isError) return <CantPerform />;
    return <Working />;
  }
  if (createExpired) return <LinkExpired />;
  switch (state) {
    case 'ready':
      return (
        <AuthCard
          title="Create account"
          subtitle="You were invited to a team. Set up your account to join it."
        >
          <InviteAccountForm onSubmit={createAccount} />
        </AuthCard>
      );
    case 'login':
      return (
        <ConfirmActionLogin
          subtitle="Sign in to the invited account to join the team."
          onLoggedIn={perform}
        />
      );
    case 'expired':
      return <LinkExpired />;
    case 'cantPerform':
      return <CantPerform />;
    default:
      return <Working />;
  }
}
