import type { UserRow } from '../../db/schema.js';

/** The CSV lists of every user and team are for platform supervisors only (spec §2 footer link). */
export const canExport = (actor: Pick<UserRow, 'supervisor'>): boolean => actor.supervisor === 1;
