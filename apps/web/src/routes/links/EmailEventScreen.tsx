import { EMAIL_EVENT_LINK_KINDS, EMAIL_EVENT_TYPES, type TEmailEventType } from '@tlprt/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../platform/api/client';
import { queryClient } from '../../platform/api/queryClient';
import { clearStoredTeam, clearToken, getToken } from '../../platform/session/storage';
import { LinkExpired } from '../../platform/ui/LinkExpired';
import NotFoundRoute from '../notFound';
import { EVENT_ACTIONS, type LinkOutcome, outcomeOf } from './actions';
import { ConfirmActionLogin } from './ConfirmActionLogin';
import { CantPerform, LinkSuccess, Working } from './LinkScreens';

const isEventType = (t: string | undefined): t is TEmailEventType =>
  (EMAIL_EVENT_TYPES as readonly string[]).includes(t ?? '');

/**
 * /email_event_handler/{type}/{hash}, /changeEmail/{hash}, /deleteUserAccount/{hash} (spec §2).
 * Checks the hash first (a dead link says so without asking anybody to sign in); then, signed in, the
 * action; signed out, the "Confirm action" login and then the action.
 */
export function EmailEventScreen({
  type,
  hash,
  failAsExpired = false,
}: {
  type: string | undefined;
  hash: string;
  /** /changeEmail and /deleteUserAccount know only success and "This link is expired". */
  failAsExpired?: boolean;
}) {
  const [state, setState] = useState<LinkOutcome | 'working'>('working');
  const started = useRef(false);
  const action = isEventType(type) ? EVENT_ACTIONS[type] : null;
  const kind = isEventType(type) ? EMAIL_EVENT_LINK_KINDS[type] : null;

  const perform = useCallback(async () => {
    if (!action) return;
    setState('working');
    try {
      await action.run(hash);
      if (type === 'delete-user') {
        // The account is gone and every session with it: end this one locally too.
        clearToken();
        clearStoredTeam();
        queryClient.clear();
      } else {
        void queryClient.invalidateQueries();
      }
      setState('success');
    } catch (error) {
      const outcome = outcomeOf(error);
      if (outcome === 'login') clearToken();
      setState(outcome === 'cantPerform' && failAsExpired ? 'expired' : outcome);
    }
  }, [action, hash, type, failAsExpired]);

  useEffect(() => {
    if (started.current || !action || !kind) return;
    started.current = true;
    void api.checkHash(hash, [kind]).then((valid) => {
      if (!valid) setState('expired');
      else if (getToken()) void perform();
      else setState('login');
    });
  }, [action, kind, hash, perform]);

  if (!action) return <NotFoundRoute />;
  switch (state) {
    case 'working':
      return <Working />;
    case 'login':
      return <ConfirmActionLogin onLoggedIn={() => void perform()} />;
    case 'success':
      return <LinkSuccess title={action.success} />;
    case 'expired':
      return <LinkExpired />;
    case 'cantPerform':
      return <CantPerform />;
  }
}
