import { z } from 'zod';
import { ZServerTimeResponse, ZTimeZoneListResponse } from '../auth.js';
import { ZId } from '../common.js';
import { ZDictionariesResponse } from '../dictionaries.js';
import { endpoint } from '../endpoint.js';

/**
 * Public reference data. `player` access, not `guest`: open to anybody, with no token and no
 * per-address limit, and `guest` would put them under the guest calls' limit (the app reads the server
 * time for its clock offset, signed in or not).
 */
export const DICTIONARY_ENDPOINTS = {
  /** Only the one locale the product uses (spec §9); any other is a 404. */
  dictionaries: endpoint({
    method: 'GET',
    path: '/api/dictionaries/:locale',
    access: 'player',
    tag: 'dictionaries',
    params: z.object({ locale: ZId }),
    response: ZDictionariesResponse,
    errors: [400, 404],
  }),
  timeZoneList: endpoint({
    method: 'GET',
    path: '/auth/time_zone_list',
    access: 'player',
    tag: 'auth',
    response: ZTimeZoneListResponse,
    errors: [],
  }),
  serverTime: endpoint({
    method: 'GET',
    path: '/auth/get_time_server',
    access: 'player',
    tag: 'auth',
    response: ZServerTimeResponse,
    errors: [],
  }),
} as const;
