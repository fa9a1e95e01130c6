import { z } from 'zod';
import { endpoint } from '../endpoint.js';
import { MSG, MSG_INTEGRITY } from '../messages.js';
import { PLAYER_PATHS } from '../player.js';

/** Longest segment URL the integrity service takes (the plugin then checks that segment against
 *  nothing: it comes from the CDN only). */
export const INTEGRITY_URL_MAX = 2048;

function isSegmentUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

/** `<start>-<end>`, end included; 15 digits keep both exact as numbers. */
const RANGE = /^(\d{1,15})-(\d{1,15})$/;

/** A byte range of the query as numbers (the schema has already refused anything else). */
export function parseIntegrityRange(range: string): { start: number; end: number } | undefined {
  const m = RANGE.exec(range);
  if (!m) return undefined;
  const start = Number(m[1]);
  const end = Number(m[2]);
  return start <= end ? { start, end } : undefined;
}

/** `?key=&url=[&range=]` of GET /player/v1/integrity. The key is any text up to 200: a hash no key
 *  has is "not usable" (404) like any other. */
export const ZIntegrityQuery = z.object({
  key: z.string({ error: MSG.required }).min(1, MSG.required).max(200, MSG.tooLong(200)),
  url: z
    .string({ error: MSG.required })
    .min(1, MSG.required)
    .max(INTEGRITY_URL_MAX, MSG_INTEGRITY.url)
    .refine(isSegmentUrl, MSG_INTEGRITY.url),
  range: z
    .string({ error: MSG_INTEGRITY.range })
    .refine((r) => parseIntegrityRange(r) !== undefined, MSG_INTEGRITY.range)
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
} as const;
