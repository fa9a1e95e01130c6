import {
  ENDPOINTS,
  type EndpointSpec,
  type PathBuilder,
  pathBuilder,
  STORAGE_KEYS,
  type TInvitation,
  type TTeamDetail,
  type TUser,
} from '@tlprt/contract';
import type { ReactElement } from 'react';
import { SessionProvider } from '../platform/session/SessionProvider';
import { buildDetail, buildUser } from './fixtures';
import { renderScreen } from './render';
import { type Recorded, startTestServer } from './server';

type Reply = { status: number; body?: unknown };
export type Routes = Record<string, Reply | ((req: Recorded) => Reply)>;

type PathValues<P extends string> = PathBuilder<P> extends (...values: infer V) => string ? V : [];
/**
 * The key of one contract endpoint in `routes`, its path built from the values of its parameters in
 * path order: `[on(ENDPOINTS.teams.detail, 42)]: reply`. The fake answers what the client asks by the
 * same descriptors, so no test writes a path.
 */
export function on<E extends Pick<EndpointSpec, 'method' | 'path'>>(
  endpoint: E,
  ...values: PathValues<E['path']>
): string {
  const build = pathBuilder(endpoint) as string | ((...v: (string | number)[]) => string);
  return `${endpoint.method} ${typeof build === 'string' ? build : build(...(values as (string | number)[]))}`;
}

/**
 * A real local API with the calls every signed-in screen makes (session, team detail, invitations,
 * time zones); `routes` (keyed by `on(endpoint, ...values)`) add or override replies.
 */
export async function startApi(options: { user?: TUser; detail?: TTeamDetail | null; routes?: Routes } = {}) {
  const state = { user: options.user ?? buildUser(), invitations: [] as TInvitation[] };
  const team = state.user.TeamsRender[0];
  const detail = options.detail === undefined ? (team ? buildDetail(team) : null) : options.detail;
  const base: Routes = {
    [on(ENDPOINTS.auth.check)]: () => ({ status: 200, body: { message: 'ok', data: state.user } }),
    [on(ENDPOINTS.invitations.mine)]: () => ({
      status: 200,
      body: { message: 'ok', data: state.invitations },
    }),
    [on(ENDPOINTS.dictionaries.serverTime)]: () => ({
      status: 200,
      body: { message: 'ok', data: { timestamp: Math.floor(Date.now() / 1000) } },
    }),
    [on(ENDPOINTS.dictionaries.timeZoneList)]: {
      status: 200,
      body: {
        message: 'ok',
        data: [
          { id: 37, text: 'UTC', name: 'UTC' },
          { id: 32, text: '(UTC+01:00) Europe/Paris', name: 'Europe/Paris' },
        ],
      },
    },
  };
  if (detail)
    base[on(ENDPOINTS.teams.read, detail.id)] = { status: 200, body: { message: 'ok', data: detail } };
  const routes = { ...base, ...options.routes };
  const server = await startTestServer((req) => {
    const key = `${req.method} ${req.url.split('?')[0]}`;
    const r = routes[key];
    return typeof r === 'function' ? r(req) : r;
  });
  return { ...server, state };
}

/** Signed in (token in storage) and rendered inside the SessionProvider at `path`. */
export function renderSignedIn(ui: ReactElement, path = '/settings', teamId?: number) {
  localStorage.setItem(STORAGE_KEYS.token, 'tok');
  if (teamId) localStorage.setItem(STORAGE_KEYS.currentTeamId, String(teamId));
  return renderScreen(<SessionProvider>{ui}</SessionProvider>, path);
}
