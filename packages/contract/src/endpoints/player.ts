import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import { MSG } from '../messages.js';
import { PLAYER_PATHS } from '../player.js';
import { REPORT_STREAM_MAX } from '../report.js';
import { ZSegmentRange, ZSegmentUrl } from '../segment-fields.js';
import { ZHashPushRequest, ZHashPushResponse } from '../segment-hashes.js';

/** `?key=&url=[&range=][&stream=]` of GET /player/v1/integrity. The key is any text up to 200: a hash
 *  no key has is "not usable" (404) like any other. `stream` is the player's stream (its report's
 *  `stream`): the bytes fetched to verify the segment are counted under it. */
export const ZIntegrityQuery = z.object({
  key: z.string({ error: MSG.required }).min(1, MSG.required).max(200, MSG.tooLong(200)),
  url: ZSegmentUrl,
  range: ZSegmentRange.optional(),
  stream: z
    .string({ error: MSG.tooLong(REPORT_STREAM_MAX) })
    .max(REPORT_STREAM_MAX, MSG.tooLong(REPORT_STREAM_MAX))
    .optional(),
});
export type TIntegrityQuery = z.infer<typeof ZIntegrityQuery>;

/** The SHA-256 of the segment's bytes (of the range's bytes when one is asked), as the origin served
 *  them to the server; isIntegrityBody in player.ts is this schema without zod. */
export const ZIntegrityResponse = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) });
export type TIntegrityResponse = z.infer<typeof ZIntegrityResponse>;

/**
 * What players call on the plugin's own paths (/player/...). Not part of ENDPOINTS, the table of the
 * three APIs (/api, /auth, /stats) the web app calls; the server registers these with route() all the
 * same, so their schemas validate, serialize and document them.
 */
export const PLAYER_ENDPOINTS = {
  /**
   * 400: a field of the query (named in `errors`); 404: the key is not usable, or not from this page's
   * Origin; 403: the segment's host is none of the key's team (that stream is not verifiable); 429:
   * too many requests (per address, per key); 502: the origin could not be read (that segment comes
   * from the CDN only).
   */
  integrity: endpoint({
    method: 'GET',
    path: PLAYER_PATHS.integrity,
    access: 'player',
    tag: 'player',
    summary: "The origin's SHA-256 of a segment (or of a byte range of it), for P2P integrity checks",
    query: ZIntegrityQuery,
    response: ZIntegrityResponse,
    errors: [400, 403, 404, 429, 502],
  }),
  /**
   * A team's packager publishes its segments' SHA-256 with an API token of scope `hashes` in
   * `Authorization: Bearer` (segment-hashes.ts). 401: no such live token of that scope; 400: the request
   * as a whole (named in `errors`); 429: too many pushes or hashes with this token this minute. Bad items
   * are answered in the 202's `errors`, the others stored.
   */
  hashes: endpoint({
    method: 'POST',
    path: PLAYER_PATHS.hashes,
    access: 'player',
    tag: 'player',
    summary:
      "Publish segments' SHA-256 (at most 1,000 a request) with a team API token of scope hashes; the integrity service answers them without fetching the segments",
    body: ZHashPushRequest,
    status: 202,
    response: ZHashPushResponse,
    errors: [400, 401, 429],
  }),
} as const;
