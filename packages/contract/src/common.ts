import { z } from 'zod';
import { LIMITS } from './constants.js';
import { MSG } from './messages.js';

/** Every error body of the three APIs (docs/DESIGN.md §4). */
export const ZApiError = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type TApiError = z.infer<typeof ZApiError>;

export const ZMessage = z.object({ message: z.string() });
export type TMessage = z.infer<typeof ZMessage>;

/** `{message, data}` success envelope. */
export const envelope = <T extends z.ZodTypeAny>(data: T) => z.object({ message: z.string(), data });

/**
 * C0 and C1 control characters, DEL and the line and paragraph separators: never part of a name, a
 * search or any other single-line text (PostgreSQL refuses NUL in text; the others break pages, CSV
 * exports and logs). Checked by code point, not a regular expression of control characters.
 */
export function hasControlChars(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029) return true;
  }
  return false;
}
/** A text field of the contract: trimmed (spec §5), then no control characters left (a 400 naming the
 *  field). */
export const text = (error: string = 'Must be text') =>
  z
    .string({ error })
    .trim()
    .refine((s) => !hasControlChars(s), MSG.controlChars);

/** Trimmed, required text: "Required field" when empty. */
export const requiredText = (max?: number) => {
  const base = text(MSG.required).min(1, MSG.required);
  return max ? base.max(max, MSG.tooLong(max)) : base;
};
/** Trimmed optional text with a maximum (empty allowed). */
export const optionalText = (max: number) => text().max(max, MSG.tooLong(max));
/** ZKeyHash in one expression, for the hot paths that check a hash without zod (ingest, tracker): a
 *  hash with anything else is never looked up. */
export const KEY_HASH_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;
/** A key hash as players send it: letters and digits only (they are 40 long; older ones may differ). */
export const ZKeyHash = z
  .string({ error: MSG.required })
  .min(1, MSG.required)
  .max(200, MSG.tooLong(200))
  .regex(/^[A-Za-z0-9_-]+$/, 'Unknown key');

export const ZEmail = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(LIMITS.emailMax, MSG.tooLong(LIMITS.emailMax))
  .pipe(z.email({ error: MSG.invalidEmail }))
  .transform((s) => s.toLowerCase());

export const ZPassword = z
  .string({ error: MSG.required })
  .min(1, MSG.required)
  .min(LIMITS.passwordMin, MSG.passwordMin)
  .max(LIMITS.passwordMax, MSG.tooLong(LIMITS.passwordMax));

/** Form and multipart bodies send booleans as "1"/"0"/"true"/"false"/"on". */
export const ZFlag = z
  .union([z.boolean(), z.number(), z.string()])
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true' || v === 'on');

/** Path/body ids arrive as strings from forms and paths. */
export const ZId = z.coerce
  .number({ error: 'Must be a number' })
  .int('Must be a whole number')
  .positive('Must be a positive number')
  .max(2_147_483_647, 'Number is too large');

/** Opaque e-mail link hash: url-safe, bounded, so a 10 MB "hash" is refused early. */
export const ZHash = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(200, 'Invalid link')
  .regex(/^[A-Za-z0-9_-]+$/, 'Invalid link');

/** Link bases sent by the client (createPath, resetPath, ...): an absolute http(s) URL. The server also
 *  checks that its origin is PUBLIC_URL's. */
export const ZLinkBase = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(2000, MSG.tooLong(2000))
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'Must be an absolute http(s) URL');

/** Path parameters of the calls scoped to one team, and to one item of that team. */
export const ZTeamParams = z.object({ teamId: ZId });
export const ZTeamItemParams = z.object({ teamId: ZId, id: ZId });
/** 0 means "every domain of the team". */
export const ZIdOrZero = z.coerce
  .number({ error: 'Must be a number' })
  .int('Must be a whole number')
  .min(0, 'Must not be negative')
  .max(2_147_483_647, 'Number is too large');
