import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

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
  role: number;
  created_at: number;
}

export interface InvitationsTable {
  id: Generated<number>;
  team_id: number;
  invited_email: string;
  invited_user_id: number | null;
  role: number;
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
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type EmailLinkRow = Selectable<EmailLinksTable>;
export type TeamRow = Selectable<TeamsTable>;
export type TeamMemberRow = Selectable<TeamMembersTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type MailOutboxRow = Selectable<MailOutboxTable>;
