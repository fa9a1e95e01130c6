import { API, ZMessage, ZOriginListResponse, ZOriginResponse } from '@tlprt/contract';
import { call } from '../../api/client';

/** Origin calls of docs/domains-and-keys.md "Origins". */
export const originsApi = {
  list: (teamId: number, signal?: AbortSignal) =>
    call({ path: API.origins.list(teamId), schema: ZOriginListResponse, auth: 'bearer', signal }),
  create: (teamId: number, name: string) =>
    call({
      method: 'POST',
      path: API.origins.list(teamId),
      body: { name },
      schema: ZOriginResponse,
      auth: 'bearer',
    }),
  toggle: (teamId: number, id: number) =>
    call({ path: API.origins.toggle(teamId, id), schema: ZMessage, auth: 'bearer' }),
  remove: (teamId: number, id: number) =>
    call({ method: 'DELETE', path: API.origins.remove(teamId, id), schema: ZMessage, auth: 'bearer' }),
};
