import {
  AUDIT_ACTIONS,
  AUDIT_OPERATOR,
  type TUser,
  type ZUpdateUserRequest,
  type ZUserSearchRequest,
} from '@tlprt/contract';
import type { z } from 'zod';
import { denied } from '../../access/team-access.js';
import { recordAudit } from '../../audit/record.js';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { describeUser, findUserById } from '../../directory/users.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { canSearchUsers, canUpdateUser, canViewUser } from './policy.js';
import { presentUserListItem } from './presenter.js';
import { markSupervisors, searchUsers, updateProfile } from './queries.js';

/** Oneself, or anyone for a supervisor. */
export async function getUser(ctx: AppContext, actor: UserRow, userId: number): Promise<TUser> {
  if (!canViewUser(actor, userId)) throw forbidden();
  const row = await findUserById(ctx.db, userId);
  if (!row) throw notFound();
  return describeUser(ctx, row);
}

/** One's own profile fields, unless the account status forbids editing. */
export async function updateUser(
  ctx: AppContext,
  actor: UserRow,
  userId: number,
  input: z.output<typeof ZUpdateUserRequest>,
): Promise<TUser> {
  if (!canUpdateUser(actor, userId)) throw forbidden();
  if (input.id !== undefined && input.id !== userId)
    throw badRequest('The id in the body does not match the path', { id: 'Does not match the path' });
  const { name, surname, phone, image, timezoneId } = input;
  await updateProfile(ctx.db, userId, {
    ...(name !== undefined && { name }),
    ...(surname !== undefined && { surname }),
    ...(phone !== undefined && { phone }),
    ...(image !== undefined && { image }),
    ...(timezoneId !== undefined && { time_zone_id: timezoneId }),
  });
  const row = await findUserById(ctx.db, userId);
  if (!row) throw notFound();
  return describeUser(ctx, row);
}

/** At start-up: the accounts of SUPERVISOR_EMAILS get the supervisor flag (new ones get it when they
 *  register). */
export async function applySupervisorEmails(ctx: AppContext): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const granted = await markSupervisors(trx, ctx.config.supervisorEmails);
    for (const u of granted) {
      await recordAudit(trx, { id: null, email: AUDIT_OPERATOR }, ctx.now(), {
        teamId: null,
        action: AUDIT_ACTIONS.supervisorGranted,
        target: { type: 'user', id: u.id, label: u.email },
        oldValue: 0,
        newValue: 1,
      });
    }
    return granted.length;
  });
}

/** Supervisors only. */
export async function searchUsersFor(
  ctx: AppContext,
  actor: UserRow,
  input: z.output<typeof ZUserSearchRequest>,
) {
  if (!canSearchUsers(actor)) throw denied();
  const { rows, total } = await searchUsers(ctx.db, {
    general: input.general || undefined,
    offset: (input.page - 1) * input.limit,
    limit: input.limit,
  });
  return { data: rows.map(presentUserListItem), total };
}
