import { z } from 'zod';
import { envelope, optionalText, requiredText, text, ZFlag, ZHash, ZLinkBase } from './common.js';
import { LIMITS } from './constants.js';
import { HOST_PATTERN } from './domains.js';
import { MSG } from './messages.js';
import { ZTeamSummary } from './user.js';

/** A member or an invited person in a team's user list (spec §3 "Team member"). */
export const ZTeamMember = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  roles: z.number().int(),
  image: z.number().int(),
  /** 10 = invited, not yet accepted; 0 = member. */
  invite_status: z.number().int(),
  invite_id: z.number().int().nullable(),
  inviting_user: z.number().int().nullable(),
  /** True only when more than one admin exists (spec §6). */
  isAdminUser: z.boolean(),
  isSelectRole: z.boolean(),
  isResendInviteUserTeam: z.boolean(),
});
export type TTeamMember = z.infer<typeof ZTeamMember>;

/** GET /v1/teams/{id}: the team with its people, as the caller sees it. */
export const ZTeamDetail = ZTeamSummary.extend({
  users: z.array(ZTeamMember),
  invited: z.array(ZTeamMember),
  tags: z.array(z.string()),
  members: z.number().int(),
  countAdmin: z.number().int(),
  countUser: z.number().int(),
  /** 20 when the caller is the sole admin of a team with other members (blocks account deletion). */
  permissionToDelete: z.number().int(),
});
export type TTeamDetail = z.infer<typeof ZTeamDetail>;
export const ZTeamDetailResponse = envelope(ZTeamDetail);

/** A team's website (issue 39): empty, or a host name with an optional path, with or without http(s)://
 *  ("example.com", "https://example.com/about"); not words, an address literal or credentials. */
export function isWebsite(s: string): boolean {
  if (s === '') return true;
  if (/\s/.test(s)) return false;
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `https://${s}`);
    const web = u.protocol === 'http:' || u.protocol === 'https:';
    return web && u.username === '' && u.password === '' && HOST_PATTERN.test(u.hostname);
  } catch {
    return false;
  }
}

export const ZUpdateTeamRequest = z
  .object({
    id: z.coerce.number().int().optional(),
    name: requiredText(LIMITS.teamNameMax).optional(),
    website: optionalText(LIMITS.websiteMax).refine(isWebsite, MSG.invalidWebsite).optional(),
  })
  .strict();
export type TUpdateTeamRequest = z.input<typeof ZUpdateTeamRequest>;

export const ZSetVersionRequest = z.object({
  version: z.coerce
    .number({ error: 'Must be 0 or 1' })
    .int()
    .min(0, 'Must be 0 or 1')
    .max(1, 'Must be 0 or 1'),
});

const epochSeconds = z.coerce.number({ error: 'Must be a number' }).int().min(0).max(32_503_680_000);
/** POST /v1/teams (search). Ordinary users search their own teams; supervisors every team. */
export const ZTeamSearchRequest = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  scroll: ZFlag.optional(),
  general: text().max(200, MSG.tooLong(200)).optional(),
  /** 2 = only favourites, 0 = all. */
  favourite: z.coerce.number().int().min(0).max(2).optional(),
  suspended: z.coerce.number().int().min(0).max(1).optional(),
  statuses: z.array(z.coerce.number().int()).max(10).optional(),
  start_time: epochSeconds.optional(),
  end_time: epochSeconds.optional(),
  customdate: z.unknown().optional(),
  searchNameStatus: z.unknown().optional(),
});
export type TTeamSearchRequest = z.input<typeof ZTeamSearchRequest>;
export const ZTeamListItem = ZTeamSummary.extend({ members: z.number().int(), tags: z.array(z.string()) });
export type TTeamListItem = z.infer<typeof ZTeamListItem>;
export const ZTeamSearchResponse = z.object({
  message: z.string(),
  data: z.array(ZTeamListItem),
  pagination: z.object({ total: z.number().int(), page: z.number().int(), limit: z.number().int() }),
});

/** Confirm and cancel link bases for the team deletion and suspension mails. */
export const ZLinkPathsRequest = z.object({ confirmPath: ZLinkBase, cancelPath: ZLinkBase });
export const ZDeleteLockRequest = ZLinkPathsRequest.extend({
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(1000),
});
/** Suspension starts with the team name typed (it must equal the team name, or the name is empty). */
export const ZSuspendRequest = z.object({
  name: text(MSG.required).max(200, MSG.tooLong(200)).default(''),
  confirmPath: ZLinkBase.optional(),
  cancelPath: ZLinkBase.optional(),
});
export const ZHashRequest = z.object({ hash: ZHash });
export const ZOptionalHashRequest = z.object({ hash: ZHash.optional() });
export const ZTagRequest = z.object({ tag: requiredText(LIMITS.tagMax) });
export const ZPasswordConfirmRequest = z.object({
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(1000),
});

/** PUT /v1/teams/{id}/favourite: the caller's star after the toggle. */
export const ZFavouriteResponse = envelope(z.object({ team_id: z.number().int(), favourite: z.boolean() }));
/** tag/add and tag/remove: the team's tags after the change. */
export const ZTagsResponse = envelope(z.object({ team_id: z.number().int(), tags: z.array(z.string()) }));
