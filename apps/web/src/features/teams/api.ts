import { ENDPOINTS, type TCreateTeamRequest, type TUpdateTeamRequest } from '@tlprt/contract';
import { request } from '../../platform/api/client';

const E = ENDPOINTS.teams;
const L = ENDPOINTS.teamLifecycle;

/** Team calls of spec §7 "Teams" (the contract's descriptors). */
interface LinkPaths {
  confirmPath: string;
  cancelPath: string;
}

export const teamsApi = {
  detail: (id: number, signal?: AbortSignal) => request(E.read, { params: { id }, signal }),
  create: (body: TCreateTeamRequest) => request(E.create, { body }),
  update: (id: number, body: TUpdateTeamRequest) =>
    request(E.update, { params: { id }, body: { id, ...body } }),
  setTimeZone: (id: number, tz: number) => request(E.setTimeZone, { params: { id, timezoneId: tz } }),
  setVersion: (id: number, version: number) => request(E.setVersion, { params: { id }, body: { version } }),
  setRole: (id: number, userId: number, role: number) =>
    request(E.setRole, { params: { id, userId, roleId: role }, popups: true }),
  removeMember: (id: number, userId: number) => request(E.removeMember, { params: { id, userId } }),
  leave: (id: number, password: string) => request(E.leave, { params: { id }, body: { password } }),
  deleteLock: (id: number, body: LinkPaths & { password: string }) =>
    request(L.deleteLock, { params: { id }, body }),
  deleteResend: (id: number, body: LinkPaths) => request(L.deleteResend, { params: { id }, body }),
  deleteCancel: (id: number, hash?: string, popups = true) =>
    request(L.deleteCancel, { params: { id }, body: hash ? { hash } : {}, popups }),
  deleteConfirm: (hash: string) => request(L.deleteConfirm, { body: { hash }, popups: false }),
  suspend: (id: number, body: Partial<LinkPaths> & { name: string }) =>
    request(L.suspend, { params: { id }, body }),
  suspendResend: (id: number, body: LinkPaths) => request(L.suspendResend, { params: { id }, body }),
  suspendRevoke: (id: number, hash?: string, popups = true) =>
    request(L.suspendRevoke, { params: { id }, body: hash ? { hash } : {}, popups }),
  suspendConfirm: (hash: string) => request(L.suspendConfirm, { body: { hash }, popups: false }),
  favourite: (id: number) => request(E.toggleFavourite, { params: { id } }),
};
