import { z } from 'zod';
import { ZSession } from './auth.js';
import { envelope, optionalText, ZEmail, ZLinkBase } from './common.js';
import { LIMITS } from './constants.js';
import { MSG } from './messages.js';
import { DEFAULT_INVITE_ROLE } from './roles.js';

/** POST /v1/teams/{teamId}/invitation/create. Link bases get `<hash>?teamIdInvite=<teamId>` appended. */
export const ZInvitationCreateRequest = z.object({
  invited_email: ZEmail,
  role: z.coerce.number({ error: 'Must be a role id' }).int().default(DEFAULT_INVITE_ROLE),
  accept_new_user_url: ZLinkBase,
  accept_url: ZLinkBase,
  decline_url: ZLinkBase,
  teamId: z.coerce.number().int().optional(),
});
export type TInvitationCreateRequest = z.input<typeof ZInvitationCreateRequest>;
export const ZInvitationResendRequest = ZInvitationCreateRequest.omit({
  invited_email: true,
  role: true,
}).extend({
  invite_id: z.coerce.number().int().optional(),
});

export const ZInvitation = z.object({
  id: z.number().int(),
  status: z.number().int(),
  role: z.number().int(),
  invited_email: z.string(),
  inviting_user: z.object({ id: z.number().int().nullable(), email: z.string(), name: z.string() }),
  team: z.object({ id: z.number().int(), name: z.string() }),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type TInvitation = z.infer<typeof ZInvitation>;
export const ZInvitationListResponse = envelope(z.array(ZInvitation));

/** PUT /guest/invitation/{hash} for a new user: the "Create account" form of the invite link. */
export const ZInviteNewAccountRequest = z
  .object({
    name: optionalText(LIMITS.nameMax).optional(),
    surname: optionalText(LIMITS.surnameMax).optional(),
    password: z
      .string({ error: MSG.fieldRequired })
      .min(1, MSG.fieldRequired)
      .min(LIMITS.passwordMin, MSG.passwordMin)
      .max(LIMITS.passwordMax, MSG.tooLong(LIMITS.passwordMax)),
    confirm: z.string({ error: MSG.fieldRequired }).min(1, MSG.fieldRequired),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: MSG.passwordsDoNotMatch });
export type TInviteNewAccountRequest = z.input<typeof ZInviteNewAccountRequest>;

/** Accepting signs a new user in (session) and always says which team was joined. */
export const ZInviteAcceptResponse = z.object({
  message: z.string(),
  access_token: z.string().optional(),
  data: z.object({ team_id: z.number().int(), session: ZSession.optional() }),
});
export type TInviteAcceptResponse = z.infer<typeof ZInviteAcceptResponse>;
