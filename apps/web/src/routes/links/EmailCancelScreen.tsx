import {
  EMAIL_CANCEL_LINK_KINDS,
  EMAIL_CANCEL_TYPES,
  type TEmailCancelType,
  WEB_PATHS,
} from '@tlprt/contract';
import { useNavigate } from 'react-router';
import { teamsApi } from '../../features/teams/api';
import { queryClient } from '../../platform/api/queryClient';
import { LinkExpired } from '../../platform/ui/LinkExpired';
import NotFoundRoute from '../notFound';
import { ConfirmActionLogin } from './ConfirmActionLogin';
import { CantPerform, Working } from './LinkScreens';
import { useLinkAction } from './useLinkAction';

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
  const { state, perform } = useLinkAction({
    hash,
    kinds: cancelType ? [EMAIL_CANCEL_LINK_KINDS[cancelType]] : [],
    enabled: known,
    run: () =>
      type === 'cancel_team_deleting'
        ? teamsApi.deleteCancel(teamId ?? 0, hash, false)
        : teamsApi.suspendRevoke(teamId ?? 0, hash, false),
    onSuccess: () => {
      void queryClient.invalidateQueries();
      navigate(`${WEB_PATHS.settings}/`, { replace: true });
    },
  });

  if (!known) return <NotFoundRoute />;
  if (state === 'login') return <ConfirmActionLogin onLoggedIn={perform} />;
  if (state === 'expired') return <LinkExpired />;
  if (state === 'cantPerform') return <CantPerform />;
  return <Working />;
}
