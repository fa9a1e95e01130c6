import { ENDPOINTS, endpointPath, KEY_PLACEHOLDER, type ZStatsExportQuery } from '@tlprt/contract';
import type { z } from 'zod';

/** The statistics export (GET /stats/v1/export), read with a team API token of scope `statistics`. */
export const STATS_EXPORT = ENDPOINTS.statistics.export;

/** An example export URL: the last day of one key as CSV (the key hash left for the reader to fill in). */
export function statsExportUrl(origin: string, keys: string = KEY_PLACEHOLDER): string {
  const query = { range: 'day', keys, format: 'csv' } satisfies z.input<typeof ZStatsExportQuery>;
  return `${origin}${endpointPath(STATS_EXPORT, undefined, query)}`;
}

/** The curl call of an export with a token (the token itself, or a placeholder). */
export const statsExportCurl = (origin: string, token: string, keys?: string): string =>
  `curl -H "Authorization: Bearer ${token}" "${statsExportUrl(origin, keys)}"`;
