import { EMAIL_CANCEL_TYPES, WEB_PATHS } from '@tlprt/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { queryClient } from '../../api/queryClient';
import { LinkExpired } from '../../components/LinkExpired';
import NotFoundRoute from '../../routes/notFound';
import { clearToken, getToken } from '../session/storage';
import { teamsApi } from '../teams/api';
import { type LinkOutcome, outcomeOf } from './actions';
import { ConfirmActionLogin } from './ConfirmActionLogin';
import { CantPerform, Working } from './LinkScreens';

/** The team segment of a cancel link is "name=number": the number is the team id (spec §2). */
export function teamIdOfSegment(segment: string | undefined): number | null {
  const n = Number((segment ?? '').split('=').pop());
  return Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * /email_cancel_handler/{type}/{name=teamId}/{hash}: cancel a team deletion or suspension. Needs login
 * (the same "Confirm action" form); success goes to /settings/, failure "Can't perform this action".
 */
export function EmailCancelScreen({
  type,
  teamSegment,
  hash,
}: {
  type?: string;
  teamSegment?: string;
  hash: string;
}) {
  const navigate = useNavigate();
  const teamId = teamIdOfSegment(teamSegment);
  const known = (EMAIL_CANCEL_TYPES as readonly string[]).includes(type ?? '') && teamId !== null;
  const [state, setState] = useState<LinkOutcome | 'working'>(getToken() ? 'working' : 'login');
  const started = useRef(false);

  const perform = useCallback(async () => {
    if (!known || teamId === null) return;
    setState('working');
    try {
      if (type === 'cancel_team_deleting') await teamsApi.deleteCancel(teamId, hash, false);
      else await teamsApi.suspendRevoke(teamId, hash, false);
      void queryClient.invalidateQueries();
      navigate(`${WEB_PATHS.settings}/`, { replace: true });
    } catch (error) {
      const outcome = outcomeOf(error);
      if (outcome === 'login') clearToken();
      setState(outcome);
    }
  }, [known, teamId, type, hash, navigate]);

  useEffect(() => {
    if (started.current || !known || !getToken()) return;
    started.current = true;
    void perform();
  }, [known, perform]);

  if (!known) return <NotFoundRoute />;
  if (state === 'login') return <ConfirmActionLogin onLoggedIn={() => void perform()} />;
  if (state === 'expired') return <LinkExpired />;
  if (state === 'cantPerform') return <CantPerform />;
  return <Working />;
}
