import { canEditOwnProfile, isPlatformSupervisor } from '@tlprt/contract';
import { policyActor } from '../../access/team-access.js';
import type { UserRow } from '../../db/schema.js';

type Actor = Pick<UserRow, 'id' | 'supervisor' | 'user_status_id'>;

const isSelf = (actor: Actor, userId: number): boolean => actor.id === userId;

/** The supervisor flag makes the user act as role 50 (spec §6). */
const isSupervisor = (actor: Actor): boolean => isPlatformSupervisor(policyActor(actor));

export const canViewUser = (actor: Actor, userId: number): boolean =>
  isSelf(actor, userId) || isSupervisor(actor);

export const canUpdateUser = (actor: Actor, userId: number): boolean =>
  isSelf(actor, userId) && canEditOwnProfile(policyActor(actor));

/** The user search is a supervisor tool. */
export const canSearchUsers = (actor: Actor): boolean => isSupervisor(actor);
