import { DICTIONARY_LOCALE, ENDPOINTS } from '@tlprt/contract';
import { request } from '../../platform/api/client';

const E = ENDPOINTS.domains;

/** Domain calls of docs/domains-and-keys.md (the contract's descriptors). */
export const domainsApi = {
  create: (teamId: number, url: string) => request(E.create, { params: { teamId }, body: { url, teamId } }),
  instructions: (teamId: number, id: number, signal?: AbortSignal) =>
    request(E.instructions, { params: { teamId, id }, signal }),
  verify: (teamId: number, id: number, verificationMethod: number, inx: number) =>
    request(E.verify, { params: { teamId, id }, body: { verificationMethod, inx } }),
  promote: (teamId: number, id: number) => request(E.promote, { params: { teamId, id } }),
  toggleActive: (teamId: number, id: number) => request(E.toggleActive, { params: { teamId, id } }),
  remove: (teamId: number, id: number) => request(E.remove, { params: { teamId, id } }),
  suspend: (teamId: number, id: number) => request(E.suspend, { params: { teamId, id } }),
  setPlainHttp: (teamId: number, id: number, plainHttp: boolean) =>
    request(E.setPlainHttp, { params: { teamId, id }, body: { plainHttp } }),
  dictionaries: (signal?: AbortSignal) =>
    request(ENDPOINTS.dictionaries.dictionaries, { params: { locale: DICTIONARY_LOCALE }, signal }),
};
