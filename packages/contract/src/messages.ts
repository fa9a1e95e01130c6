/** Every user-facing text of the spec, word for word. Server and web both read them from here. */
export const MSG = {
  required: 'Required field',
  allRequired: 'All fields are required',
  fieldRequired: 'This field is required',
  invalidEmail: 'Invalid e-mail',
  invalidEmailLower: 'invalid email',
  passwordMin: 'Minimum 6 symbols are required',
  passwordsDoNotMatch: 'Passwords do not match',
  termsRequired: 'You must agree to the Terms of Service',
  tooLong: (max: number) => `Maximum ${max} symbols are allowed`,
  controlChars: 'Must not contain control characters',
  /** The team's Website field (issue 39): a host or an http(s) address. */
  invalidWebsite: 'Enter a website address, e.g. example.com',
  invalidData: 'The request holds a value that cannot be stored',
  incorrectLogin: 'Incorrect e-mail or password',
  incorrectPassword: 'Incorrect password',
  incorrectTeamName: 'incorrect team name',
  teamNeedsAdmin: 'The team must have at least one admin',
  hashValid: 'hash valid',
  hashInvalid: 'hash invalid',
  linkExpiredTitle: 'This link is expired',
  linkExpiredText:
    'Unfortunately, this link is no longer valid. Please contact support if you need an assistance',
  cantPerformTitle: "Can't perform this action",
  cantPerformText: "Sorry, this action can't be performed. This may be temporary, please try again later.",
  serverErrorTitle: "We're sorry, Something went wrong",
  serverErrorText: 'Please try again later',
  forbiddenText:
    'It seems you have insufficient rights to perform this action. Please check your role in this team',
  notFoundPage: "We're sorry, it looks like we don't have the page you are looking for",
  unauthorized: 'Your session has expired. Please log in again',
  notFound: 'Not found',
  forbidden: 'Access forbidden',
  tooManyRequests: 'Too many attempts. Please wait a few minutes and try again',
  payloadTooLarge: 'The request is too large',
  malformedBody: 'The request body is not valid',
  unsupportedMediaType: 'Unsupported content type',
  validationFailed: 'Some fields are not valid',
  foreignLinkBase: 'The link must point to this dashboard',
  registered: 'Please check your mailbox to confirm the e-mail',
  recoverySent: 'If an account is found, recovery instructions will be mailed',
  passwordSet: 'Password has been set',
  loggedIn: 'Logged in',
  loggedOut: 'Logged out',
  ok: 'ok',
  created: 'created',
  updated: 'updated',
  // Screens (spec §2)
  registerTitle: 'Start free trial',
  registerTerms: 'I agree to the Terms of Service',
  registerUpdates: 'I want to receive updates, offers and news',
  registerButton: 'Create account',
  haveAccount: 'Already have an account? Log in',
  resetTitle: 'Reset password',
  createPasswordTitle: 'Create password',
  returnToLogin: 'Return to login page',
  noTeams: 'No teams',
  teamIdLabel: (id: number) => `Team ID ${id}`,
} as const;

