import { can, VerificationMethod } from '@tlprt/contract';
import type { TeamAccess } from '../../access/team-access.js';
import type { DomainRow } from '../../db/schema.js';

/** Draft (Add-domain screen) vs promoted (My domains): spec §4. */
const isDraft = (d: Pick<DomainRow, 'draft'>): boolean => d.draft === 0;
const isVerified = (d: Pick<DomainRow, 'verification'>): boolean => d.verification === 1;
export const isSuspended = (d: Pick<DomainRow, 'suspended'>): boolean => d.suspended === 1;

/** Only a verified draft can be promoted. */
export const mayPromote = (d: DomainRow): boolean => isDraft(d) && isVerified(d);
/** Only a promoted domain moves between Active and Inactive. */
export const mayToggle = (d: DomainRow): boolean => !isDraft(d);
/** A draft serves no page yet: the Origin rule's option belongs to promoted domains. */
export const maySetPlainHttp = (d: DomainRow): boolean => !isDraft(d);

/** The supervisor bypass (method 5) is the supervisor's alone; methods 1–4 any domain manager. */
export const mayUseMethod = (access: TeamAccess, method: number): boolean =>
  method !== VerificationMethod.SupervisorBypass || can('domains.supervise', access.policy);
