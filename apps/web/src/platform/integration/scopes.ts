import {
  ENDPOINTS,
  MSG_HASHES,
  MSG_TOKENS,
  PLAYER_PATHS,
  STATS_EXPORTS_PER_MINUTE,
  TEAM_TOKEN_SCOPE_DESCRIPTIONS,
  type TTeamTokenScope,
} from '@tlprt/contract';
import { STATS_EXPORT } from './export-example';

/* The texts of the token scopes (the contract's MSG_TOKENS names the ingest one, MSG_HASHES the hashes one). */

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
  hashes: {
    label: MSG_HASHES.scopeLabel,
    description: `POST ${PLAYER_PATHS.hashes}: ${TEAM_TOKEN_SCOPE_DESCRIPTIONS.hashes} from your packager`,
  },
};
/** The scope's badge in the list. */
export const SCOPE_BADGE: Record<TTeamTokenScope, string> = {
  ingest: MSG_TOKENS.scopeIngest,
  statistics: 'Statistics export',
  hashes: MSG_HASHES.scopeBadge,
};
export const SCOPE_LABEL = 'Scope';
/** How to use a statistics token (the ingest one's is MSG_TOKENS.usage). */
export const exportUsage = (path: string) =>
  `Send it as "Authorization: Bearer <token>" on GET ${path} to read the team's statistics: JSON, or CSV with format=csv; at most ${STATS_EXPORTS_PER_MINUTE} exports a minute.`;
