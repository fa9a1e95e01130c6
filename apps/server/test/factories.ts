import { randomBytes } from 'node:crypto';
import {
  columnIndex,
  DomainStatus,
  emptySeries,
  type LinkKindValue,
  PEAK_SERIES,
  POINT_VALUES,
  Role,
  type RoleId,
  TIMINGS,
  type TSeriesName,
} from '@tlprt/contract';
import { insertMember } from '../src/access/membership.js';
import type { App } from '../src/app.js';
import { insertSession } from '../src/directory/sessions.js';
import { findUserByEmail, insertUserIfAbsent } from '../src/directory/users.js';
import { insertRule } from '../src/features/alerts/queries.js';
import { newWebhookSecret } from '../src/features/alerts/secret.js';
import { newKeyHash } from '../src/features/domains/keys/hash.js';
import { insertKey, updateKey } from '../src/features/domains/keys/queries.js';
import { insertDomain, updateDomain } from '../src/features/domains/queries.js';
import { newVerificationHash } from '../src/features/domains/verification/index.js';
import { insertOrigin, updateOrigin } from '../src/features/origins/queries.js';
import { insertToken } from '../src/features/team-tokens/queries.js';
import { newTeamToken } from '../src/features/team-tokens/service.js';
import { insertTeamWithMember } from '../src/features/teams/queries.js';
import { hashPassword } from '../src/lib/passwords.js';
import { randomToken, sha256 } from '../src/lib/tokens.js';
import { createLink } from '../src/links/service.js';
import type { Mailer } from '../src/mail/mailer.js';

/**
 * Factories that each make their own rows (unique e-mails, own teams), so tests never clean tables
 * and never depend on each other.
 */

export interface BuiltUser {
  id: number;
  email: string;
  password: string;
  /** A live bearer token of a fresh session. */
  token: string;
}

export const uniqueEmail = (prefix = 'user') => `${prefix}-${randomBytes(5).toString('hex')}@example.test`;

export async function buildUser(
  app: App,
  opts: {
    password?: string | null;
    supervisor?: boolean;
    userStatusId?: number;
    email?: string;
    name?: string;
  } = {},
): Promise<BuiltUser> {
  const { db, now } = app.ctx;
  const email = opts.email ?? uniqueEmail();
  const password = opts.password === undefined ? `pw-${randomBytes(6).toString('hex')}` : opts.password;
  await insertUserIfAbsent(db, {
    email,
    passwordHash: password === null ? null : await cachedHash(password),
    supervisor: opts.supervisor ?? false,
    subscription: false,
    createdAt: now(),
    name: opts.name ?? 'Test',
    surname: 'User',
  });
  const row = await findUserByEmail(db, email);
  if (!row) throw new Error('user not created');
  if (opts.userStatusId !== undefined) {
    await db
      .updateTable('users')
      .set({ user_status_id: opts.userStatusId })
      .where('id', '=', row.id)
      .execute();
  }
  return { id: row.id, email, password: password ?? '', token: await buildSession(app, row.id) };
}

/** argon2 is slow on purpose; tests that build hundreds of users share a password and its hash. */
const hashes = new Map<string, Promise<string>>();
function cachedHash(password: string): Promise<string> {
  let h = hashes.get(password);
  if (!h) {
    h = hashPassword(password);
    hashes.set(password, h);
  }
  return h;
}

export async function buildSession(app: App, userId: number): Promise<string> {
  const token = randomToken(32);
  const t = app.ctx.now();
  await insertSession(app.ctx.db, {
    userId,
    tokenHash: sha256(token),
    createdAt: t,
    expiresAt: t + TIMINGS.sessionTtlMs,
  });
  return token;
}

