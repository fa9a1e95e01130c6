import { randomBytes } from 'node:crypto';
import { Role, TIMINGS } from '@tlprt/contract';
import type { App } from '../src/app.js';
import { insertSession } from '../src/features/auth/queries.js';
import { insertMember, insertTeamWithMember } from '../src/features/teams/queries.js';
import { findUserByEmail, insertUserIfAbsent } from '../src/features/users/queries.js';
import { hashPassword } from '../src/lib/passwords.js';
import { randomToken, sha256 } from '../src/lib/tokens.js';

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
    passwordHash: password === null ? null : await hashPassword(password),
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
  opts: { name?: string; owner?: BuiltUser; roleOf?: Array<{ user: BuiltUser; role: number }> } = {},
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
