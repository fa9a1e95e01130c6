import {
  API,
  type TCreateTeamRequest,
  type TUpdateTeamRequest,
  ZMessage,
  ZTeamDetailResponse,
  ZTeamResponse,
  ZTimeZoneListResponse,
} from '@tlprt/contract';
import { call } from '../../api/client';

/** Team calls of spec §7 "Teams" (paths and schemas from the contract). */
interface LinkPaths {
  confirmPath: string;
  cancelPath: string;
}

export const teamsApi = {
  detail: (id: number, signal?: AbortSignal) =>
    call({ path: API.teams.one(id), schema: ZTeamDetailResponse, auth: 'bearer', signal }),
  create: (body: TCreateTeamRequest) =>
    call({ method: 'POST', path: API.dashboard.createTeam, body, schema: ZTeamResponse, auth: 'bearer' }),
  update: (id: number, body: TUpdateTeamRequest) =>
    call({ method: 'PUT', path: API.teams.one(id), body: { id, ...body }, schema: ZMessage, auth: 'bearer' }),
  setTimeZone: (id: number, tz: number) =>
    call({ method: 'POST', path: API.teams.setTimeZone(id, tz), schema: ZMessage, auth: 'bearer' }),
  setVersion: (id: number, version: number) =>
    call({
      method: 'PUT',
      path: API.teams.setVersion(id),
      body: { version },
      schema: ZMessage,
      auth: 'bearer',
    }),
  setRole: (id: number, userId: number, role: number) =>
    call({
      method: 'POST',
      path: API.teams.setRole(id, userId, role),
      schema: ZMessage,
      auth: 'bearer',
      popups: true,
    }),
  removeMember: (id: number, userId: number) =>
    call({ method: 'DELETE', path: API.teams.removeMember(id, userId), schema: ZMessage, auth: 'bearer' }),
  leave: (id: number, password: string) =>
    call({ method: 'POST', path: API.teams.leave(id), body: { password }, schema: ZMessage, auth: 'bearer' }),
  deleteLock: (id: number, body: LinkPaths & { password: string }) =>
    call({ method: 'POST', path: API.teams.deleteLock(id), body, schema: ZMessage, auth: 'bearer' }),
  deleteResend: (id: number, body: LinkPaths) =>
    call({ method: 'POST', path: API.teams.deleteResend(id), body, schema: ZMessage, auth: 'bearer' }),
  deleteCancel: (id: number, hash?: string, popups = true) =>
    call({
      method: 'POST',
      path: API.teams.deleteCancel(id),
      body: hash ? { hash } : {},
      schema: ZMessage,
      auth: 'bearer',
      popups,
    }),
  deleteConfirm: (hash: string) =>
    call({
      method: 'DELETE',
      path: API.teams.deleteConfirm,
      body: { hash },
      schema: ZMessage,
      auth: 'bearer',
      popups: false,
    }),
  suspend: (id: number, body: Partial<LinkPaths> & { name: string }) =>
    call({ method: 'POST', path: API.teams.suspend(id), body, schema: ZMessage, auth: 'bearer' }),
  suspendResend: (id: number, body: LinkPaths) =>
    call({ method: 'POST', path: API.teams.suspendResend(id), body, schema: ZMessage, auth: 'bearer' }),
  suspendRevoke: (id: number, hash?: string, popups = true) =>
    call({
      method: 'POST',
      path: API.teams.suspendRevoke(id),
      body: hash ? { hash } : {},
      schema: ZMessage,
      auth: 'bearer',
      popups,
    }),
  suspendConfirm: (hash: string) =>
    call({
      method: 'PUT',
      path: API.teams.suspendConfirm,
      body: { hash },
      schema: ZMessage,
      auth: 'bearer',
      popups: false,
    }),
  favourite: (id: number) =>
    call({ method: 'PUT', path: API.teams.favourite(id), schema: ZMessage, auth: 'bearer' }),
  timeZones: () => call({ path: API.auth.timeZoneList, schema: ZTimeZoneListResponse, auth: 'guest' }),
};
