import type {
  EndpointBody,
  EndpointParams,
  EndpointQuery,
  EndpointResult,
  EndpointSpec,
  TCreateTeamRequest,
  TLoginRequest,
  TRecoveryRequest,
  TRegisterRequest,
  TSetNewPasswordRequest,
  TUpdateUserRequest,
} from '@tlprt/contract';
import { ENDPOINTS, endpointPath, MSG, ZApiError } from '@tlprt/contract';
import type { z } from 'zod';
import { getToken } from '../session/storage';
import { ApiError } from './errors';
import { reportApiError } from './popups';

/**
 * The one client of the three APIs (/auth, /api, /stats; docs/DESIGN.md §4). Authenticated calls carry the
 * bearer token; only 200 and 201 are success and every success body is parsed with its contract
 * schema; anything else becomes an ApiError, mapped to a popup in api/popups.ts.
 */

let baseUrl = '';
/**
 * Tests point the client at a real local server; the app uses the page's own origin.
 * @internal (knip --production: only tests call it)
 */
export function configureApi(options: { baseUrl: string }): void {
  baseUrl = options.baseUrl.replace(/\/$/, '');
}
export const apiUrl = (path: string) => `${baseUrl}${path}`;

interface RequestInput<E extends EndpointSpec> {
  params?: EndpointParams<E>;
  query?: EndpointQuery<E>;
  body?: EndpointBody<E>;
  /** false: the caller handles every failure itself (no popup). */
  popups?: boolean;
  signal?: AbortSignal;
  /** Sends the session token to a guest endpoint that reads an optional one (the invitation link
   *  answered by an existing account); a 401 then ends the session like any authenticated call. */
  withToken?: boolean;
}

/** Calls one contract endpoint: its method and path, the token if its access needs one (a 401 or 403
 *  then ends the session or shows the forbidden popup), and its success body parsed by its response
 *  schema. */
export async function request<E extends EndpointSpec & { response: z.ZodType }>(
  spec: E,
  input: RequestInput<E> = {},
): Promise<EndpointResult<E>> {
  const { params, query, body, popups = true, signal, withToken = false } = input;
  const { method } = spec;
  const path = endpointPath(spec, params as Record<string, unknown>, query as Record<string, unknown>);
  const bearer = withToken || spec.access === 'user' || spec.access === 'supervisor';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (bearer) {
    const token = getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  const fail = (error: ApiError): never => {
    if (popups) reportApiError(error, bearer);
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
    const parsed = (spec.response as z.ZodType<EndpointResult<E>>).safeParse(json);
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
  login: (body: TLoginRequest) => request(ENDPOINTS.auth.login, { body }),
  register: (body: TRegisterRequest) => request(ENDPOINTS.auth.register, { body }),
  recoverPassword: (body: TRecoveryRequest) => request(ENDPOINTS.auth.recoveryPassword, { body }),
  /** true only for a live hash ("hash valid") of one of `kinds`; any failure means the link is expired. */
  checkHash: async (hash: string, kinds: readonly string[], signal?: AbortSignal): Promise<boolean> => {
    try {
      const res = await request(ENDPOINTS.auth.checkHash, { params: { hash }, popups: false, signal });
      return res.message === MSG.hashValid && kinds.includes(res.data?.kind ?? '');
    } catch {
      return false;
    }
  },
  setNewPassword: (body: TSetNewPasswordRequest) => request(ENDPOINTS.auth.setNewPassword, { body }),
  passwordRecoveryAccept: (body: TSetNewPasswordRequest) =>
    request(ENDPOINTS.auth.passwordRecoveryAccept, { body }),
  timeZoneList: () => request(ENDPOINTS.dictionaries.timeZoneList),
  /** No popup: the statistics fall back to the browser's clock when it fails. */
  serverTime: (signal?: AbortSignal) => request(ENDPOINTS.dictionaries.serverTime, { popups: false, signal }),

  // ----- session -----
  check: () => request(ENDPOINTS.auth.check),
  logout: () => request(ENDPOINTS.auth.logout, { popups: false }),

  // ----- user and teams -----
  getUser: (id: number) => request(ENDPOINTS.users.read, { params: { id } }),
  updateUser: (id: number, body: TUpdateUserRequest) =>
    request(ENDPOINTS.users.update, { params: { id }, body }),
  createTeam: (body: TCreateTeamRequest) => request(ENDPOINTS.teams.create, { body }),
};
