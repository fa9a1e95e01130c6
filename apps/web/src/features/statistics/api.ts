import {
  API,
  type TStatsQuery,
  type TStatsRange,
  type TStatsTab,
  ZMessage,
  ZStatsResponse,
  ZStatsSettingsResponse,
} from '@tlprt/contract';
import { call } from '../../api/client';
import { ApiError } from '../../api/errors';
import { reportApiError } from '../../api/popups';

/** Only the session-ending 401 and the forbidden 403 become popups: the screen shows its own error. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((e: unknown) => {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) reportApiError(e, true);
    throw e;
  });
}

/** Statistics calls of spec §7 (paths and schemas from the contract). */
export const statsApi = {
  query: (range: TStatsRange, body: TStatsQuery, signal?: AbortSignal) =>
    quiet(
      call({
        method: 'POST',
        path: range === 'live' ? API.stats.live(body.team_id) : API.stats[range],
        body,
        schema: ZStatsResponse,
        auth: 'bearer',
        popups: false,
        signal,
      }),
    ),
  settingsGet: (userId: number, teamId: number, signal?: AbortSignal) =>
    quiet(
      call({
        method: 'POST',
        path: API.stats.settingsGet(userId, teamId),
        body: { user_id: userId, team_id: teamId },
        schema: ZStatsSettingsResponse,
        auth: 'bearer',
        popups: false,
        signal,
      }),
    ),
  settingsPut: (userId: number, teamId: number, tabs: TStatsTab[]) =>
    quiet(
      call({
        method: 'POST',
        path: API.stats.settingsPut(userId, teamId),
        body: { user_id: userId, team_id: teamId, save_json: JSON.stringify({ tabs }) },
        schema: ZMessage,
        auth: 'bearer',
        popups: false,
      }),
    ),
};
