import {
  LinkKind,
  MSG_TEAMS,
  type TInviteAcceptResponse,
  type TInviteNewAccountRequest,
  WEB_PATHS,
} from '@tlprt/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { invitationsApi } from '../../features/teams/invitations/api';
import { api } from '../../platform/api/client';
import { isApiError } from '../../platform/api/errors';
import { queryClient } from '../../platform/api/queryClient';
import {
  clearToken,
  getToken,
  setStoredTeamId,
  setStoredUserId,
  setToken,
} from '../../platform/session/storage';
import { useSettingsTab } from '../../platform/settings/settingsTab';
import { AuthCard } from '../../platform/ui/AuthCard';
import { LinkExpired } from '../../platform/ui/LinkExpired';
import NotFoundRoute from '../notFound';
import { type LinkOutcome, outcomeOf } from './actions';
import { ConfirmActionLogin } from './ConfirmActionLogin';
import { InviteAccountForm } from './InviteAccountForm';
import { CantPerform, LinkSuccess, Working } from './LinkScreens';

type State = LinkOutcome | 'working' | 'form' | 'declined';

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
  const [state, setState] = useState<State>('working');
  const started = useRef(false);
  const [, setSettingsTab] = useSettingsTab();

  const enterTeam = useCallback(
    (res: TInviteAcceptResponse) => {
      const teamId = teamIdInvite ?? res.data.team_id;
      setStoredTeamId(teamId);
      setSettingsTab(1);
      queryClient.clear();
      navigate(WEB_PATHS.settings, { replace: true });
    },
    [teamIdInvite, navigate, setSettingsTab],
  );

  const acceptSignedIn = useCallback(async () => {
    setState('working');
    try {
      enterTeam(await invitationsApi.acceptByLinkSignedIn(hash));
    } catch (error) {
      const outcome = outcomeOf(error);
      if (outcome === 'login') clearToken();
      setState(outcome);
    }
  }, [hash, enterTeam]);

  const decline = useCallback(async () => {
    try {
      await invitationsApi.declineByLink(hash);
      setState('declined');
    } catch {
      setState('cantPerform');
    }
  }, [hash]);

  const createAccount = async (body: TInviteNewAccountRequest) => {
    try {
      const res = await invitationsApi.acceptByLinkNew(hash, body);
      const token = res.access_token ?? res.data.session?.access_token;
      if (token) {
        queryClient.clear();
        setToken(token);
        if (res.data.session) setStoredUserId(res.data.session.user_id);
      }
      enterTeam(res);
    } catch (error) {
      if (isApiError(error) && error.status === 404) setState('expired');
      else throw error; // field errors and the message go back onto the form
    }
  };

  useEffect(() => {
    if (started.current || !known) return;
    if (type === 'decline') {
      started.current = true;
      void decline();
    } else {
      started.current = true;
      void api.checkHash(hash, [LinkKind.Invite]).then((valid) => {
        if (!valid) setState('expired');
        else if (type === 'new') setState('form');
        else if (getToken()) void acceptSignedIn();
        else setState('login');
      });
    }
  }, [known, type, hash, decline, acceptSignedIn]);

  if (!known) return <NotFoundRoute />;
  switch (state) {
    case 'form':
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
          onLoggedIn={() => void acceptSignedIn()}
        />
      );
    case 'declined':
      return <LinkSuccess title={MSG_TEAMS.inviteDeclined} />;
    case 'expired':
      return <LinkExpired />;
    case 'cantPerform':
      return <CantPerform />;
    default:
      return <Working />;
  }
}
