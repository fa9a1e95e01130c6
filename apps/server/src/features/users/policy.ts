import { UserStatus } from '@tlprt/contract';
import type { UserRow } from '../../db/schema.js';

type Actor = Pick<UserRow, 'id' | 'supervisor' | 'user_status_id'>;

export const isSelf = (actor: Actor, userId: number): boolean => actor.id === userId;

/** The supervisor flag makes the user act as role 50 (spec §6). */
export const isSupervisor = (actor: Actor): boolean => actor.supervisor === 1;

/** Statuses 30 (Blocked) and 40 (Deleting) block editing the profile (spec §4, §6). */
export const canEditProfile = (userStatusId: number): boolean =>
  userStatusId !== UserStatus.Blocked && userStatusId !== UserStatus.Deleting;

export const canViewUser = (actor: Actor, userId: number): boolean =>
  isSelf(actor, userId) || isSupervisor(actor);

export const canUpdateUser = (actor: Actor, userId: number): boolean =>
  isSelf(actor, userId) && canEditProfile(actor.user_status_id);

/** The user search is a supervisor tool. */
export const canSearchUsers = (actor: Actor): boolean => isSupervisor(actor);
