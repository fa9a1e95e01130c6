import { UserStatus } from '@tlprt/contract';
import type { Db } from '../../db/index.js';

export async function setEmailChange(db: Db, userId: number, newEmail: string | null): Promise<void> {
  await db
    .updateTable('users')
    .set({ status_change_email: newEmail === null ? 0 : 10, new_change_email: newEmail })
    .where('id', '=', userId)
    .execute();
}

export async function applyEmailChange(db: Db, userId: number, email: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ email, status_change_email: 0, new_change_email: null })
    .where('id', '=', userId)
    .execute();
}

export async function setDeleteProgress(db: Db, userId: number, value: 0 | 1): Promise<void> {
  await db.updateTable('users').set({ delete_progress: value }).where('id', '=', userId).execute();
}

/** The account is gone for good: no personal data, no password, status 40. The row stays so that
 *  references (inviter of an old invitation) remain valid. */
export async function anonymiseUser(db: Db, userId: number): Promise<void> {
  await db
    .updateTable('users')
    .set({
      email: `deleted-${userId}@deleted.invalid`,
      password_hash: null,
      name: '',
      surname: '',
      phone: '',
      image: 0,
      supervisor: 0,
      user_status_id: UserStatus.Deleting,
      status_change_email: 0,
      new_change_email: null,
      delete_progress: 0,
    })
    .where('id', '=', userId)
    .execute();
  await db.deleteFrom('team_favourites').where('user_id', '=', userId).execute();
  await db.deleteFrom('team_members').where('user_id', '=', userId).execute();
}
