import { z } from 'zod';
import { envelope, ZEmail, ZFlag, ZHash, ZLinkBase, ZPassword } from './common.js';
import { MSG } from './messages.js';

// ----- requests (spec §7 Auth). Field names are the spec's. -----

export const ZLoginRequest = z.object({
  login: ZEmail,
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(1000, MSG.tooLong(1000)),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZRegisterRequest = z.object({
  login: ZEmail,
  createPath: ZLinkBase,
  resetPath: ZLinkBase,
  loginPath: ZLinkBase,
  offer: ZFlag.refine((v) => v, MSG.termsRequired),
  subscription: ZFlag.default(false),
});
export type TRegisterRequest = z.input<typeof ZRegisterRequest>;

export const ZRecoveryRequest = z.object({ login: ZEmail, url: ZLinkBase });
export type TRecoveryRequest = z.input<typeof ZRecoveryRequest>;

const passwordPair = z
  .object({ hash: ZHash, password: ZPassword, confirm: ZPassword })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: MSG.passwordsDoNotMatch });

/** POST /guest/set-new-password (first password, from the sign-up mail). */
export const ZSetNewPasswordRequest = passwordPair;
export type TSetNewPasswordRequest = z.infer<typeof ZSetNewPasswordRequest>;
/** POST /guest/password-recovery-accept (reset, from the recovery mail). */
export const ZPasswordRecoveryAcceptRequest = passwordPair;
export type TPasswordRecoveryAcceptRequest = z.infer<typeof ZPasswordRecoveryAcceptRequest>;

// ----- responses -----

export const ZSession = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_at: z.number().int(),
  user_id: z.number().int(),
});
/** Login and password-setting calls sign the user in: `access_token` is also at the top level. */
export const ZLoginResponse = envelope(ZSession).extend({ access_token: z.string() });
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

/** GET /guest/check_hash/{hash}: `message` is "hash valid" only for a live hash. */
export const ZCheckHashResponse = z.object({
  message: z.string(),
  data: z.object({ kind: z.string() }).optional(),
});
export type TCheckHashResponse = z.infer<typeof ZCheckHashResponse>;

export const ZTimeZone = z.object({ id: z.number().int(), text: z.string(), name: z.string() });
export type TTimeZone = z.infer<typeof ZTimeZone>;
export const ZTimeZoneListResponse = envelope(z.array(ZTimeZone));

export const ZServerTimeResponse = envelope(z.object({ timestamp: z.number().int() }));
export type TServerTimeResponse = z.infer<typeof ZServerTimeResponse>;