/** Texts of the self-service, team and invitation flows (spec §2, §4, §8). */
export const MSG_TEAMS = {
  success: 'success',
  error: 'error',
  confirmAction: 'Confirm action',
  emailChanged: 'You have successfully changed your account e-mail',
  accountDeleted: 'You have successfully deleted your account',
  teamDeletedByLink: 'The team has been successfully deleted',
  teamSuspendedByLink: 'The team has been successfully suspended',
  inviteDeclined: 'The invite was declined',
  inviteSent: 'Invitation sent successfully!',
  inviteCongratsTitle: 'Congratulations!',
  inviteCongratsText: 'Do you want to see this team?',
  inviteLater: 'Later',
  inviteGo: 'Get me there!',
  declineAccepted: 'Decline accepted!',
  inviteFailedTitle: 'Something went wrong...',
  inviteFailedText:
    'This may happen when invitation is expired or for some techy reasons. Please refresh the page',
  showAll: 'Show all',
  hide: 'Hide',
  invited: 'Invited',
  noTeamBanner: 'This account has no own team nor active invite to any other team',
  deletingInProgress: 'Deleting in progress!',
  unableDeleteAccountTitle: 'Unable to delete account',
  unableDeleteAccountText:
    'Please pass the Administrative role to another member or delete the team before deleting your account.',
  soleAdminText:
    'You are the sole Administrator in this team having a few users. Before you can delete your account please assign an Administrative role to at least one team member.',
  unableDeleteTeamTitle: 'Unable to delete team',
  unableDeleteTeamText:
    'Team deletion is impossible due to unresolved payment issues. Please contact support.',
  unableLeaveTitle: 'Unable to leave the team',
  unableLeaveText:
    'You are the only member of this team, or its sole administrator: grant the Admin role to someone else first.',
  emailInUse: 'This e-mail is already in use',
  alreadyMember: 'This user is already a member of the team',
  invitePending: 'An invitation to this e-mail is already pending',
  roleNotAllowed: 'You cannot offer this role',
  cannotRemoveSelf: 'You cannot remove yourself from the team',
  suspensionPending: 'The team suspension is waiting for confirmation',
  teamSuspendedNotice: 'This team is suspended: it is view-only',
  linkSent: 'We have sent a confirmation link to your e-mail',
  noEmailChangeInProgress: 'There is no e-mail change in progress',
  noDeletionInProgress: 'There is no account deletion in progress',
  deletionInProgress: 'The account deletion is in progress',
  tagExists: 'This tag already exists',
  tagNotFound: 'This tag does not exist',
  timeZoneUnknown: 'Unknown time zone',
  invitationNotPending: 'This invitation is no longer pending',
  teamDeletionRequested: 'The team deletion is waiting for confirmation',
  teamDeletionCancelled: 'The team deletion was cancelled',
  teamSuspensionRequested: 'The team suspension is waiting for confirmation',
  teamSuspensionRevoked: 'The team suspension was revoked',
  teamUnsuspended: 'The team is active again',
  memberRemoved: 'The member was removed',
  roleChanged: 'The role was changed',
  teamLeft: 'You left the team',
  passwordChanged: 'Password has been changed',
  // Live-event popups (spec §4)
  evTeamDeletedTitle: 'We are sorry, but this team has been deleted',
  evTeamDeletedText: 'You can no longer work with it',
  evRemovedTitle: "We are sorry, but your account has been signed off the team you've been working with",
  evRemovedText: 'You may no longer see it',
  setBySupervisor: 'Set by a supervisor',
  membersReadOnly: 'You are not a member of this team: its member list is read-only for you.',
  evInvitedTitle: 'You have been invited to a team',
  evInvitedText: (inviter: string, team: string, role: string) =>
    `${inviter} invited you to "${team}" as ${role}. Accept or decline the invitation in the Invitations block of your Profile settings.`,
  evRoleChangedTitle: 'Your role in this team has been changed',
  evRoleChangedText:
    'This may change the dashboard appearance for you Please check Team settings to see your new role',
  evTeamBlocked: 'Team blocked',
  evTeamSuspendedTitle: 'We are sorry, but this team has been suspended',
  evTeamSuspendedText: 'Please contact support to resolve the issue',
  evDomainDeleted: 'A domain has been deleted',
} as const;

