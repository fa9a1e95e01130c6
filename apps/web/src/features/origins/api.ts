import { ENDPOINTS } from '@tlprt/contract';
import { request } from '../../platform/api/client';

const E = ENDPOINTS.origins;

/** Origin calls of docs/domains-and-keys.md "Origins". */
export const originsApi = {
  list: (teamId: number, signal?: AbortSignal) => request(E.list, { params: { teamId }, signal }),
  create: (teamId: number, name: string) => request(E.create, { params: { teamId }, body: { name } }),
  toggle: (teamId: number, id: number) => request(E.toggle, { params: { teamId, id } }),
  remove: (teamId: number, id: number) => request(E.remove, { params: { teamId, id } }),
  verify: (teamId: number, id: number) => request(E.verify, { params: { teamId, id } }),
};
