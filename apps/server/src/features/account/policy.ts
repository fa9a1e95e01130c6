import { canEditOwnProfile } from '@tlprt/contract';
import { policyActor } from '../../access/team-access.js';
import type { UserRow } from '../../db/schema.js';

/** Account self-service acts on one's own account only. */
export const isOwnAccount = (actor: UserRow, userId: number): boolean => actor.id === userId;

/** Password and e-mail edits: not for statuses 30/40 (spec §4), not while a team of the user awaits
 *  suspension (spec §4 "suspendedProcess"). */
export const mayChangeCredentials = (actor: UserRow, inSuspensionPendingTeam: boolean): boolean =>
  canEditOwnProfile(policyActor(actor)) && !inSuspensionPendingTeam;

/** No e-mail change while the account deletion is in progress (spec §4). */
export const mayChangeEmail = (actor: UserRow, inSuspensionPendingTeam: boolean): boolean =>
  mayChangeCredentials(actor, inSuspensionPendingTeam) && actor.delete_progress === 0;
