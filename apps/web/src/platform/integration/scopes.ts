import { ENDPOINTS, MSG_TOKENS, STATS_EXPORTS_PER_MINUTE, type TTeamTokenScope } from '@tlprt/contract';
import { STATS_EXPORT } from './export-example';

/* The texts of the token scopes (the contract's MSG_TOKENS names only the ingest one). */

/** Where an ingest token is sent. */
export const INGEST_PATH = ENDPOINTS.statistics.ingest.path;

/** The scope choice of the creation form: label and what a token of it is for. */
export const SCOPE_CHOICE: Record<TTeamTokenScope, { label: string; description: string }> = {
  ingest: {
    label: 'Report traffic (ingest)',
    description: `POST ${INGEST_PATH}: batches of many sessions from a server`,
  },
  statistics: {
    label: 'Read statistics (export)',
    description: `GET ${STATS_EXPORT.path}: the team's statistics as JSON or CSV`,
  },
};
/** The scope's badge in the list. */
export const SCOPE_BADGE: Record<TTeamTokenScope, string> = {
  ingest: MSG_TOKENS.scopeIngest,
  statistics: 'Statistics export',
};
export const SCOPE_LABEL = 'Scope';
/** How to use a statistics token (the ingest one's is MSG_TOKENS.usage). */
export const exportUsage = (path: string) =>
  `Send it as "Authorization: Bearer <token>" on GET ${path} to read the team's statistics: JSON, or CSV with format=csv; at most ${STATS_EXPORTS_PER_MINUTE} exports a minute.`;
