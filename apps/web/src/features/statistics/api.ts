import { ENDPOINTS, type TStatsQuery, type TStatsRange, type TStatsTab } from '@tlprt/contract';
import { request } from '../../api/client';
import { ApiError } from '../../api/errors';
import { reportApiError } from '../../api/popups';

const E = ENDPOINTS.statistics;

/** Only the session-ending 401 and the forbidden 403 become popups: the screen shows its own error. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((e: unknown) => {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) reportApiError(e, true);
    throw e;
  });
}

/** Statistics calls of spec §7 (the contract's descriptors). */
export const statsApi = {
  query: (range: TStatsRange, body: TStatsQuery, signal?: AbortSignal) =>
    quiet(
      range === 'live'
        ? request(E.live, { params: { team_id: body.team_id }, body, popups: false, signal })
        : request(E[range], { body, popups: false, signal }),
    ),
  settingsGet: (userId: number, teamId: number, signal?: AbortSignal) =>
    quiet(request(E.readLists, { params: { user_id: userId, team_id: teamId }, popups: false, signal })),
  settingsPut: (userId: number, teamId: number, tabs: TStatsTab[]) =>
    quiet(
      request(E.saveLists, {
        params: { user_id: userId, team_id: teamId },
        body: { user_id: userId, team_id: teamId, save_json: JSON.stringify({ tabs }) },
        popups: false,
      }),
    ),
};
