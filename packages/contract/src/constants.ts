/** Business constants of spec §9. Every other package reads them from here. */
/** The product's name in the web app, e-mails, the API description and the start banner. */
export const PRODUCT_NAME = 'P2P CDN Dashboard';
export const DICTIONARY_LOCALE = 45;
export const DEFAULT_TIME_ZONE_NAME = 'UTC';

export const STORAGE_KEYS = {
  token: 'bearer_access_token',
  currentTeamId: 'tlprt_current_team_id',
  currentUserId: 'tlprt_current_user_id',
  utcOffsetTeam: 'tlprt_utcoffset_team',
  routeName: 'tlprt_route_name',
  settingsTab: 'tlprt_settings_tab',
  timeRange: 'tlprt_time_range',
  settingsHeadFlag: 'tlprt_settings_head_flag',
  /** Light, dark or auto (follow the browser's prefers-color-scheme); Mantine's color scheme manager. */
  colorScheme: 'tlprt_color_scheme',
  /** Per browser tab (sessionStorage): the draft picked in Add domain and the statistics list shown. */
  draftSelection: 'tlprt_draft_selection',
  statsList: 'tlprt_stats_list',
} as const;

export const LIMITS = {
  passwordMin: 6,
  passwordMax: 128,
  emailMax: 254,
  nameMax: 30,
  surnameMax: 30,
  phoneMax: 30,
  teamNameMax: 30,
  websiteMax: 30,
  originNameMax: 30,
  tagMax: 30,
  domainsPerTeam: 5,
  /** Live API tokens of one team (server-side reporters): a few per environment, not one per viewer. */
  teamTokensPerTeam: 10,
  teamTokenNameMax: 30,
  statisticsTabs: 8,
  profileImages: 12,
  teamNameTableCut: 40,
  invitationsShownFirst: 3,
  /** Largest request body any JSON or form call accepts (ingest has its own 1 MiB). */
  bodyBytes: 256 * 1024,
  ingestBodyBytes: 1024 * 1024,
  /** Segment hashes one push may carry (POST /player/v1/hashes), and its body: 1,000 URLs of 2,048
   *  characters with their hashes and ranges fit with room for JSON's spacing and escapes. */
  hashesPerPush: 1000,
  hashPushBodyBytes: 4 * 1024 * 1024,
  /** Alert rules of one team (docs/DESIGN.md §13), their names, the keys one watches, its window in minutes. */
  alertsPerTeam: 20,
  alertNameMax: 60,
  alertKeysMax: 100,
  alertWindowMinutesMax: 60,
  webhookUrlMax: 2000,
  /** Incidents a rule lists (its history) and deliveries its log shows, newest first. */
  alertHistoryShown: 20,
  alertDeliveriesShown: 50,
} as const;

export const TIMINGS = {
  livePollMs: 3000,
  renameUnlockMs: 10_000,
  successMessageMs: 3000,
  streamRetryStartMs: 1000,
  streamRetryMaxMs: 64_000,
  heartbeatMs: 15_000,
  loaderStepMs: 30,
  loaderStep: 10,
  /** E-mail link lifetimes (docs/DESIGN.md §4). */
  linkTtlMs: 24 * 3600 * 1000,
  inviteTtlMs: 7 * 24 * 3600 * 1000,
  /** Bearer token lifetime. */
  sessionTtlMs: 30 * 24 * 3600 * 1000,
} as const;

export const RATE_LIMITS = {
  /** Any guest call, per client address. */
  guestPerMinute: 60,
  /** The player plugin's settings read, per client address: read once per attach, by every viewer behind
   *  one address (a carrier's or an office's NAT), so far above the guest forms' limit. */
  playerSettingsPerMinute: 1200,
  /** Failed sign-ins for one login from one address inside the window before 429: the guesser is
   *  stopped, the owner signing in from elsewhere is not (OWASP Authentication cheat sheet). */
  loginFailuresPerLoginAndAddress: 5,
  /** Failed sign-ins from one address inside the window before 429. */
  loginFailuresPerAddress: 20,
  /** Failed sign-ins of one login from anywhere after which each further attempt of that login waits
   *  (250 ms, doubling, at most loginMaxDelayMs): slowed down, never locked. */
  loginSlowdownAfter: 5,
  loginMaxDelayMs: 4000,
  /** Wrong passwords confirming a change (leave, delete, change password or e-mail), per account,
   *  before 429: a stolen session cannot guess without limit, and outsiders' failures do not count. */
  confirmFailuresPerUser: 5,
  failureWindowMs: 15 * 60 * 1000,
} as const;

