import {
  API,
  MSG,
  type TCreateTeamRequest,
  type TLoginRequest,
  type TRecoveryRequest,
  type TRegisterRequest,
  type TSetNewPasswordRequest,
  type TUpdateUserRequest,
  ZApiError,
  ZCheckHashResponse,
  ZCheckResponse,
  ZLoginResponse,
  ZMessage,
  ZServerTimeResponse,
  ZTeamResponse,
  ZTimeZoneListResponse,
  ZUserResponse,
} from '@tlprt/contract';
import type { z } from 'zod';
import { getToken } from '../features/session/storage';
import { ApiError } from './errors';
import { reportApiError } from './popups';

/**
 * The one client of the three APIs (/auth, /api, /stats; DESIGN §4). Authenticated calls carry the
 * bearer token; only 200 and 201 are success and every success body is parsed with its contract
 * schema; anything else becomes an ApiError, mapped to a popup in api/popups.ts.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface CallOptions<T> {
  method?: Method;
  path: string;
  body?: unknown;
  schema: z.ZodType<T>;
  /** 'bearer' sends the token and lets 401/403 end the session / show the forbidden popup. */
  auth: 'guest' | 'bearer';
  /** false: the caller handles every failure itself (no popup). */
  popups?: boolean;
  signal?: AbortSignal;
}

let baseUrl = '';
/** Tests point the client at a real local server; the app uses the page's own origin. */
export function configureApi(options: { baseUrl: string }): void {
  baseUrl = options.baseUrl.replace(/\/$/, '');
}
export const apiUrl = (path: string) => `${baseUrl}${path}`;

export async function call<T>(options: CallOptions<T>): Promise<T> {
  const { method = 'GET', path, body, schema, auth, popups = true, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (auth === 'bearer') {
    const token = getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  const fail = (error: ApiError): never => {
    if (popups) reportApiError(error, auth === 'bearer');
    throw error;
  };

  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    return fail(new ApiError(0, { message: MSG.serverErrorTitle }));
  }

  const json = await readJson(response);
  // A query cancelled while its body was still arriving (TanStack cancels on refetch) is no error of
  // the server's: its unread body must not reach the schema check and the error popup.
  if (signal?.aborted) throw signal.reason ?? new DOMException('Aborted', 'AbortError');
  if (response.status === 200 || response.status === 201) {
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    console.error(`Unexpected response body from ${method} ${path}`, parsed.error.issues);
    return fail(new ApiError(500, { message: MSG.serverErrorTitle }));
  }
  const errorBody = ZApiError.safeParse(json);
  return fail(
    new ApiError(
      response.status,
      errorBody.success ? errorBody.data : { message: response.statusText || MSG.serverErrorTitle },
    ),
  );
}

async function readJson(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

/** Link bases the server puts in its e-mails (spec §2): always this dashboard's own origin. */
export function linkBases() {
  const origin = window.location.origin;
  return {
    createPath: `${origin}/createPassword/`,
    resetPath: `${origin}/resPassword/`,
    loginPath: `${origin}/`,
    recoveryUrl: `${origin}/resPassword/`,
  };
}

/** Every call the foundation makes, typed end to end by the contract. */
export const api = {
  // ----- guest (spec §7 Auth) -----
  login: (body: TLoginRequest) =>
    call({ method: 'POST', path: API.auth.login, body, schema: ZLoginResponse, auth: 'guest' }),
  register: (body: TRegisterRequest) =>
    call({ method: 'POST', path: API.auth.register, body, schema: ZMessage, auth: 'guest' }),
  recoverPassword: (body: TRecoveryRequest) =>
    call({ method: 'POST', path: API.auth.recoveryPassword, body, schema: ZMessage, auth: 'guest' }),
  /** true only for a live hash ("hash valid") of one of `kinds`; any failure means the link is expired. */
  checkHash: async (hash: string, kinds: readonly string[], signal?: AbortSignal): Promise<boolean> => {
    try {
      const res = await call({
        path: API.auth.checkHash(hash),
        schema: ZCheckHashResponse,
        auth: 'guest',
        popups: false,
        signal,
      });
      return res.message === MSG.hashValid && kinds.includes(res.data?.kind ?? '');
    } catch {
      return false;
    }
  },
  setNewPassword: (body: TSetNewPasswordRequest) =>
    call({ method: 'POST', path: API.auth.setNewPassword, body, schema: ZLoginResponse, auth: 'guest' }),
  passwordRecoveryAccept: (body: TSetNewPasswordRequest) =>
    call({
      method: 'POST',
      path: API.auth.passwordRecoveryAccept,
      body,
      schema: ZLoginResponse,
      auth: 'guest',
    }),
  timeZoneList: () => call({ path: API.auth.timeZoneList, schema: ZTimeZoneListResponse, auth: 'guest' }),
  /** No popup: the statistics fall back to the browser's clock when it fails. */
  serverTime: (signal?: AbortSignal) =>
    call({ path: API.auth.serverTime, schema: ZServerTimeResponse, auth: 'guest', popups: false, signal }),

  // ----- session -----
  check: () => call({ path: API.auth.check, schema: ZCheckResponse, auth: 'bearer' }),
  logout: () => call({ path: API.auth.logout, schema: ZMessage, auth: 'bearer', popups: false }),

  // ----- user and teams -----
  getUser: (id: number) => call({ path: API.dashboard.user(id), schema: ZUserResponse, auth: 'bearer' }),
  updateUser: (id: number, body: TUpdateUserRequest) =>
    call({ method: 'PUT', path: API.dashboard.user(id), body, schema: ZUserResponse, auth: 'bearer' }),
  createTeam: (body: TCreateTeamRequest) =>
    call({ method: 'POST', path: API.dashboard.createTeam, body, schema: ZTeamResponse, auth: 'bearer' }),
};
