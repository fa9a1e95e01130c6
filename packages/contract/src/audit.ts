import { z } from 'zod';
import { envelope, ZId } from './common.js';

/**
 * The supervisor audit log (docs/DESIGN.md §12): what a supervisor did to a customer's team, its domains and
 * keys, and who was granted or lost the supervisor flag.
 */
export const AUDIT_ACTIONS = {
  teamSuspended: 'team.suspended',
  teamUnsuspended: 'team.unsuspended',
  teamVersion: 'team.version',
  tagAdded: 'team.tag_added',
  tagRemoved: 'team.tag_removed',
  domainVerifiedBypass: 'domain.verified_by_supervisor',
  domainSuspended: 'domain.suspended',
  domainUnsuspended: 'domain.unsuspended',
  domainPlainHttp: 'domain.plain_http',
  keySuspended: 'key.suspended',
  keyUnsuspended: 'key.unsuspended',
  settingsTeam: 'settings.team',
  settingsDomain: 'settings.domain',
  settingsKey: 'settings.key',
  tokenCreated: 'token.created',
  tokenRevoked: 'token.revoked',
  alertCreated: 'alert.created',
  alertUpdated: 'alert.updated',
  alertDeleted: 'alert.deleted',
  alertSecretRotated: 'alert.secret_rotated',
  supervisorGranted: 'supervisor.granted',
  supervisorRevoked: 'supervisor.revoked',
} as const;
export type TAuditAction = (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS];

/** How the history shows each action. */
export const AUDIT_ACTION_LABELS: Record<TAuditAction, string> = {
  'team.suspended': 'Suspended the team',
  'team.unsuspended': 'Unsuspended the team',
  'team.version': 'Changed the dashboard version',
  'team.tag_added': 'Added a tag',
  'team.tag_removed': 'Removed a tag',
  'domain.verified_by_supervisor': 'Verified a domain manually',
  'domain.suspended': 'Suspended a domain',
  'domain.unsuspended': 'Unsuspended a domain',
  'domain.plain_http': 'Switched a domain’s plain HTTP pages',
  'key.suspended': 'Suspended a key',
  'key.unsuspended': 'Unsuspended a key',
  'settings.team': 'Changed the team’s player settings',
  'settings.domain': 'Changed a domain’s player settings',
  'settings.key': 'Changed a key’s player settings',
  'token.created': 'Created an API token',
  'token.revoked': 'Revoked an API token',
  'alert.created': 'Created an alert',
  'alert.updated': 'Changed an alert',
  'alert.deleted': 'Deleted an alert',
  'alert.secret_rotated': 'Rotated an alert’s webhook secret',
  'supervisor.granted': 'Granted the supervisor flag',
  'supervisor.revoked': 'Revoked the supervisor flag',
};

/** The operator's command line (grant, revoke) and SUPERVISOR_EMAILS act without an account. */
export const AUDIT_OPERATOR = 'operator (command line or SUPERVISOR_EMAILS)';

export const ZAuditEntry = z.object({
  id: z.number().int(),
  action: z.string(),
  actorId: z.number().int().nullable(),
  actorEmail: z.string(),
  teamId: z.number().int().nullable(),
  targetType: z.string(),
  targetId: z.number().int(),
  target: z.string(),
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
  createdAt: z.string(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

export const AUDIT_PAGE_SIZE = 20;
/** GET /api/v1/supervisor/audit?team_id=&page=: a team's history (no team_id: every entry), newest
 *  first, 20 a page. */
export const ZAuditQuery = z.object({
  team_id: ZId.optional(),
  page: z.coerce
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(1)
    .max(10_000)
    .default(1),
});
export const ZAuditResponse = envelope(z.array(ZAuditEntry)).extend({
  pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }),
});
export type TAuditResponse = z.infer<typeof ZAuditResponse>;
