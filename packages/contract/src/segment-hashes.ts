import { z } from 'zod';
import { LIMITS } from './constants.js';
import { MSG, MSG_HASHES } from './messages.js';
import { INTEGRITY_URL_MAX, ZSegmentRange, ZSegmentUrl } from './segment-fields.js';

/**
 * The hash push (POST /player/v1/hashes, issue 36): a team's packager publishes the SHA-256 of each
 * segment it writes, with an API token of scope `hashes`, so the integrity service answers viewers
 * without fetching the segment from the origin. A push is checked in two steps: the request as a whole
 * (an array of at most LIMITS.hashesPerPush items: else 400), then each item on its own (a bad item is
 * rejected and counted, the others are stored: 202).
 */

/** Pushes one token may make a minute, and the hashes they may carry together (per node). A live
 *  packager pushes a few times per segment duration; a library's back-fill of 100,000 segments takes
 *  two minutes. */
export const HASH_PUSH_RATE = { requestsPerMinute: 600, hashesPerMinute: 60_000 } as const;

/** How many rejected items an answer describes (the rest are only counted): a push of 1,000 bad URLs
 *  of 2,048 characters must not answer 2 MB. */
export const HASH_PUSH_MAX_ERRORS = 100;

/** One segment's hash; `url` and `range` are the integrity query's own fields. */
export const ZPushedHash = z.object({
  url: ZSegmentUrl,
  sha256: z.string({ error: MSG_HASHES.sha256 }).regex(/^[0-9a-f]{64}$/, MSG_HASHES.sha256),
  range: ZSegmentRange.optional(),
});
export type TPushedHash = z.infer<typeof ZPushedHash>;

/** The request as a whole. Its items are checked one by one (checkPushedHash), so that one bad URL
 *  does not refuse the other 999. */
export const ZHashPushRequest = z.object({
  hashes: z
    .array(
      z.unknown().meta({
        description:
          'One segment: {"url": absolute http(s) URL on a host of the token\'s team, "sha256": 64 lowercase hex, "range"?: "<start>-<end>" (bytes, end included)}. A bad item is rejected alone.',
      }),
      { error: (issue) => (issue.input === undefined ? MSG.required : MSG_HASHES.notArray) },
    )
    .max(LIMITS.hashesPerPush, MSG_HASHES.tooMany(LIMITS.hashesPerPush)),
});

/** A rejected item: its index in `hashes`, its URL as sent (cut to the integrity URL's limit; null when
 *  it had none), and why, naming the field ("sha256: Must be..."). */
export const ZHashPushError = z.object({
  index: z.number().int(),
  url: z.string().nullable(),
  message: z.string(),
});
export type THashPushError = z.infer<typeof ZHashPushError>;

/** 202: how many items were stored and how many refused; `errors` describes the first
 *  HASH_PUSH_MAX_ERRORS refused. */
export const ZHashPushResponse = z.object({
  accepted: z.number().int(),
  rejected: z.number().int(),
  errors: z.array(ZHashPushError),
});
export type THashPushResponse = z.infer<typeof ZHashPushResponse>;

/** One item's own check: the parsed item, or the first problem as "<field>: <message>". */
export function checkPushedHash(
  item: unknown,
): { ok: true; value: TPushedHash } | { ok: false; url: string | null; message: string } {
  const fields =
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? (item as Record<string, unknown>)
      : undefined;
  const url = typeof fields?.url === 'string' ? fields.url.slice(0, INTEGRITY_URL_MAX) : null;
  if (fields === undefined) return { ok: false, url, message: MSG_HASHES.notItem };
  const parsed = ZPushedHash.safeParse(item);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join('.') ?? '';
  return {
    ok: false,
    url,
    message: field ? `${field}: ${issue?.message}` : (issue?.message ?? MSG_HASHES.notItem),
  };
}
