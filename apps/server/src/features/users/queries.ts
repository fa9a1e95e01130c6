import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { UserRow } from '../../db/schema.js';

export async function updateProfile(
  db: Db,
  id: number,
  patch: { name?: string; surname?: string; phone?: string; image?: number; time_zone_id?: number | null },
): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
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

/** Every account, by e-mail, name, surname or id (supervisors search). */
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
