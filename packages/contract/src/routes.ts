import { LinkKind, type LinkKindValue } from './constants.js';
import { PLAYER_PATHS } from './player.js';

/** Route names of spec §2 (stored under tlprt_route_name) and the web paths. */
export const ROUTE_NAMES = {
  login: 'login',
  register: 'register',
  forgotPassword: 'forgotPassword',
  passwordRecovery: 'passwordRecovery',
  pendingRegistration: 'pendingRegistration',
  statistics: 'statistics',
  integration: 'integration',
  addDomains: 'addDomains',
  settings: 'settings',
  origins: 'origins',
  team: 'team',
  billing: 'billing',
} as const;
export type TRouteName = (typeof ROUTE_NAMES)[keyof typeof ROUTE_NAMES];

export const WEB_PATHS = {
  login: '/',
  register: '/register',
  pendingRegistration: '/pendingRegistration',
  forgotPassword: '/forgotPassword',
  passwordRecovery: '/passwordRecovery',
  createPassword: '/createPassword', // + /{hash}
  resPassword: '/resPassword', // + /{hash}
  createAccount: '/createAccount',
  statistics: '/statistics',
  integration: '/integration',
  addDomains: '/addDomains',
  origins: '/origins',
  settings: '/settings',
  team: '/team',
  billing: '/billing',
  mailbox: '/mailbox',
  changeEmail: '/changeEmail', // + /{hash}
  deleteUserAccount: '/deleteUserAccount', // + /{hash}
  emailEventHandler: '/email_event_handler', // + /{type}/{hash}
  emailCancelHandler: '/email_cancel_handler', // + /{type}/{name=teamId}/{hash}
  emailInviteHandler: '/email_invite_handler', // + /{old|new|decline}/{hash}?teamIdInvite=
} as const;

/** The {type} segment of /email_event_handler and /email_cancel_handler links. */
export const EMAIL_EVENT_TYPES = [
  'email',
  'delete-user',
  'delete-team-accept',
  'suspended-team-accept',
] as const;
export type TEmailEventType = (typeof EMAIL_EVENT_TYPES)[number];
export const EMAIL_CANCEL_TYPES = ['cancel_team_deleting', 'cancel_team_suspended'] as const;
export type TEmailCancelType = (typeof EMAIL_CANCEL_TYPES)[number];
/** The link kind (check_hash's `data.kind`) each e-mail link screen expects: the screens check the hash
 *  first, so a dead link says so before asking anybody to sign in. */
export const EMAIL_EVENT_LINK_KINDS: Record<TEmailEventType, LinkKindValue> = {
  email: LinkKind.ChangeEmail,
  'delete-user': LinkKind.DeleteUser,
  'delete-team-accept': LinkKind.DeleteTeam,
  'suspended-team-accept': LinkKind.SuspendTeam,
};
export const EMAIL_CANCEL_LINK_KINDS: Record<TEmailCancelType, LinkKindValue> = {
  cancel_team_deleting: LinkKind.DeleteTeam,
  cancel_team_suspended: LinkKind.SuspendTeam,
};
/** /createPassword and /resPassword take either password link (sign-up or recovery). */
export const PASSWORD_LINK_KINDS: readonly LinkKindValue[] = [LinkKind.Register, LinkKind.Recovery];
export const INVITE_LINK_TYPES = ['old', 'new', 'decline'] as const;

/** Link bases the web app sends; the server appends the hash (and `?teamIdInvite=` for invitations). */
export function linkBases(origin: string) {
  return {
    changeEmail: `${origin}/email_event_handler/email/`,
    deleteUser: `${origin}/email_event_handler/delete-user/`,
    deleteTeamConfirm: `${origin}/email_event_handler/delete-team-accept/`,
    suspendTeamConfirm: `${origin}/email_event_handler/suspended-team-accept/`,
    /** + `{name=teamId}/` before the hash: the server fills the team segment. */
    deleteTeamCancel: `${origin}/email_cancel_handler/cancel_team_deleting/`,
    suspendTeamCancel: `${origin}/email_cancel_handler/cancel_team_suspended/`,
    inviteNew: `${origin}/email_invite_handler/new/`,
    inviteOld: `${origin}/email_invite_handler/old/`,
    inviteDecline: `${origin}/email_invite_handler/decline/`,
  };
}

