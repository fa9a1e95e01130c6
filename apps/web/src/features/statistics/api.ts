import {
  ENDPOINTS,
  endpointPath,
  MSG,
  type TBreakdownQuery,
  type TStatsQuery,
  type TStatsRange,
  type TStatsTab,
  ZApiError,
} from '@tlprt/contract';
import { apiUrl, request } from '../../platform/api/client';
import { ApiError } from '../../platform/api/errors';
import { popupShown, reportApiError, showCantPerform } from '../../platform/api/popups';
import { getToken } from '../../platform/session/storage';

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
  breakdown: (body: TBreakdownQuery, signal?: AbortSignal) =>
    quiet(request(E.breakdown, { body, popups: false, signal })),
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

/** A failed download: the popup the client would show for that status, else "Can't perform". */
function downloadFailed(error: ApiError): never {
  reportApiError(error, true);
  if (!popupShown(error)) showCantPerform();
  throw error;
}

/**
 * The breakdown's `?format=csv` answer as text. The typed client parses every success as JSON with
 * the endpoint's schema, so the same call is made here by hand, with the token as the client sends it.
 * The user asked for the file, so every failure gets a popup.
 */
export function breakdownCsvText(body: TBreakdownQuery): Promise<string> {
  return csvText(endpointPath(E.breakdown, undefined, { format: 'csv' }), E.breakdown.method, body);
}

/** Every series of a chart's points over the window of `body` (the chart loads the drawn ones only):
 *  what its "Export CSV" writes. The person asked for the file, so a failure gets its popup. */
export function chartPointsAll(range: TStatsRange, body: TStatsQuery) {
  const { points: _drawn, ...all } = body;
  return range === 'live'
    ? request(E.live, { params: { team_id: body.team_id }, body: all })
    : request(E[range], { body: all });
}

async function csvText(path: string, method: string, body: unknown): Promise<string> {
  const token = getToken();
  const headers: Record<string, string> = { Accept: 'text/csv', 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(apiUrl(path), {
      method,
      headers,
      body: JSON.stringify(body),
    });
  } catch {
    return downloadFailed(new ApiError(0, { message: MSG.serverErrorTitle }));
  }
  const text = await res.text();
  if (res.status === 200) return text;
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: the status alone tells.
  }
  const errorBody = ZApiError.safeParse(json);
  return downloadFailed(
    new ApiError(
      res.status,
      errorBody.success ? errorBody.data : { message: res.statusText || MSG.serverErrorTitle },
    ),
  );
}
