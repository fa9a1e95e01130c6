import type { RoleId } from '@tlprt/contract';
import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * The typed shape of every table. Conventions shared by both dialects:
 * booleans are integers 0/1, timestamps are integer epoch milliseconds (bigint in PostgreSQL, read back
 * as numbers), structured payloads are JSON text.
 */

/** A column the database fills in on insert unless given. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  /** argon2id; null until the user sets a password from the sign-up mail. */
  password_hash: string | null;
  name: Defaulted<string>;
  surname: Defaulted<string>;
  phone: Defaulted<string>;
  image: Defaulted<number>;
  supervisor: Defaulted<number>;
  user_status_id: Defaulted<number>;
  change_password_at: number | null;
  status_change_email: Defaulted<number>;
  new_change_email: string | null;
  delete_progress: Defaulted<number>;
  subscription: Defaulted<number>;
  created_at: number;
  /** The person's time zone for charts (a time zone list id); null: the current team's. */
  time_zone_id: Defaulted<number | null>;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** sha256 of the bearer token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface EmailLinksTable {
  id: Generated<number>;
  kind: string;
  user_id: number | null;
  email: string;
  /** sha256 of the mailed hash. */
  token_hash: string;
  payload: Defaulted<string>;
  /** Team-scoped links (deletion, suspension, invitation); null for account links. */
  team_id: ColumnType<number | null, number | null | undefined, number | null>;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface TeamsTable {
  id: Generated<number>;
  name: string;
  website: Defaulted<string>;
  time_zone_id: Defaulted<number>;
  version: Defaulted<number>;
  status_id: Defaulted<number>;
  suspended: Defaulted<number>;
  suspended_process: Defaulted<number>;
  delete_requested_by: ColumnType<number | null, number | null | undefined, number | null>;
  suspend_requested_by: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: number;
}

export interface TeamMembersTable {
  team_id: number;
  user_id: number;
  role: RoleId;
  created_at: number;
}

export interface InvitationsTable {
  id: Generated<number>;
  team_id: number;
  invited_email: string;
  invited_user_id: number | null;
  role: RoleId;
  status: Defaulted<number>;
  inviting_user_id: number | null;
  /** sha256 of the live link's hash (email_links.token_hash). */
  token_hash: string;
  created_at: number;
  expires_at: number;
  responded_at: number | null;
}

export interface TeamTagsTable {
  team_id: number;
  tag: string;
  created_at: number;
}

/** Per-user stars (members and supervisors alike): the one source of `favourite`. */
export interface TeamFavouritesTable {
  user_id: number;
  team_id: number;
  created_at: number;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** JSON array of the links placed in the mail. */
  links: string;
  created_at: number;
}

export interface DomainsTable {
  id: Generated<number>;
  team_id: number;
  /** Bare ASCII (punycode) host, lower case. */
  host: string;
  name: Defaulted<string>;
  /** DomainStatus: 10 active, 20 inactive, 50 deleted (suspension is the `suspended` flag). */
  status: Defaulted<number>;
  /** 1 = verified. */
  verification: Defaulted<number>;
  verification_method: ColumnType<number | null, number | null | undefined, number | null>;
  verification_hash: string;
  /** 0 = draft (Add-domain screen), 1 = promoted (My domains). */
  draft: Defaulted<number>;
  suspended: Defaulted<number>;
  /** 1: the Origin rule accepts the domain's `http://` pages too (default port); 0 for a new domain. */
  plain_http: Defaulted<number>;
  created_at: number;
  deleted_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface KeysTable {
  id: Generated<number>;
  team_id: number;
  /** null: the key applies to every domain of the team. */
  domain_id: number | null;
  /** 40 random characters [A-Za-z0-9]: what the player plugin sends. */
  key_hash: string;
  name: Defaulted<string>;
  /** KeyStatus: 10, 20, 30, 40 (suspended by a supervisor), 50 deleted. */
  status: Defaulted<number>;
  suspended: Defaulted<number>;
  status_before_suspend: ColumnType<number | null, number | null | undefined, number | null>;
  status_before_domain_suspend: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: number;
}

/** Layers of the player settings, lowest first. `key` is the customer's own value for a key;
 *  `supervisor_key` is a supervisor's value for that key (set_supervisor_by_key), kept apart so a
 *  customer's write can never change or lift it. `team` and `domain` are written by supervisors only. */
export type SettingLayer = 'team' | 'domain' | 'key' | 'supervisor_key';

/** One layer's value of one player setting. domain_id / key_id are 0 when the layer has no such owner. */
export interface KeySettingValuesTable {
  id: Generated<number>;
  team_id: number;
  layer: SettingLayer;
  domain_id: Defaulted<number>;
  key_id: Defaulted<number>;
  setting_id: number;
  value: number | null;
  /** 1: this layer overrides the ones below it. */
  override: Defaulted<number>;
  updated_at: number;
}

export interface OriginsTable {
  id: Generated<number>;
  team_id: number;
  name: string;
  /** The CDN host the team pulls through: o<id>-t<teamId>.cdn.<PUBLIC_URL host>. */
  url: Defaulted<string>;
  /** 10 active, 20 inactive. */
  status: Defaulted<number>;
  suspended: Defaulted<number>;
  created_at: number;
  /** The content of the file the customer serves on the Origin's host to verify it (random, not a
   *  secret: it is published there); '' only for a row an older node inserted (0020). */
  verification_hash: Defaulted<string>;
  /** When the file was found; null: fetched from only while under a usable domain (access/origin-hosts). */
  verified_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** One supervisor action (migration 0008, docs/DESIGN.md §12). */
export interface SupervisorAuditTable {
  id: Generated<number>;
  team_id: number | null;
  actor_id: number | null;
  actor_email: string;
  action: string;
  target_type: string;
  target_id: number;
  target_label: Defaulted<string>;
  old_value: string | null;
  new_value: string | null;
  created_at: number;
}

/** A team's API token (migration 0014): only its SHA-256 is stored. */
export interface TeamTokensTable {
  id: Generated<number>;
  team_id: number;
  name: string;
  /** TEAM_TOKEN_SCOPES of the contract: what the token may be used for. */
  scope: Defaulted<string>;
  token_hash: string;
  /** null once the creator's account is gone. */
  created_by: number | null;
  created_at: number;
  last_used_at: ColumnType<number | null, number | null | undefined, number | null>;
  revoked_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A segment's reference hash, per team (migration 0018, issue 36). */
export interface SegmentHashesTable {
  team_id: number;
  /** The integrity service's segment id: a digest of the URL and range. */
  segment: string;
  sha256: string;
  /** SegmentHashSource: 1 pushed, 2 stated by the origin, 3 fetched. */
  source: number;
  expires_at: number;
}

/** An alert rule of a team (migration 0022, docs/DESIGN.md §13). */
export interface AlertRulesTable {
  id: Generated<number>;
  team_id: number;
  name: string;
  /** ALERT_METRICS and ALERT_OPS of the contract. */
  metric: string;
  op: string;
  threshold: number;
  window_minutes: number;
  min_viewers: number;
  /** JSON arrays: the watched key hashes (empty: all the team's), the roles e-mailed. */
  keys: Defaulted<string>;
  email_roles: Defaulted<string>;
  webhook_url: string | null;
  /** What deliveries are signed with (readable: an HMAC needs it); never listed. */
  webhook_secret: string | null;
  /** 1 while an incident is open. */
  firing: Defaulted<number>;
  /** The last evaluated window's value; null: no data or too few viewers. */
  last_value: ColumnType<number | null, number | null | undefined, number | null>;
  /** Unix seconds of the start of the last closed minute evaluated (the claim of one node). */
  evaluated_minute: Defaulted<number>;
  last_evaluated_at: ColumnType<number | null, number | null | undefined, number | null>;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** One incident of a rule: opened when its condition began to hold, resolved when it stopped. */
export interface AlertIncidentsTable {
  id: Generated<number>;
  rule_id: number;
  opened_at: number;
  resolved_at: ColumnType<number | null, number | null | undefined, number | null>;
  open_value: number | null;
  resolve_value: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A webhook delivery (the outbox): its body as signed, retried with the same id until delivered or
 *  given up. */
export interface AlertDeliveriesTable {
  id: string;
  rule_id: number;
  /** ALERT_EVENT_TYPES of the contract. */
  type: string;
  body: string;
  /** DELIVERY_STATES of the contract. */
  state: Defaulted<string>;
  created_at: number;
  next_attempt_at: number | null;
  /** Epoch ms until which one node holds the delivery for an attempt. */
  lease_until: Defaulted<number>;
  give_up_at: number;
}

export interface AlertDeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  at: number;
  status: number | null;
  duration_ms: number;
  error: string | null;
}

/** Failed sign-ins per hashed login or address in the current window (migration 0007). */
export interface LoginFailuresTable {
  /** login (delay only), address, login-address (a login from one address), confirm (an account's confirmations). */
  scope: 'login' | 'address' | 'login-address' | 'confirm';
  key_hash: string;
  count: number;
  started_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  email_links: EmailLinksTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  invitations: InvitationsTable;
  team_tags: TeamTagsTable;
  team_favourites: TeamFavouritesTable;
  mail_outbox: MailOutboxTable;
  domains: DomainsTable;
  keys: KeysTable;
  key_setting_values: KeySettingValuesTable;
  origins: OriginsTable;
  login_failures: LoginFailuresTable;
  supervisor_audit: SupervisorAuditTable;
  team_tokens: TeamTokensTable;
  segment_hashes: SegmentHashesTable;
  alert_rules: AlertRulesTable;
  alert_incidents: AlertIncidentsTable;
  alert_deliveries: AlertDeliveriesTable;
  alert_delivery_attempts: AlertDeliveryAttemptsTable;
}

export type UserRow = Selectable<UsersTable>;
export type EmailLinkRow = Selectable<EmailLinksTable>;
export type TeamRow = Selectable<TeamsTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type MailOutboxRow = Selectable<MailOutboxTable>;
export type DomainRow = Selectable<DomainsTable>;
export type KeyRow = Selectable<KeysTable>;
export type OriginRow = Selectable<OriginsTable>;
export type TeamTokenRow = Selectable<TeamTokensTable>;
