import { UserStatus } from '@tlprt/contract';
import type { UserRow } from '../../db/schema.js';

/** Users whose status is Blocked (30) or Deleting (40) cannot create teams (spec §6). */
export const canCreateTeam = (user: Pick<UserRow, 'user_status_id'>): boolean =>
  user.user_status_id !== UserStatus.Blocked && user.user_status_id !== UserStatus.Deleting;
