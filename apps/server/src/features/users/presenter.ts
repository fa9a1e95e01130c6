import type { ZUserListItem } from '@tlprt/contract';
import type { z } from 'zod';
import type { UserRow } from '../../db/schema.js';

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
