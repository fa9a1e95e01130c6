import { ZAuditQuery, ZAuditResponse } from '../audit.js';
import { endpoint } from '../endpoint.js';

/** The supervisors' audit log of docs/DESIGN.md §12. */
export const AUDIT_ENDPOINTS = {
  /** Without `team_id`, every entry. */
  read: endpoint({
    method: 'GET',
    path: '/api/v1/supervisor/audit',
    access: 'supervisor',
    tag: 'supervisor',
    summary: 'A team’s supervisor history, newest first (supervisors only)',
    query: ZAuditQuery,
    response: ZAuditResponse,
    errors: [400],
  }),
} as const;