/** Texts of domains, verification, keys and origins (spec §2, §4, §8). */
export const MSG_DOMAINS = {
  /** The group of keys for all domains (domainId null, spec §3). */
  allDomains: 'All domains',
  incorrectFormat: 'Incorrect domain name format',
  assignedToAnother: 'This domain is assigned to another customer',
  verifiedByTeammate: 'This domain was verified by another member of your team',
  /** 406 of Add domain when the host is already verified in the caller's team (issue 39): the spec's
   *  text above blamed another member even when it was the caller. Where it is decides the words. */
  alreadyVerifiedInTeam: 'This domain is already verified in your team: find it in My domains',
  alreadyVerifiedDraft: 'This domain is already verified in your team: find it in your drafts',
  /** An internationalized name (IDN, emoji) is stored in its ASCII form: the screen says so. */
  savedAsAscii: (ascii: string, typed: string) =>
    `Saved as ${ascii} (the internationalized form of ${typed})`,
  maxDomains: 'A team can have at most 5 domains',
  alreadyDraft: 'This domain is already in your drafts',
  verified: 'Congratulations! Your domain in now verified!',
  verificationFailed: 'Unfortunately, we were unable to detect verification data on your domain',
  tryAgain: 'Try again',
  bypassConfirm:
    'Are you sure? Please confirm you want this domain to be verified bypassing the standard procedure.',
  deleteDraftConfirm: "Are you sure? You are going to delete domain from drafts. This can't be undone",
  draftVerified: 'Your domain is verified',
  emptyViewer: "Your team haven't added any domain yet",
  emptyOther: "You haven't added any domain yet",
  goToAddDomains: 'Go to add domains',
  goToStatistics: 'Go to statistics',
  openAllTabs: 'Open all tabs',
  activeDomains: 'Active domains',
  inactiveDomains: 'Inactive domains',
  generateToken: 'Generate new token',
  /** Beside "Generate new token" (the spec's words): it makes a player key, not a Server API token. */
  generateTokenHelp:
    'Creates a new access key for this domain’s players: the key hash your player snippet carries. Server API tokens are in Team settings.',
  nameKeyPlaceholder: 'name key',
  soon: 'Soon...',
  keySuspendedWarning: 'This key is suspended. Please contact support',
  domainSuspended: 'This domain is suspended',
  keyChangeBlocked: 'Keys of a suspended domain cannot be changed',
  addOrigin: 'Add origin',
  /** Beside the origin name: an Origin named with a host lets the integrity service fetch from it. */
  originNameHelp:
    'The host your players load video segments from (e.g. cdn.example.com): segments viewers share from that host can then be verified.',
  /** 400 naming `name` (issue 39): an Origin is a bare host. */
  originNotAHost: 'Enter the host only, e.g. cdn.example.com: no http://, path, port or spaces',
  originDuplicate: 'This origin is already in your team',
  /** Beside an Origin that is not verified (issue 36). */
  originUnverifiedNote:
    'The P2P integrity check does not fetch from an unverified origin: until it is verified, viewers get the segments on its host from your CDN only, not from peers.',
  /** Followed by the file's URL and a colon, as the domain verification's HTML file. */
  originVerifyHelp: 'To verify it, serve a file on the origin’s host so that it opens at',
  originDomainNote:
    'Its host is under a verified domain of your team: the P2P integrity check reads from it.',
  suspendedLabel: 'Suspended',
  newDomain: 'New domain',
  check: 'Check',
  verifyManually: 'Verify manually',
  noKeys: 'No keys yet',
  addOriginButton: 'Add',
  /** A domain's option of the Origin rule (My domains, inside the domain's panel). */
  plainHttpLabel: 'Plain HTTP pages',
  plainHttpHelp:
    'Lets players on http:// pages of this domain and its subdomains (port 80) use its keys; https:// pages always can.',
  plainHttpOffTitle: 'Turn off plain HTTP pages',
  plainHttpOffConfirm: (host: string) =>
    `Players on http:// pages of ${host} will play from the CDN only, without P2P, and will no longer be counted in the statistics. https:// pages are not affected.`,
} as const;

/** API tokens of a team (server-side reporters of the statistics ingest; not in the spec). */
export const MSG_TOKENS = {
  /** Not "API tokens" alone: the player keys of My domains are made with "Generate new token". */
  title: 'Server API tokens',
  /** One line under the title: what they are, and what they are not. */
  purpose:
    'Secrets your own servers and scripts send to report or read this team’s statistics, or to publish segment hashes. They are not the player keys of your domains (My domains, “Generate new token”).',
  intro:
    'Server-side reporters (a media server, a CDN log shipper) send statistics with a token of this team. Only admins and billing masters see and manage them.',
  create: 'Create token',
  nameLabel: 'Token name',
  namePlaceholder: 'e.g. Encoder EU-West',
  empty: 'No server API tokens yet',
  scopeIngest: 'Statistics ingest',
  createdTitle: 'Your new API token',
  shownOnce:
    'Copy it now: it is shown only once and cannot be shown again. If it is lost, revoke it and create another.',
  usage: (path: string) =>
    `Send it as "Authorization: Bearer <token>" on POST ${path} to report batches of many sessions.`,
  revoke: 'Revoke',
  revokeTitle: 'Revoke API token',
  revokeText: (name: string) =>
    `Reporters using "${name}" are refused within a few seconds. This cannot be undone.`,
  created: 'The token was created',
  revoked: 'The token was revoked',
  limitReached: 'A team can have at most 10 API tokens: revoke one first',
  neverUsed: 'Never used',
} as const;

/** Answers of the integrity service (GET /player/v1/integrity, docs/DESIGN.md §11): field messages of its
 *  query, and the reasons the plugin takes a segment from the CDN only. */
