import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { UserRow } from '../../db/schema.js';

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

export async function updateProfile(
  db: Db,
  id: number,
  patch: { name?: string; surname?: string; phone?: string; image?: number },
): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
}

export async function setPasswordHash(db: Db, id: number, passwordHash: string, at: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, change_password_at: at })
    .where('id', '=', id)
    .execute();
}

/** SUPERVISOR_EMAILS: the listed accounts get the flag; answers those that did not have it. */
export async function markSupervisors(
  db: Db,
  emails: readonly string[],
): Promise<Array<{ id: number; email: string }>> {
  if (emails.length === 0) return [];
  const granted = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', 'in', emails)
    .where('supervisor', '=', 0)
    .execute();
  if (granted.length === 0) return [];
  await db
    .updateTable('users')
    .set({ supervisor: 1 })
    .where(
      'id',
      'in',
      granted.map((u) => u.id),
    )
    .execute();
  return granted;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** POST /v1/user (supervisors): every account, by e-mail, name, surname or id. */
export async function searchUsers(
  db: Db,
  s: { general?: string | undefined; offset: number; limit: number },
): Promise<{ rows: UserRow[]; total: number }> {
  let q = db.selectFrom('users');
  if (s.general) {
    const pattern = `%${escapeLike(s.general.toLowerCase())}%`;
    const asId = /^\d{1,9}$/.test(s.general) ? Number(s.general) : undefined;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(users.email)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(users.name)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(users.surname)`, 'like', sql`${pattern} escape '\\'`),
        ...(asId !== undefined ? [eb('users.id', '=', asId)] : []),
      ]),
    );
  }
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q.selectAll().orderBy('id', 'asc').offset(s.offset).limit(s.limit).execute();
  return { rows, total: Number(total.n) };
}
