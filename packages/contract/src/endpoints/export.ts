import { endpoint } from '../endpoint.js';

const tag = 'export';

/** "Get CSV list of all Users or Teams": streamed CSV attachments for supervisors. */
export const EXPORT_ENDPOINTS = {
  users: endpoint({
    method: 'GET',
    path: '/api/v1/export/users.csv',
    access: 'supervisor',
    tag,
    summary: 'CSV list of all users (supervisors): a text/csv attachment (RFC 4180, CRLF)',
    produces: 'text/csv',
    errors: [],
  }),
  teams: endpoint({
    method: 'GET',
    path: '/api/v1/export/teams.csv',
    access: 'supervisor',
    tag,
    summary: 'CSV list of all teams (supervisors): a text/csv attachment (RFC 4180, CRLF)',
    produces: 'text/csv',
    errors: [],
  }),
} as const;
