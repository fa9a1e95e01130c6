import { z } from 'zod';
import { ZId } from '../common.js';
import { endpoint } from '../endpoint.js';
import { PLAYER_API_PATHS } from '../player.js';
import {
  ZBreakdownQuery,
  ZBreakdownResponse,
  ZBreakdownSeriesQuery,
  ZIngestRequest,
  ZIngestResponse,
  ZStatsExportQuery,
  ZStatsQuery,
  ZStatsResponse,
  ZStatsSettingsPut,
  ZStatsSettingsResponse,
} from '../statistics.js';
import { ZStatsFormatQuery } from '../statistics-csv.js';

const tag = 'statistics';

/** The CSV answer of the chart calls (statsCsv): `?format=csv`; JSON stays the default. */
const csvSummary =
  "The team's summed points of the asked keys; `?format=csv` answers them as text/csv (columns time in the team's time zone, timestamp, then every field of the JSON points by the same names: cdnDwSize, p2pDwSize, the nodr fields for version-1 teams, viewers, experience, verifyDwSize and p2pCrossDwSize, as the breakdown CSV has them)";

/** A chart over a range of the team's keys (the team in the body). */
const rangeQuery = {
  method: 'POST',
  access: 'user',
  tag,
  summary: csvSummary,
  query: ZStatsFormatQuery,
  body: ZStatsQuery,
  response: ZStatsResponse,
  errors: [400, 403, 404],
} as const;
const ZSavedListParams = z.object({ user_id: ZId, team_id: ZId });

/** What players report, the dashboard's charts (spec §7) and each user's saved key lists. */
export const STATISTICS_ENDPOINTS = {
  /** No token: the key hash in each report is the credential (docs/DESIGN.md §7). */
  ingest: endpoint({
    method: 'POST',
    path: PLAYER_API_PATHS.ingest,
    access: 'player',
    tag,
    body: ZIngestRequest,
    status: 202,
    response: ZIngestResponse,
    errors: [400, 401, 413, 429],
  }),
  day: endpoint({ ...rangeQuery, path: '/stats/v3/dashboard/day' }),
  week: endpoint({ ...rangeQuery, path: '/stats/v3/dashboard/week' }),
  month: endpoint({ ...rangeQuery, path: '/stats/v3/dashboard/month' }),
  breakdown: endpoint({
    method: 'POST',
    path: '/stats/v3/dashboard/breakdown',
    access: 'user',
    tag,
    summary:
      "The range's traffic of the asked keys by stream, country, network, browser or system, largest first; `?format=csv` answers it as text/csv",
    query: ZStatsFormatQuery,
    body: ZBreakdownQuery,
    response: ZBreakdownResponse,
    errors: [400, 403, 404],
  }),
  /** The chart's points of one breakdown row (the screen's drill-down). */
  breakdownSeries: endpoint({
    method: 'POST',
    path: '/stats/v3/dashboard/breakdown/series',
    access: 'user',
    tag,
    summary:
      "The points of one row of the breakdown (`by` and its `value`, a name the breakdown answered) over the breakdown's window, per hour (per UTC day before the hours kept), in the chart's shape",
    body: ZBreakdownSeriesQuery,
    response: ZStatsResponse,
    errors: [400, 403, 404],
  }),
  /** The last minutes; the team in the path. */
  live: endpoint({
    method: 'POST',
    path: '/stats/v3/dashboard/live/:team_id',
    access: 'user',
    tag,
    summary: csvSummary,
    params: z.object({ team_id: ZId }),
    query: ZStatsFormatQuery,
    body: ZStatsQuery.partial({ team_id: true }),
    response: ZStatsResponse,
    errors: [400, 403, 404],
  }),
  /** Machines: a team API token of scope `statistics` (Authorization: Bearer) instead of a session. */
  export: endpoint({
    method: 'GET',
    path: '/stats/v1/export',
    access: 'player',
    tag,
    summary:
      "A team's points as the dashboard answers them (JSON, or `format=csv`), with a team API token of scope statistics in `Authorization: Bearer`; at most 60 a minute per token",
    query: ZStatsExportQuery,
    response: z.union([ZStatsResponse, ZBreakdownResponse]),
    errors: [400, 401, 429],
  }),
  readLists: endpoint({
    method: 'POST',
    path: '/api/v1/statistic/settings/get/user/:user_id/team/:team_id',
    access: 'user',
    tag,
    params: ZSavedListParams,
    response: ZStatsSettingsResponse,
    errors: [400, 403, 404],
  }),
  saveLists: endpoint({
    method: 'POST',
    path: '/api/v1/statistic/settings/put/user/:user_id/team/:team_id',
    access: 'user',
    tag,
    params: ZSavedListParams,
    body: ZStatsSettingsPut,
    response: ZStatsSettingsResponse,
    errors: [400, 403, 404],
  }),
} as const;
