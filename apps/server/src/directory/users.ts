import type { TTeamSummary, TUser } from '@tlprt/contract';
import type { AppContext } from '../context.js';
import type { Db } from '../db/index.js';
import type { UserRow } from '../db/schema.js';
import { teamsOf } from './teams.js';

/** The users rows several features read and write (sign-up, sign-in, invitations, the account), and
 *  the account as every signed-in answer shows it. */
export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Creates an account without a password; undefined when the e-mail is taken (also under a race). */
export async function insertUserIfAbsent(
  db: Db,
  u: {
    email: string;
    supervisor: boolean;
    subscription: boolean;
    createdAt: number;
    passwordHash?: string | null;
    name?: string;
    surname?: string;
  },
): Promise<number | undefined> {
  const row = await db
    .insertInto('users')
    .values({
      email: u.email,
      password_hash: u.passwordHash ?? null,
      change_password_at: u.passwordHash ? u.createdAt : null,
      supervisor: u.supervisor ? 1 : 0,
      subscription: u.subscription ? 1 : 0,
      name: u.name ?? '',
      surname: u.surname ?? '',
      created_at: u.createdAt,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function setPasswordHash(db: Db, id: number, passwordHash: string, at: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, change_password_at: at })
    .where('id', '=', id)
    .execute();
}

/** The account as the API shows it: never the password hash. */
export function presentUser(row: UserRow, teams: TTeamSummary[]): TUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    surname: row.surname,
    phone: row.phone,
    image: row.image,
    supervisor: row.supervisor === 1,
    userStatusId: row.user_status_id,
    changePasswordAt: row.change_password_at === null ? null : new Date(row.change_password_at).toISOString(),
    statusChangeEmail: row.status_change_email,
    newChangeEmail: row.new_change_email,
    deleteProgress: row.delete_progress,
    createdAt: new Date(row.created_at).toISOString(),
    timezoneId: row.time_zone_id,
    TeamsRender: teams,
  };
}

export async function describeUser(ctx: AppContext, row: UserRow): Promise<TUser> {
  return presentUser(row, await teamsOf(ctx, row.id));
}
