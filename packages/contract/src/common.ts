import { z } from 'zod';
import { LIMITS } from './constants.js';
import { MSG } from './messages.js';

/** Every error body of the three APIs (DESIGN §4). */
export const ZApiError = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type TApiError = z.infer<typeof ZApiError>;

export const ZMessage = z.object({ message: z.string() });
export type TMessage = z.infer<typeof ZMessage>;

/** `{message, data}` success envelope. */
export const envelope = <T extends z.ZodTypeAny>(data: T) => z.object({ message: z.string(), data });

/** Trimmed, required text: "Required field" when empty. */
export const requiredText = (max?: number) => {
  const base = z.string({ error: MSG.required }).trim().min(1, MSG.required);
  return max ? base.max(max, MSG.tooLong(max)) : base;
};
/** Trimmed optional text with a maximum (empty allowed). */
export const optionalText = (max: number) =>
  z.string({ error: 'Must be text' }).trim().max(max, MSG.tooLong(max));

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
