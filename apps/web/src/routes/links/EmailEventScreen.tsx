import { EMAIL_EVENT_LINK_KINDS, EMAIL_EVENT_TYPES, type TEmailEventType } from '@tlprt/contract';
import { queryClient } from '../../platform/api/queryClient';
import { clearStoredTeam, clearToken } from '../../platform/session/storage';
import { LinkExpired } from '../../platform/ui/LinkExpired';
import NotFoundRoute from '../notFound';
import { EVENT_ACTIONS } from './actions';
import { ConfirmActionLogin } from './ConfirmActionLogin';
import { CantPerform, LinkSuccess, Working } from './LinkScreens';
import { useLinkAction } from './useLinkAction';

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
  const action = isEventType(type) ? EVENT_ACTIONS[type] : null;
  const { state, perform } = useLinkAction({
    hash,
    kinds: isEventType(type) ? [EMAIL_EVENT_LINK_KINDS[type]] : [],
    enabled: action !== null,
    run: () => (action ? action.run(hash) : Promise.reject(new Error('unknown link'))),
    onSuccess: () => {
      if (type === 'delete-user') {
        // The account is gone and every session with it: end this one locally too.
        clearToken();
        clearStoredTeam();
        queryClient.clear();
      } else {
        void queryClient.invalidateQueries();
      }
    },
    failAsExpired,
  });

  if (!action) return <NotFoundRoute />;
  switch (state) {
    case 'working':
      return <Working />;
    case 'login':
      return <ConfirmActionLogin onLoggedIn={perform} />;
    case 'success':
      return <LinkSuccess title={action.success} />;
    case 'expired':
      return <LinkExpired />;
    case 'cantPerform':
      return <CantPerform />;
  }
}
