import type { TTeamSummary, TUser, ZUserListItem } from '@tlprt/contract';
import type { z } from 'zod';
import type { UserRow } from '../../db/schema.js';

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
    TeamsRender: teams,
  };
}

/** A row of the supervisors' user search. */
export function presentUserListItem(row: UserRow): z.infer<typeof ZUserListItem> {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    surname: row.surname,
    supervisor: row.supervisor === 1,
    userStatusId: row.user_status_id,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
