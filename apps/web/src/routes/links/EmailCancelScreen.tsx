import {
  EMAIL_CANCEL_LINK_KINDS,
  EMAIL_CANCEL_TYPES,
  type TEmailCancelType,
  WEB_PATHS,
} from '@tlprt/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { teamsApi } from '../../features/teams/api';
import { api } from '../../platform/api/client';
import { queryClient } from '../../platform/api/queryClient';
import { clearToken, getToken } from '../../platform/session/storage';
import { LinkExpired } from '../../platform/ui/LinkExpired';
import NotFoundRoute from '../notFound';
import { type LinkOutcome, outcomeOf } from './actions';
import { ConfirmActionLogin } from './ConfirmActionLogin';
import { CantPerform, Working } from './LinkScreens';

/** The team segment of a cancel link is "name=number": the number is the team id (spec §2). */
export function teamIdOfSegment(segment: string | undefined): number | null {
  const n = Number((segment ?? '').split('=').pop());
  return Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * /email_cancel_handler/{type}/{name=teamId}/{hash}: cancel a team deletion or suspension. Checks the
 * hash first ("This link is expired"), then needs login (the same "Confirm action" form); success goes to
 * /settings/, failure "Can't perform this action".
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
  const cancelType = (EMAIL_CANCEL_TYPES as readonly string[]).includes(type ?? '')
    ? (type as TEmailCancelType)
    : null;
  const known = cancelType !== null && teamId !== null;
  const [state, setState] = useState<LinkOutcome | 'working'>('working');
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

  // The hash first: a dead link says so before asking anybody to sign in.
  useEffect(() => {
    if (started.current || !cancelType || teamId === null) return;
    started.current = true;
    void api.checkHash(hash, [EMAIL_CANCEL_LINK_KINDS[cancelType]]).then((valid) => {
      if (!valid) setState('expired');
      else if (getToken()) void perform();
      else setState('login');
    });
  }, [cancelType, teamId, hash, perform]);

  if (!known) return <NotFoundRoute />;
  if (state === 'login') return <ConfirmActionLogin onLoggedIn={() => void perform()} />;
  if (state === 'expired') return <LinkExpired />;
  if (state === 'cantPerform') return <CantPerform />;
  return <Working />;
}
