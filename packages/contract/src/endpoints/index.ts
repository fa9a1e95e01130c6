import { pathTable } from '../endpoint.js';
import { ACCOUNT_ENDPOINTS } from './account.js';
import { ALERT_ENDPOINTS } from './alerts.js';
import { AUDIT_ENDPOINTS } from './audit.js';
import { AUTH_ENDPOINTS } from './auth.js';
import { DICTIONARY_ENDPOINTS } from './dictionaries.js';
import { DOMAIN_ENDPOINTS } from './domains.js';
import { EXPORT_ENDPOINTS } from './export.js';
import { INVITATION_ENDPOINTS } from './invitations.js';
import { KEY_SETTING_ENDPOINTS } from './key-settings.js';
import { KEY_ENDPOINTS } from './keys.js';
import { LIVE_ENDPOINTS } from './live.js';
import { ORIGIN_ENDPOINTS } from './origins.js';
import { STATISTICS_ENDPOINTS } from './statistics.js';
import { TEAM_LIFECYCLE_ENDPOINTS } from './team-lifecycle.js';
import { TEAM_TOKEN_ENDPOINTS } from './team-tokens.js';
import { TEAM_ENDPOINTS } from './teams.js';
import { USER_ENDPOINTS } from './users.js';

export { ACCOUNT_ENDPOINTS } from './account.js';
export { ALERT_ENDPOINTS } from './alerts.js';
export { AUDIT_ENDPOINTS } from './audit.js';
export { AUTH_ENDPOINTS } from './auth.js';
export { DICTIONARY_ENDPOINTS } from './dictionaries.js';
export { DOMAIN_ENDPOINTS } from './domains.js';
export { EXPORT_ENDPOINTS } from './export.js';
export { INVITATION_ENDPOINTS } from './invitations.js';
export { KEY_SETTING_ENDPOINTS, SUPERVISOR_SET } from './key-settings.js';
export { KEY_ENDPOINTS } from './keys.js';
export { LIVE_ENDPOINTS } from './live.js';
export { ORIGIN_ENDPOINTS } from './origins.js';
export { PLAYER_ENDPOINTS, type TIntegrityQuery, type TIntegrityResponse } from './player.js';
export { STATISTICS_ENDPOINTS } from './statistics.js';
export { TEAM_LIFECYCLE_ENDPOINTS } from './team-lifecycle.js';
export { TEAM_TOKEN_ENDPOINTS } from './team-tokens.js';
export { TEAM_ENDPOINTS } from './teams.js';
export { USER_ENDPOINTS } from './users.js';

/** Every endpoint of the three APIs, by feature. */
export const ENDPOINTS = {
  auth: AUTH_ENDPOINTS,
  dictionaries: DICTIONARY_ENDPOINTS,
  users: USER_ENDPOINTS,
  account: ACCOUNT_ENDPOINTS,
  teams: TEAM_ENDPOINTS,
  teamLifecycle: TEAM_LIFECYCLE_ENDPOINTS,
  teamTokens: TEAM_TOKEN_ENDPOINTS,
  invitations: INVITATION_ENDPOINTS,
  live: LIVE_ENDPOINTS,
  audit: AUDIT_ENDPOINTS,
  export: EXPORT_ENDPOINTS,
  domains: DOMAIN_ENDPOINTS,
  keys: KEY_ENDPOINTS,
  keySettings: KEY_SETTING_ENDPOINTS,
  origins: ORIGIN_ENDPOINTS,
  statistics: STATISTICS_ENDPOINTS,
  alerts: ALERT_ENDPOINTS,
} as const;

/** Every endpoint's path builder, by feature: `PATHS.keys.read(teamId, keyId)`. */
export const PATHS = pathTable(ENDPOINTS);