export const MSG_INTEGRITY = {
  url: 'Must be an absolute http or https URL of at most 2048 characters, without user name or password',
  range: 'Must be <start>-<end> (bytes, end included), start not after end',
  keyNotUsable: 'The key is not usable here',
  hostNotOfKey: "The segment's host is not a domain or Origin of the key's team",
  notDemoFile: 'Not a file of the demo stream',
  portNotFetched: 'Segments are read only from the standard port of their scheme',
  /** Followed by ": <reason>" (timed out, HTTP 404, too large, refused address...). */
  originFailed: 'The segment could not be read from its origin',
  tooManyForAddress: 'Too many integrity requests from this address, please retry later',
  tooManyForKey: 'Too many integrity requests for this key, please retry later',
  /** The origin fetches of a team (or of this server node) at their cap. */
  tooManyFetches: 'Too many segments of this team are being read from their origin, please retry later',
  /** A team's origin bytes per minute spent (INTEGRITY_TEAM_BYTES_PER_MINUTE). */
  fetchBudgetSpent: "This team's origin bytes for verification are spent for this minute, please retry later",
} as const;

/** The hash push (POST /player/v1/hashes, issue 36): a team's packager publishes its segments' SHA-256.
 *  Item messages are prefixed by the item's field in the answer's `errors`. */
export const MSG_HASHES = {
  badToken: 'The API token is not valid for publishing segment hashes',
  notArray: 'Must be an array of {url, sha256, range?} items',
  tooMany: (max: number) => `At most ${max} hashes per request: send the rest in another`,
  bodyTooLarge: (bytes: number) => `The request is larger than ${bytes} bytes: send fewer hashes per request`,
  notItem: 'Must be an object {url, sha256, range?}',
  sha256: 'Must be the SHA-256 of the bytes as 64 lowercase hexadecimal characters',
  foreignHost:
    "The URL's host is not a verified domain of the token's team (or a subdomain of one) nor an active Origin of it",
  port: 'Must be on the standard port of its scheme: segments on other ports are never verified',
  tooManyRequests: 'Too many hash pushes with this token: try again later',
  tooManyHashes: 'Too many hashes pushed with this token this minute: try again later',
  scopeLabel: 'Publish segment hashes',
  scopeBadge: 'Segment hashes',
  usage: (path: string) =>
    `Send it as "Authorization: Bearer <token>" on POST ${path} with {"hashes": [{"url", "sha256", "range"?}]} to publish your segments' SHA-256: viewers then verify P2P segments without the server fetching them from your origin.`,
} as const;