/** A team owned (Admin) by a new user, with `roleOf` members added in the given roles. */
export async function buildTeam(
  app: App,
  opts: { name?: string; owner?: BuiltUser; roleOf?: Array<{ user: BuiltUser; role: RoleId }> } = {},
): Promise<{ id: number; owner: BuiltUser }> {
  const owner = opts.owner ?? (await buildUser(app));
  const t = app.ctx.now();
  const id = await insertTeamWithMember(
    app.ctx.db,
    { name: opts.name ?? `Team ${randomBytes(3).toString('hex')}`, createdAt: t },
    { userId: owner.id, role: Role.Admin },
  );
  for (const m of opts.roleOf ?? []) {
    await insertMember(app.ctx.db, { teamId: id, userId: m.user.id, role: m.role, createdAt: t });
  }
  return { id, owner };
}

/** A team owned by an Admin, with a member in each other role: a Billing master, a Key master, a Viewer. */
export async function buildTeamWithEveryRole(app: App) {
  const billing = await buildUser(app);
  const keyMaster = await buildUser(app);
  const viewer = await buildUser(app);
  const t = await buildTeam(app, {
    roleOf: [
      { user: billing, role: Role.BillingMaster },
      { user: keyMaster, role: Role.KeyMaster },
      { user: viewer, role: Role.Viewer },
    ],
  });
  return { ...t, billing, keyMaster, viewer };
}

/** Puts a team into a state directly (suspended, deletion requested, ...). */
export async function setTeamState(
  app: App,
  teamId: number,
  patch: { suspended?: number; suspended_process?: number; status_id?: number; name?: string },
): Promise<void> {
  await app.ctx.db.updateTable('teams').set(patch).where('id', '=', teamId).execute();
}

/** A live e-mail link minted the way the services mint them (for calls that need a hash). */
export async function mintLink(
  app: App,
  link: { kind: LinkKindValue; userId: number; email: string; teamId?: number },
): Promise<string> {
  const created = await createLink(app.ctx, { ...link, payload: link.teamId ? { teamId: link.teamId } : {} });
  return created.hash;
}

/** Every mail a server sent, in memory (for tests that only need the links, not SMTP). */
export function memoryMailer() {
  const mails: Array<{ to: string; subject: string; links: string[]; text: string }> = [];
  const mailer: Mailer = {
    description: 'memory',
    send: async (to, mail) => {
      mails.push({ to, subject: mail.subject, links: mail.links, text: mail.text });
    },
    close: async () => {},
  };
  return { mailer, mails };
}

/** A domain of the team, inserted directly: a draft by default; `verified` and `promoted` as asked. */
export async function buildDomain(
  app: App,
  teamId: number,
  opts: { host?: string; verified?: boolean; promoted?: boolean; status?: number; suspended?: boolean } = {},
): Promise<{ id: number; host: string; hash: string }> {
  const host = opts.host ?? `d${randomBytes(4).toString('hex')}.example.test`;
  const hash = newVerificationHash();
  const id = await insertDomain(app.ctx.db, { teamId, host, name: host, hash, createdAt: app.ctx.now() });
  const verified = opts.verified ?? opts.promoted ?? false;
  const patch = {
    ...(verified ? { verification: 1, status: DomainStatus.Active, verification_method: 5 } : {}),
    ...(opts.promoted ? { draft: 1 } : {}),
    ...(opts.status !== undefined ? { status: opts.status } : {}),
    ...(opts.suspended ? { suspended: 1 } : {}),
  };
  if (Object.keys(patch).length > 0) await updateDomain(app.ctx.db, teamId, id, patch);
  return { id, host, hash };
}

/** A key of the team (domainId null: every domain), inserted directly. */
export async function buildKey(
  app: App,
  teamId: number,
  domainId: number | null,
  opts: { name?: string; status?: number } = {},
): Promise<{ id: number; keyHash: string }> {
  const keyHash = newKeyHash();
  const id = await insertKey(app.ctx.db, {
    teamId,
    domainId,
    keyHash,
    name: opts.name ?? '',
    createdAt: app.ctx.now(),
  });
  if (opts.status !== undefined) await updateKey(app.ctx.db, teamId, id, { status: opts.status });
  return { id, keyHash };
}

