import { ENDPOINTS, linkBases } from '@tlprt/contract';
import { request } from '../../platform/api/client';

const E = ENDPOINTS.account;

/** Account self-service calls of spec §7 "User". */
export const profileApi = {
  changePassword: (
    id: number,
    body: { team_id?: number; password: string; new_password: string; confirm: string },
  ) => request(E.changePassword, { params: { id }, body: { user_id: id, ...body } }),
  changeEmail: (id: number, body: { team_id?: number; email: string; password: string }) =>
    request(E.changeEmail, {
      params: { id },
      body: { user_id: id, userId: id, url: linkBases(window.location.origin).changeEmail, ...body },
    }),
  changeEmailResend: (id: number) =>
    request(E.changeEmailResend, {
      body: { id, userId: id, url: linkBases(window.location.origin).changeEmail },
    }),
  changeEmailRevoke: (id: number) => request(E.changeEmailRevoke, { body: { id, userId: id } }),
  changeEmailAccept: (hash: string) => request(E.changeEmailAccept, { body: { hash }, popups: false }),
  infoDelete: (id: number) => request(E.deletionInfo, { params: { id } }),
  requestDelete: (id: number, password: string) =>
    request(E.remove, {
      params: { id },
      body: { user_id: id, password, url: linkBases(window.location.origin).deleteUser },
    }),
  deleteResend: (id: number) =>
    request(E.deleteResend, {
      params: { id },
      body: { id, user_id: id, url: linkBases(window.location.origin).deleteUser },
    }),
  deleteRevoke: (id: number) => request(E.deleteRevoke, { params: { id }, body: { id } }),
  deleteAccept: (hash: string) => request(E.deleteAccept, { body: { hash }, popups: false }),
};