export const ROUTE_PATH_BY_NAME: Record<string, string> = {
  login: WEB_PATHS.login,
  register: WEB_PATHS.register,
  forgotPassword: WEB_PATHS.forgotPassword,
  passwordRecovery: WEB_PATHS.passwordRecovery,
  pendingRegistration: WEB_PATHS.pendingRegistration,
  statistics: WEB_PATHS.statistics,
  integration: WEB_PATHS.integration,
  addDomains: WEB_PATHS.addDomains,
  settings: WEB_PATHS.settings,
  origins: WEB_PATHS.origins,
  team: WEB_PATHS.team,
  billing: WEB_PATHS.billing,
};

/** The three API prefixes of DESIGN §4 and every path the foundation serves. */
export const API = {
  auth: {
    login: '/auth/guest/auth',
    register: '/auth/guest/register',
    recoveryPassword: '/auth/guest/recovery-password',
    setNewPassword: '/auth/guest/set-new-password',
    passwordRecoveryAccept: '/auth/guest/password-recovery-accept',
    checkHash: (hash: string) => `/auth/guest/check_hash/${encodeURIComponent(hash)}`,
    logout: '/auth/v1/logout',
    check: '/auth/v1/check',
    sse: '/auth/v1/sse/handle',
    timeZoneList: '/auth/time_zone_list',
    serverTime: '/auth/get_time_server',
  },
  dashboard: {
    dictionaries: (locale: number) => `/api/dictionaries/${locale}`,
    user: (id: number) => `/api/v1/user/${id}`,
    createTeam: '/api/v1/teams/create',
    docs: '/api/docs',
  },
  users: {
    search: '/api/v1/user',
    changePassword: (id: number) => `/api/v1/profile_settings/user/${id}/change_password`,
    changeEmail: (id: number) => `/api/v1/profile_settings/user/${id}/change_email`,
    changeEmailAccept: '/api/v1/profile_settings/change_email/accept',
    changeEmailResend: '/api/v1/profile_settings/change_email/resend',
    changeEmailRevoke: '/api/v1/profile_settings/change_email/revoke',
    infoDelete: (id: number) => `/api/v1/user/${id}/info_delete`,
    /** DELETE: request deletion (password → mail). */
    remove: (id: number) => `/api/v1/user/${id}`,
    deleteResend: (id: number) => `/api/v1/user/${id}/resend`,
    deleteRevoke: (id: number) => `/api/v1/user/${id}/revoke`,
    /** DELETE {hash}: confirm deletion from the mail. */
    deleteAccept: '/api/v1/user/accept',
    invitations: '/api/v1/user/invitation/search',
  },
  teams: {
    search: '/api/v1/teams',
    one: (id: number) => `/api/v1/teams/${id}`,
    leave: (id: number) => `/api/v1/teams/${id}/leave`,
    deleteConfirm: '/api/v1/teams/delete/confirm',
    deleteLock: (id: number) => `/api/v1/teams/${id}/delete/lock`,
    deleteCancel: (id: number) => `/api/v1/teams/${id}/delete/cancel`,
    deleteResend: (id: number) => `/api/v1/teams/${id}/delete/resend`,
    setTimeZone: (id: number, tz: number) => `/api/v1/teams/${id}/set_time_zone/${tz}`,
    removeMember: (id: number, userId: number) => `/api/v1/teams/${id}/delete/user/${userId}`,
    setRole: (id: number, userId: number, role: number) =>
      `/api/v1/teams/${id}/user/${userId}/set_role/${role}`,
    setVersion: (id: number) => `/api/v1/teams/${id}/set_version`,
    suspend: (id: number) => `/api/v1/teams/${id}/suspended`,
    suspendRevoke: (id: number) => `/api/v1/teams/${id}/suspended/revoke`,
    suspendResend: (id: number) => `/api/v1/teams/${id}/suspended/resend`,
    suspendConfirm: '/api/v1/teams/suspended/confirm',
    favourite: (id: number) => `/api/v1/teams/${id}/favourite`,
    tagAdd: (id: number) => `/api/v1/teams/${id}/tag/add`,
    tagRemove: (id: number) => `/api/v1/teams/${id}/tag/remove`,
  },
  domains: {
    list: (teamId: number) => `/api/v1/domains/${teamId}`,
    create: (teamId: number) => `/api/v1/domains/create/${teamId}`,
    remove: (teamId: number, domainId: number) => `/api/v1/domains/${teamId}/${domainId}`,
    promote: (teamId: number, domainId: number) => `/api/v1/domains/update_draft/${teamId}/${domainId}`,
    toggleActive: (teamId: number, domainId: number) => `/api/v1/domains/update_active/${teamId}/${domainId}`,
    verify: (teamId: number, domainId: number) => `/api/v1/domains/verify/${teamId}/${domainId}`,
    instructions: (teamId: number, domainId: number) => `/api/v1/domains/instructions/${teamId}/${domainId}`,
    suspend: (teamId: number, domainId: number) => `/api/v1/domains/suspended/${teamId}/${domainId}`,
    /** The older forms of list and create (spec §7), served as aliases: body {teamId} / {url, teamId}. */
    legacyList: '/api/v1/cdn/',
    legacyCreate: (teamId: number) => `/api/v1/cdn/${teamId}/create`,
  },
  keys: {
    /** domainId 0: a key for every domain of the team. */
    create: (teamId: number, domainId: number) => `/api/v1/keys/create/${teamId}/${domainId}`,
    list: (teamId: number) => `/api/v1/keys/${teamId}`,
    /** GET read, PUT rename, DELETE delete. */
    one: (teamId: number, keyId: number) => `/api/v1/keys/${teamId}/${keyId}`,
    toggleActive: (teamId: number, keyId: number) => `/api/v1/keys/active_key/${teamId}/${keyId}`,
    suspend: (teamId: number, keyId: number) => `/api/v1/keys/suspended/${teamId}/${keyId}`,
    settingsGet: (teamId: number, domainId: number, keyId: number) =>
      `/api/v1/key_settings/team/${teamId}/domain/${domainId}/key/${keyId}/get`,
    settingsSet: (teamId: number, domainId: number, keyId: number) =>
      `/api/v1/key_settings/team/${teamId}/domain/${domainId}/key/${keyId}/set`,
    supervisorGet: (teamId: number, keyId: number, domainId: number | null) =>
      `/api/v1/key_settings/team/${teamId}/domain/key/${keyId}/get_supervisor?domainId=${domainId ?? ''}`,
    supervisorSet: (teamId: number, layer: 'key' | 'team' | 'domain') =>
      `/api/v1/key_settings/team/${teamId}/set_supervisor_by_${layer}`,
    publicSettings: PLAYER_PATHS.settings,
  },
  origins: {
    /** GET list, POST create {name}. */
    list: (teamId: number) => `/api/v1/origins/${teamId}`,
    toggle: (teamId: number, id: number) => `/api/v1/origins/${teamId}/${id}/toggle`,
    remove: (teamId: number, id: number) => `/api/v1/origins/${teamId}/${id}`,
  },
  invitations: {
    create: (teamId: number) => `/api/v1/teams/${teamId}/invitation/create`,
    search: (teamId: number) => `/api/v1/teams/${teamId}/invitation/search`,
    /** PUT accept (invited user), DELETE cancel (invited user declines, or admin/inviter revokes). */
    one: (teamId: number, inviteId: number) => `/api/v1/teams/${teamId}/invitation/${inviteId}`,
    resend: (teamId: number, inviteId: number) => `/api/v1/teams/${teamId}/invitation/${inviteId}/resend`,
    /** PUT accept, DELETE decline, by link hash (guest; an existing user's accept needs their token). */
    guest: (hash: string) => `/auth/guest/invitation/${encodeURIComponent(hash)}`,
  },
  stats: {
    ingest: PLAYER_PATHS.ingest,
    day: '/stats/v3/dashboard/day',
    week: '/stats/v3/dashboard/week',
    month: '/stats/v3/dashboard/month',
    live: (teamId: number) => `/stats/v3/dashboard/live/${teamId}`,
    settingsGet: (userId: number, teamId: number) =>
      `/api/v1/statistic/settings/get/user/${userId}/team/${teamId}`,
    settingsPut: (userId: number, teamId: number) =>
      `/api/v1/statistic/settings/put/user/${userId}/team/${teamId}`,
  },
  /** Supervisors: the audit log of DESIGN §12 (a team's history; without a team, every entry). */
  audit: (teamId?: number, page = 1) =>
    `/api/v1/supervisor/audit?${teamId === undefined ? '' : `team_id=${teamId}&`}page=${page}`,
  /** Supervisors: "Get CSV list of all Users or Teams" (streamed CSV). */
  export: {
    users: '/api/v1/export/users.csv',
    teams: '/api/v1/export/teams.csv',
  },
} as const;