export const TeamStatus = { Active: 10, DeletionRequested: 30, Disabled: 40, Suspended: 50 } as const;
export const DomainStatus = { Active: 10, Inactive: 20, Suspended: 40, Deleted: 50 } as const;
export const KeyStatus = { Active: 10, Inactive: 20, Locked: 30, Restricted: 40, Deleted: 50 } as const;
/** origins.status: an Origin the integrity service may fetch from (Active) or switched off. */
export const OriginStatus = { Active: 10, Inactive: 20 } as const;
export const UserStatus = { Active: 10, Blocked: 30, Deleting: 40 } as const;
export const InviteStatus = { Pending: 10, Accepted: 20, Declined: 30, Revoked: 40 } as const;
export const VerificationMethod = { CNAME: 1, dnsTXT: 2, HTML: 3, META: 4, SupervisorBypass: 5 } as const;
export const TeamVersion = { Default: 0, Nodr: 1 } as const;
export const KeySettingId = {
  DownloadTimeout: 12,
  MinBufferSize: 13,
  PeeringOpeningQuota: 101,
  PeerMatching: 102,
} as const;
/** The values of key setting 102 (docs/DESIGN.md §14): whom the tracker answers an announce with first. */
export const PeerMatching = { Anyone: 0, Country: 1, Network: 2 } as const;
export type PeerMatchingValue = (typeof PeerMatching)[keyof typeof PeerMatching];
export const TimeRange = { Live: 0, Day: 1, Week: 2, Month: 3 } as const;

/** Live event codes of spec §4. */
export const EventCode = {
  UserAdded: 10,
  ForcedLogoutSession: 11,
  GoToSettings: 12,
  ForcedLogoutPassword: 20,
  TeamDeleted: 31,
  TeamStatus: 32,
  UserRemoved: 40,
  UserLeft: 41,
  DomainCreated: 60,
  DomainDeleted: 61,
  DomainStatus: 62,
  RoleChanged: 70,
  Invited: 80,
  InviteChanged: 81,
  KeyCreated: 90,
  KeyDeleted: 91,
  KeyChanged: 92,
  ForcedLogoutAccount: 100,
  /** An alert rule of the team was created, changed, deleted, or its state changed (opened, resolved):
   *  `{code, team_id, alert_id}`. Not of the spec: the Alerts screen of docs/DESIGN.md §13. */
  AlertChanged: 110,
  TeamReactivated: 1032,
  TeamBlocked: 3032,
  TeamSuspended: 4032,
} as const;
export const FORCED_LOGOUT_CODES: readonly number[] = [
  EventCode.ForcedLogoutSession,
  EventCode.ForcedLogoutPassword,
  EventCode.ForcedLogoutAccount,
];

/** Kinds of single-use e-mail link (stored hashed, docs/DESIGN.md §4). */
export const LinkKind = {
  Register: 'register',
  Recovery: 'recovery',
  ChangeEmail: 'change-email',
  DeleteUser: 'delete-user',
  DeleteTeam: 'delete-team',
  SuspendTeam: 'suspend-team',
  Invite: 'invite',
} as const;
export type LinkKindValue = (typeof LinkKind)[keyof typeof LinkKind];

/** Setting limits for validation (spec §5 help texts). */
export const KEY_SETTING_RANGES: Record<number, { min: number; max: number; default: number; name: string }> =
  {
    12: { min: 1, max: 120, default: 5, name: 'Download timeout, s' },
    13: { min: 1, max: 600, default: 10, name: 'Min buffer size, s' },
    101: { min: 0, max: 100, default: 100, name: 'Peering opening quota, %' },
    102: { min: 0, max: 2, default: PeerMatching.Network, name: 'Peer matching' },
  };
