import { LinkKind, type LinkKindValue } from './constants.js';

/** Route names of spec §2 (stored under tlprt_route_name) and the web paths. */
export const ROUTE_NAMES = {
  login: 'login',
  register: 'register',
  forgotPassword: 'forgotPassword',
  passwordRecovery: 'passwordRecovery',
  pendingRegistration: 'pendingRegistration',
  statistics: 'statistics',
  alerts: 'alerts',
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
  alerts: '/alerts',
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
  alerts: WEB_PATHS.alerts,
  integration: WEB_PATHS.integration,
  addDomains: WEB_PATHS.addDomains,
  settings: WEB_PATHS.settings,
  origins: WEB_PATHS.origins,
  team: WEB_PATHS.team,
  billing: WEB_PATHS.billing,
};

/** The OpenAPI description of the three APIs (the endpoints themselves: endpoints/). */
export const API_DOCS_PATH = '/api/docs';
