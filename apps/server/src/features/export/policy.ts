import { isPlatformSupervisor } from '@tlprt/contract';
import { policyActor } from '../../access/team-access.js';
import type { UserRow } from '../../db/schema.js';

/** The CSV lists of every user and team are for platform supervisors only (spec §2 footer link). */
export const canExport = (actor: UserRow): boolean => isPlatformSupervisor(policyActor(actor));
