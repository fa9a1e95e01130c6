import { API, linkBases, ZDeleteInfoResponse, ZMessage } from '@tlprt/contract';
import { call } from '../../api/client';

/** Account self-service calls of spec §7 "User". */
export const profileApi = {
  changePassword: (
    id: number,
    body: { team_id?: number; password: string; new_password: string; confirm: string },
  ) =>
    call({
      method: 'POST',
      path: API.users.changePassword(id),
      body: { user_id: id, ...body },
      schema: ZMessage,
      auth: 'bearer',
    }),
  changeEmail: (id: number, body: { team_id?: number; email: string; password: string }) =>
    call({
      method: 'POST',
      path: API.users.changeEmail(id),
      body: { user_id: id, userId: id, url: linkBases(window.location.origin).changeEmail, ...body },
      schema: ZMessage,
      auth: 'bearer',
    }),
  changeEmailResend: (id: number) =>
    call({
      method: 'POST',
      path: API.users.changeEmailResend,
      body: { id, userId: id, url: linkBases(window.location.origin).changeEmail },
      schema: ZMessage,
      auth: 'bearer',
    }),
  changeEmailRevoke: (id: number) =>
    call({
      method: 'POST',
      path: API.users.changeEmailRevoke,
      body: { id, userId: id },
      schema: ZMessage,
      auth: 'bearer',
    }),
  changeEmailAccept: (hash: string) =>
    call({
      method: 'POST',
      path: API.users.changeEmailAccept,
      body: { hash },
      schema: ZMessage,
      auth: 'bearer',
      popups: false,
    }),
  infoDelete: (id: number) =>
    call({
      method: 'POST',
      path: API.users.infoDelete(id),
      body: { userId: id },
      schema: ZDeleteInfoResponse,
      auth: 'bearer',
    }),
  requestDelete: (id: number, password: string) =>
    call({
      method: 'DELETE',
      path: API.users.remove(id),
      body: { user_id: id, password, url: linkBases(window.location.origin).deleteUser },
      schema: ZMessage,
      auth: 'bearer',
    }),
  deleteResend: (id: number) =>
    call({
      method: 'POST',
      path: API.users.deleteResend(id),
      body: { id, user_id: id, url: linkBases(window.location.origin).deleteUser },
      schema: ZMessage,
      auth: 'bearer',
    }),
  deleteRevoke: (id: number) =>
    call({
      method: 'POST',
      path: API.users.deleteRevoke(id),
      body: { id },
      schema: ZMessage,
      auth: 'bearer',
    }),
  deleteAccept: (hash: string) =>
    call({
      method: 'DELETE',
      path: API.users.deleteAccept,
      body: { hash },
      schema: ZMessage,
      auth: 'bearer',
      popups: false,
    }),
};
