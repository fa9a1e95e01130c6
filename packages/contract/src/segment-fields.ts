import { z } from 'zod';
import { MSG, MSG_INTEGRITY } from './messages.js';

/**
 * A segment as a viewer asks about it (GET /player/v1/integrity) and a packager pushes its hash
 * (POST /player/v1/hashes): the same fields, so a pushed hash is stored under exactly the segment a
 * viewer will ask for.
 */

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

/** A segment's absolute http(s) URL, without credentials. */
export const ZSegmentUrl = z
  .string({ error: MSG.required })
  .min(1, MSG.required)
  .max(INTEGRITY_URL_MAX, MSG_INTEGRITY.url)
  .refine(isSegmentUrl, MSG_INTEGRITY.url);

/** A byte range `start-end` of a segment. */
export const ZSegmentRange = z
  .string({ error: MSG_INTEGRITY.range })
  .refine((r) => parseIntegrityRange(r) !== undefined, MSG_INTEGRITY.range);
