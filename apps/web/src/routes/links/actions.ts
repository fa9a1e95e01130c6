import { MSG_TEAMS, type TEmailEventType } from '@tlprt/contract';
import { profileApi } from '../../features/profile/api';
import { teamsApi } from '../../features/teams/api';
import { isApiError } from '../../platform/api/errors';

/** The action behind each /email_event_handler/{type} link, and its success text (spec §2). */
export const EVENT_ACTIONS: Record<
  TEmailEventType,
  { run: (hash: string) => Promise<unknown>; success: string }
> = {
  email: { run: profileApi.changeEmailAccept, success: MSG_TEAMS.emailChanged },
  'delete-user': { run: profileApi.deleteAccept, success: MSG_TEAMS.accountDeleted },
  'delete-team-accept': { run: teamsApi.deleteConfirm, success: MSG_TEAMS.teamDeletedByLink },
  'suspended-team-accept': { run: teamsApi.suspendConfirm, success: MSG_TEAMS.teamSuspendedByLink },
};

export type LinkOutcome = 'success' | 'expired' | 'login' | 'cantPerform';

/**
 * How a link action's failure reads: a dead or unknown hash (404, or a 400 about the hash) is an
 * expired link; 401 means sign in first; anything else "Can't perform this action".
 */
export function outcomeOf(error: unknown): LinkOutcome {
  if (!isApiError(error)) return 'cantPerform';
  if (error.status === 404) return 'expired';
  if (error.status === 401) return 'login';
  if (error.status === 400 && 'hash' in error.fieldErrors) return 'expired';
  return 'cantPerform';
}
