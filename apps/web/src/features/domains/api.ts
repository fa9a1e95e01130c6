import {
  API,
  DICTIONARY_LOCALE,
  ZCreateDomainResponse,
  ZDictionariesResponse,
  ZDomainListResponse,
  ZMessage,
  ZVerificationInstructionsResponse,
  ZVerifyDomainResponse,
} from '@tlprt/contract';
import { call } from '../../api/client';

/** Domain calls of docs/domains-and-keys.md (paths and schemas from the contract). */
export const domainsApi = {
  list: (teamId: number, signal?: AbortSignal) =>
    call({
      method: 'POST',
      path: API.domains.list(teamId),
      schema: ZDomainListResponse,
      auth: 'bearer',
      signal,
    }),
  create: (teamId: number, url: string) =>
    call({
      method: 'POST',
      path: API.domains.create(teamId),
      body: { url, teamId },
      schema: ZCreateDomainResponse,
      auth: 'bearer',
    }),
  instructions: (teamId: number, id: number, signal?: AbortSignal) =>
    call({
      path: API.domains.instructions(teamId, id),
      schema: ZVerificationInstructionsResponse,
      auth: 'bearer',
      signal,
    }),
  verify: (teamId: number, id: number, verificationMethod: number, inx: number) =>
    call({
      method: 'PUT',
      path: API.domains.verify(teamId, id),
      body: { verificationMethod, inx },
      schema: ZVerifyDomainResponse,
      auth: 'bearer',
    }),
  promote: (teamId: number, id: number) =>
    call({ path: API.domains.promote(teamId, id), schema: ZMessage, auth: 'bearer' }),
  toggleActive: (teamId: number, id: number) =>
    call({ path: API.domains.toggleActive(teamId, id), schema: ZMessage, auth: 'bearer' }),
  remove: (teamId: number, id: number) =>
    call({ method: 'DELETE', path: API.domains.remove(teamId, id), schema: ZMessage, auth: 'bearer' }),
  suspend: (teamId: number, id: number) =>
    call({ method: 'POST', path: API.domains.suspend(teamId, id), schema: ZMessage, auth: 'bearer' }),
  dictionaries: (signal?: AbortSignal) =>
    call({
      path: API.dashboard.dictionaries(DICTIONARY_LOCALE),
      schema: ZDictionariesResponse,
      auth: 'bearer',
      signal,
    }),
};
