import { STORAGE_KEYS, type TInvitation, type TTeamDetail, type TUser } from '@tlprt/contract';
import type { ReactElement } from 'react';
import { SessionProvider } from '../platform/session/SessionProvider';
import { buildDetail, buildUser } from './fixtures';
import { renderScreen } from './render';
import { type Recorded, startTestServer } from './server';

type Reply = { status: number; body?: unknown };
export type Routes = Record<string, Reply | ((req: Recorded) => Reply)>;

/**
 * A real local API with the calls every signed-in screen makes (session, team detail, invitations,
 * time zones); `routes` ("METHOD /path") add or override replies.
 */
export async function startApi(options: { user?: TUser; detail?: TTeamDetail | null; routes?: Routes } = {}) {
  const state = { user: options.user ?? buildUser(), invitations: [] as TInvitation[] };
  const team = state.user.TeamsRender[0];
  const detail = options.detail === undefined ? (team ? buildDetail(team) : null) : options.detail;
  const base: Routes = {
    'GET /auth/v1/check': () => ({ status: 200, body: { message: 'ok', data: state.user } }),
    'POST /api/v1/user/invitation/search': () => ({
      status: 200,
      body: { message: 'ok', data: state.invitations },
    }),
    'GET /auth/get_time_server': () => ({
      status: 200,
      body: { message: 'ok', data: { timestamp: Math.floor(Date.now() / 1000) } },
    }),
    'GET /auth/time_zone_list': {
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
  if (detail) base[`GET /api/v1/teams/${detail.id}`] = { status: 200, body: { message: 'ok', data: detail } };
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