/** Alerts and signed webhooks (docs/DESIGN.md §13): the screen, the e-mails and the field messages. */
export const MSG_ALERTS = {
  title: 'Alerts',
  intro:
    'An alert watches a metric of your keys over a window of minutes and tells you, once, when its condition starts and stops holding: by e-mail to the members of the roles you choose, and by a signed POST to your webhook URL.',
  create: 'New alert',
  edit: 'Edit alert',
  save: 'Save',
  empty: 'No alerts yet',
  emptyHint:
    'Create one to hear about a drop of the P2P share, a jump of refused bytes or of playback failures.',
  loadFailed: 'The alerts could not be loaded',
  stateOk: 'OK',
  stateFiring: 'Firing',
  firingSince: (since: string) => `Firing since ${since}`,
  noData: 'No data',
  allKeys: 'All keys',
  created: 'The alert was created',
  updated: 'The alert was saved',
  deleted: 'The alert was deleted',
  deleteTitle: 'Delete alert',
  deleteText: (name: string) =>
    `"${name}" stops watching and its history and delivery log are deleted. This cannot be undone.`,
  sendTest: 'Send test',
  testSent: 'The test was delivered',
  testFailed: 'The test was not delivered: it is retried as any delivery',
  rotateSecret: 'Rotate secret',
  rotateTitle: 'Rotate webhook secret',
  rotateText: 'Deliveries are signed with the new secret at once: update your receiver with it.',
  secretTitle: 'Your webhook signing secret',
  secretShownOnce:
    'Copy it now: it is shown only once. Your receiver checks each delivery’s Tlprt-Signature with it.',
  secretRotated: 'The webhook secret was rotated',
  deliveries: 'Delivery log',
  noDeliveries: 'No deliveries yet',
  history: 'History',
  noHistory: 'Never fired',
  preview: 'Last 24 hours',
  previewEmpty: 'No data in the last 24 hours for these keys',
  limitReached: 'A team can have at most 20 alerts: delete one first',
  notFound: 'Alert not found',
  noWebhook: 'This alert has no webhook URL',
  tooManyTests: 'At most 10 tests per alert per minute: wait a minute and try again',
  // The Alerts screen's labels.
  count: (n: number, max: number) => `${n} of ${max}`,
  loading: 'Loading alerts',
  retry: 'Retry',
  cancel: 'Cancel',
  done: 'Done',
  editNamed: (name: string) => `Edit ${name}`,
  delete: 'Delete',
  deleteNamed: (name: string) => `Delete ${name}`,
  sendTestNamed: (name: string) => `Send test of ${name}`,
  rotateNamed: (name: string) => `Rotate secret of ${name}`,
  historyNamed: (name: string) => `History of ${name}`,
  deliveriesNamed: (name: string) => `Delivery log of ${name}`,
  /** "P2P share below 40% over 5 min, ≥ 10 viewers". */
  condition: (metric: string, op: string, threshold: string, minutes: number, minViewers: number) =>
    `${metric} ${op} ${threshold} over ${minutes} min${minViewers > 0 ? `, ≥ ${minViewers} viewers` : ''}`,
  opAbove: 'above',
  opBelow: 'below',
  keys: 'Keys',
  channels: 'Channels',
  noChannels: 'None: the state is shown here only',
  emailTo: (roles: string) => `E-mail: ${roles}`,
  webhookTo: (host: string) => `Webhook: ${host}`,
  lastValue: 'Last value',
  notEvaluated: 'Not evaluated yet',
  valueAt: (value: string, when: string) => `${value} at ${when}`,
  unknownKeyName: (hash: string) => `Key ${hash.slice(0, 8)}…`,
  // The form.
  nameLabel: 'Name',
  namePlaceholder: 'e.g. P2P share dropped',
  metricLabel: 'Metric',
  opLabel: 'Condition',
  opAboveLabel: 'Above the threshold',
  opBelowLabel: 'Below the threshold',
  thresholdLabel: 'Threshold',
  thresholdBytes: (shown: string) => `That is ${shown}`,
  thresholdHelp: {
    percent: 'A percentage, from 0 to 100',
    bytes: 'In bytes',
    ms: 'In milliseconds',
    viewers: 'A number of viewers',
  },
  windowLabel: 'Window (minutes)',
  windowHelp: 'The condition must hold over this many closed minutes (1 to 60)',
  minViewersLabel: 'Minimum viewers',
  minViewersHelp: 'No alert while the window had fewer viewers than this',
  keysLabel: 'Keys watched',
  keysHelp: 'None chosen: every key of the team, those made later too',
  emailRolesLabel: 'E-mail the members of these roles',
  webhookLabel: 'Webhook URL',
  webhookHelp: 'A signed POST is sent here on each opening and resolution (optional)',
  unitPercent: '%',
  unitBytes: 'bytes',
  unitMs: 'ms',
  unitViewers: 'viewers',
  thresholdSeries: 'Threshold',
  previewLoading: 'Loading the preview',
  previewLabel: (metric: string) => `${metric} over the last 24 hours`,
  // History and delivery log.
  incidentOpened: 'Opened',
  incidentResolved: 'Resolved',
  incidentOpen: 'Still firing',
  incidentValues: (opened: string, resolved: string | null) =>
    resolved === null ? `Value ${opened}` : `Value ${opened}, then ${resolved}`,
  deliveryPending: 'Pending',
  deliveryDelivered: 'Delivered',
  deliveryFailed: 'Failed',
  nextAttempt: (when: string) => `Next attempt ${when}`,
  attempt: (when: string, status: string, ms: number) => `${when} · ${status} · ${ms} ms`,
  noAnswer: 'no answer',
  deliveriesFailed: 'The delivery log could not be loaded',
  // Field messages.
  metric:
    'Must be one of p2pShare, originSaved, cdnBytes, viewers, failureRate, rebufferRatio, startupP95Ms, rejectedBytes',
  op: 'Must be above or below',
  threshold: 'Must be a number of at least 0',
  percentThreshold: 'A percentage is at most 100',
  windowMinutes: 'Must be a whole number of minutes from 1 to 60',
  minViewers: 'Must be a whole number of at least 0',
  tooManyKeys: 'At most 100 keys',
  unknownKey: 'Not a key of this team',
  emailRole: 'Not a role of the team',
  webhookUrl:
    'Must be an http or https URL of at most 2000 characters, without user name, password or #fragment',
  webhookPrivate: 'Must not point at a private, loopback or link-local address',
  webhookUnresolved: 'The host of this URL could not be resolved',
  // E-mails.
  mailOpenedSubject: (name: string) => `Alert: ${name}`,
  mailResolvedSubject: (name: string) => `Resolved: ${name}`,
} as const;
