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
} as const;

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
  stats: {
    ingest: '/stats/v1/ingest',
  },
} as const;
