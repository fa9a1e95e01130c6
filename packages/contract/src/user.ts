import { z } from 'zod';
import { envelope, optionalText, ZId } from './common.js';
import { LIMITS } from './constants.js';
import { MSG_TEAMS } from './messages.js';
import { findTimeZone } from './timezones.js';

/** A team as the signed-in user sees it in the sidebar and team switcher. */
export const ZTeamSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  website: z.string(),
  role: z.number().int(),
  favourite: z.boolean(),
  version: z.number().int(),
  statusId: z.number().int(),
  suspended: z.number().int(),
  suspendedProcess: z.number().int(),
  timezoneId: z.number().int(),
  timeZone: z.string(),
  utcOffset: z.number(),
  createdAt: z.string(),
});
export type TTeamSummary = z.infer<typeof ZTeamSummary>;

export const ZUser = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  surname: z.string(),
  phone: z.string(),
  image: z.number().int(),
  supervisor: z.boolean(),
  userStatusId: z.number().int(),
  changePasswordAt: z.string().nullable(),
  statusChangeEmail: z.number().int(),
  newChangeEmail: z.string().nullable(),
  deleteProgress: z.number().int(),
  createdAt: z.string(),
  /** The person's own time zone for charts (an id of the time zone list); null: the current team's.
   *  Optional so an answer from before it existed still parses (absent reads as null). */
  timezoneId: z.number().int().nullable().optional(),
  TeamsRender: z.array(ZTeamSummary),
});
export type TUser = z.infer<typeof ZUser>;
export const ZUserResponse = envelope(ZUser);
export type TUserResponse = z.infer<typeof ZUserResponse>;
/** GET /auth/v1/check: the session is live; who is signed in. */
export const ZCheckResponse = ZUserResponse;

export const ZPhone = optionalText(LIMITS.phoneMax).regex(
  /^[0-9+()\-.\s]*$/,
  'Only digits, spaces and + ( ) - . are allowed',
);

/** PUT /api/v1/user/{id}: any subset of the profile fields. */
export const ZUpdateUserRequest = z
  .object({
    id: ZId.optional(),
    name: optionalText(LIMITS.nameMax).optional(),
    surname: optionalText(LIMITS.surnameMax).optional(),
    phone: ZPhone.optional(),
    image: z.coerce
      .number({ error: 'Must be a number' })
      .int('Must be a whole number')
      .min(0, 'Must be between 0 and 11')
      .max(LIMITS.profileImages - 1, 'Must be between 0 and 11')
      .optional(),
    /** null goes back to the team's time zone. */
    timezoneId: z
      .number({ error: 'Must be a number' })
      .int('Must be a whole number')
      .refine((id) => findTimeZone(id) !== undefined, MSG_TEAMS.timeZoneUnknown)
      .nullable()
      .optional(),
  })
  .strict();
export type TUpdateUserRequest = z.input<typeof ZUpdateUserRequest>;
