import { z } from 'zod';
import { envelope, text, ZEmail, ZLinkBase, ZPassword } from './common.js';
import { MSG, MSG_TEAMS } from './messages.js';

const currentPassword = z.string({ error: MSG.required }).min(1, MSG.required).max(1000);
const optionalId = z.coerce.number().int().optional();

/** POST /v1/profile_settings/user/{id}/change_password */
export const ZChangePasswordRequest = z
  .object({
    user_id: optionalId,
    team_id: optionalId,
    password: currentPassword,
    new_password: ZPassword,
    confirm: ZPassword,
  })
  .refine((v) => v.new_password === v.confirm, { path: ['confirm'], message: MSG.passwordsDoNotMatch });
export type TChangePasswordRequest = z.input<typeof ZChangePasswordRequest>;

/** POST /v1/profile_settings/user/{id}/change_email */
export const ZChangeEmailRequest = z.object({
  user_id: optionalId,
  team_id: optionalId,
  userId: optionalId,
  password: currentPassword,
  email: ZEmail,
  url: ZLinkBase,
});
export type TChangeEmailRequest = z.input<typeof ZChangeEmailRequest>;
export const ZChangeEmailResendRequest = z.object({ id: optionalId, userId: optionalId, url: ZLinkBase });
export const ZChangeEmailRevokeRequest = z.object({ id: optionalId, userId: optionalId });

/** The deletion check (spec §4): 200, 201, 202, 203 can delete; 400, 401, 402 cannot. */
export const DeleteCheckStatus = {
  CanDelete: 200,
  CanDeleteSoloTeam: 201,
  CanDeleteNoSoloAdmin: 202,
  CanDeleteNoAdminRole: 203,
  CannotDelete: 400,
  CannotDeleteSoleAdminManyUsers: 401,
  CannotDeleteManyTeams: 402,
} as const;
const ZDeleteCheckTeam = z.object({ id: z.number().int(), name: z.string(), role: z.number().int() });
export const ZDeleteInfo = z.object({
  status: z.number().int(),
  statusMessage: z.string(),
  teams: z.array(ZDeleteCheckTeam),
  arrayCannotDelete: z.array(ZDeleteCheckTeam),
});
export type TDeleteInfo = z.infer<typeof ZDeleteInfo>;
export const ZDeleteInfoResponse = envelope(ZDeleteInfo);

/** DELETE /v1/user/{id}: password confirmation, then an e-mail link to url + hash. */
export const ZDeleteUserRequest = z.object({
  user_id: optionalId,
  password: currentPassword,
  url: ZLinkBase,
});
export const ZUserResendRequest = z.object({ id: optionalId, user_id: optionalId, url: ZLinkBase });
export const ZUserRevokeRequest = z.object({ id: optionalId });

/** POST /v1/user (search; supervisors). */
export const ZUserSearchRequest = z.object({
  general: text().max(200, MSG.tooLong(200)).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const ZUserListItem = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  surname: z.string(),
  supervisor: z.boolean(),
  userStatusId: z.number().int(),
  createdAt: z.string(),
});
export const ZUserSearchResponse = z.object({
  message: z.string(),
  data: z.array(ZUserListItem),
  pagination: z.object({ total: z.number().int(), page: z.number().int(), limit: z.number().int() }),
});

/** statusMessage of each deletion-check status (spec §4). */
export const DELETE_CHECK_MESSAGES: Record<number, string> = {
  200: 'You can delete your account',
  201: 'You can delete your account: your own team will be deleted with it',
  202: 'You can delete your account: you will be signed off your teams',
  203: 'You can delete your account: you will be signed off all teams',
  400: 'Unable to delete account: a team you belong to is suspended',
  401: MSG_TEAMS.soleAdminText,
  402: 'Unable to delete account: please pass the Administrative role to another member or delete the team before deleting your account.',
};