/** An Origin of the team (active unless `status` says otherwise), inserted directly; unverified
 *  unless `verified` (then the integrity service fetches from its host, as after POST .../verify). */
export async function buildOrigin(
  app: App,
  teamId: number,
  opts: { name: string; status?: number; verified?: boolean },
): Promise<{ id: number; verificationHash: string }> {
  const verificationHash = newVerificationHash();
  const id = await insertOrigin(
    app.ctx.db,
    { teamId, name: opts.name, createdAt: app.ctx.now(), verificationHash },
    (originId) => `o${originId}-t${teamId}.cdn.dashboard.test`,
  );
  if (opts.status !== undefined) await updateOrigin(app.ctx.db, teamId, id, { status: opts.status });
  if (opts.verified) await updateOrigin(app.ctx.db, teamId, id, { verified_at: app.ctx.now() });
  return { id, verificationHash };
}

/** A live API token (scope `ingest`) of the team, created by its owner: for batches of many
 *  sessions. */
export async function buildIngestToken(
  app: App,
  team: { id: number; owner: { id: number } },
): Promise<string> {
  const token = newTeamToken();
  await insertToken(app.ctx.db, {
    teamId: team.id,
    name: `reporter ${randomBytes(3).toString('hex')}`,
    scope: 'ingest',
    tokenHash: sha256(token),
    createdBy: team.owner.id,
    createdAt: app.ctx.now(),
  });
  return token;
}

/** A statistics point's fields all 0: tests spread it and set the ones their reports moved. */
export const QUIET = emptySeries();

/** A point's stored values (POINT_VALUES, the series table's columns) with the given series set: a
 *  pre-aggregated minute for StatsAggregator.addMinute. */
export function pointValues(values: Partial<Record<TSeriesName, number>>): Float64Array {
  const out = new Float64Array(POINT_VALUES);
  for (const [name, v] of Object.entries(values)) out[columnIndex(name as TSeriesName)] = v;
  return out;
}

const bitOf = (column: string) => PEAK_SERIES.find((p) => p.column === column)?.bit ?? 0;
/** The bits of the CDN, P2P and NODR viewers in a stored session's `series` (PEAK_SERIES). */
export const SERIES_BITS = {
  cdn: bitOf('cdn_users'),
  p2p: bitOf('p2p_users'),
  nodr: bitOf('nodr_users'),
} as const;

/** An alert rule of the team, inserted directly (no webhook target check): `p2pShare` below 50 % over
 *  5 minutes on every key unless told otherwise; with `webhookUrl` it gets a secret, returned. */
export async function buildAlert(
  app: App,
  teamId: number,
  opts: {
    name?: string;
    metric?: string;
    op?: 'above' | 'below';
    threshold?: number;
    windowMinutes?: number;
    minViewers?: number;
    keys?: string[];
    emailRoles?: number[];
    webhookUrl?: string | null;
    createdBy?: number | null;
  } = {},
): Promise<{ id: number; webhookSecret: string | null }> {
  const webhookUrl = opts.webhookUrl ?? null;
  const webhookSecret = webhookUrl === null ? null : newWebhookSecret();
  const row = await insertRule(
    app.ctx.db,
    teamId,
    {
      name: opts.name ?? `Alert ${randomBytes(3).toString('hex')}`,
      metric: opts.metric ?? 'p2pShare',
      op: opts.op ?? 'below',
      threshold: opts.threshold ?? 50,
      window_minutes: opts.windowMinutes ?? 5,
      min_viewers: opts.minViewers ?? 1,
      keys: JSON.stringify(opts.keys ?? []),
      email_roles: JSON.stringify(opts.emailRoles ?? []),
      webhook_url: webhookUrl,
      webhook_secret: webhookSecret,
    },
    opts.createdBy ?? null,
    app.ctx.now(),
  );
  return { id: row.id, webhookSecret };
}
