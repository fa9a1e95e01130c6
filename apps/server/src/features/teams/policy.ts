import type { TeamAccess } from '../../access/team-access.js';

export const isSelf = (access: TeamAccess, userId: number): boolean => access.actor.id === userId;
