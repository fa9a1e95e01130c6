import { z } from 'zod';
import { envelope, text, ZId, ZKeyHash } from './common.js';
import { LIMITS } from './constants.js';
import { PLAYER_MAX_PENDING_REPORTS } from './player.js';
import {
  REPORT_COUNT_LIMITS,
  REPORT_MAX_STARTUPS,
  REPORT_STREAM_MAX,
  STARTUP_MAX_MS,
  type TReportCountField,
} from './report.js';
import { ZChartPoint, ZSeriesPoint } from './series.js';

/** The most bytes one report may count per series (docs/DESIGN.md §7 Integrity). The key hash is public, so a
 *  larger count is an attack on the team's statistics, not traffic. */
export const INGEST_MAX_BYTES = REPORT_COUNT_LIMITS.cdnBytes;
/** A report's counts (docs/DESIGN.md §7), each with its own ceiling (REPORT_COUNT_LIMITS). */
const counts = Object.fromEntries(
  Object.entries(REPORT_COUNT_LIMITS).map(([field, max]) => [
    field,
    z
      .number({ error: 'Must be a number' })
      .int('Must be a whole number')
      .min(0, 'Must not be negative')
      .max(max, `Must be at most ${max}${field.endsWith('Bytes') ? ' bytes' : ''} per report`)
      .optional(),
  ]),
) as { [F in TReportCountField]: z.ZodOptional<z.ZodNumber> };
/** A report's field refusals beyond its own limits (the ingest's fast check, ingest.ts, answers the
 *  same). */
export const MSG_REPORT_FIELDS = {
  /** p2pCrossBytes counts part of p2pBytes (REPORT_COUNT_LIMITS). */
  crossAboveP2p: 'Must not be more than p2pBytes: bytes from peers of other networks are part of them',
} as const;
/** Ingest (docs/DESIGN.md §7): what the player plugin or an edge aggregator sends. */
export const ZIngestReport = z
  .object({
    apiKey: ZKeyHash,
    sessionId: z.string().min(1).max(200),
    ts: z.number().int(),
    ...counts,
    cdnBytes: counts.cdnBytes.unwrap(),
    p2pBytes: counts.p2pBytes.unwrap(),
    /** The startup time of each play that reached its first frame since the last report. */
    startupMs: z
      .array(z.number().int('Must be a whole number').min(0, 'Must not be negative').max(STARTUP_MAX_MS))
      .max(REPORT_MAX_STARTUPS)
      .optional(),
    /** The playlist's URL without its query (the breakdown by stream). */
    stream: z.string().max(REPORT_STREAM_MAX).optional(),
    /** Increasing per session: a (key, sessionId, seq) already counted is accepted, not counted again. */
    seq: z
      .number({ error: 'Must be a number' })
      .int('Must be a whole number')
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .optional(),
  })
  .refine((r) => r.p2pCrossBytes === undefined || r.p2pCrossBytes <= r.p2pBytes, {
    path: ['p2pCrossBytes'],
    error: MSG_REPORT_FIELDS.crossAboveP2p,
  });
export type TIngestReport = z.infer<typeof ZIngestReport>;
/** The batch is checked loosely: each report is validated on its own and rejected alone. */
export const ZIngestRequest = z.object({ reports: z.array(z.unknown()).max(50_000) });
export const ZIngestResponse = z.object({
  accepted: z.number().int(),
  rejected: z.number().int(),
  errors: z.array(z.object({ index: z.number().int(), message: z.string() })),
});
export type TIngestResponse = z.infer<typeof ZIngestResponse>;
/** POST /stats/v3/dashboard/day|week|month|live/{team_id} (spec §7). */
export const ZStatsQuery = z.object({
  apiKeys: z.array(ZKeyHash).max(500),
  startTimestamp: z.coerce.number().int().min(0),
  endTimestamp: z.coerce.number().int().min(0),
  clientId: z.coerce.number().int().optional(),
  team_id: ZId,
  /** `drawn`: the points carry only the series the chart draws (about half the answer); `totals`
   *  keeps every series. Every series by default. */
  points: z.enum(['all', 'drawn']).optional(),
});
export type TStatsQuery = z.infer<typeof ZStatsQuery>;

/** One point (spec §3, docs/DESIGN.md §7): its time and a field per series of the series table (series.ts);
 *  nodr fields only for version-1 teams. `usersCount` is the audience: a session fed by both the CDN
 *  and peers is in both series but counts once there. `rejectedDwSize` is not traffic: p2pDwSize counts
 *  accepted peer bytes only. */
export const ZStatsPoint = ZChartPoint;
export type TStatsPoint = z.infer<typeof ZStatsPoint>;
export const ZStatsResponse = z.object({
  message: z.string(),
  data: z.array(ZStatsPoint),
  /** Seconds between points, and the window actually served after clamping. */
  step: z.number().int(),
  startTimestamp: z.number().int(),
  endTimestamp: z.number().int(),
  /** The whole window in one: sums added up, viewers the largest point's, startup quantiles from the
   *  merged histogram (the "Viewer experience" panel). Absent only from the screen's sample data. */
  totals: ZSeriesPoint.omit({ datePoint: true }).optional(),
});
export type TStatsResponse = z.infer<typeof ZStatsResponse>;

/**
 * The ranges: `step` the seconds between points, `window` the rolling window ending now (the default),
 * `maxSpan` the longest window a chart of the range may ask for (any window within the data kept for
 * its step, STATS_STEP_KEPT_S; a month's hours fit a calendar quarter). A longer window is served as
 * the rolling one, as before custom windows existed.
 */
export const STATS_RANGES = {
  live: { step: 60, window: 300, maxSpan: 300 },
  day: { step: 60, window: 86_400, maxSpan: 86_400 },
  week: { step: 1200, window: 604_800, maxSpan: 604_800 },
  month: { step: 3600, window: 2_592_000, maxSpan: 92 * 86_400 },
} as const;
export type TStatsRange = keyof typeof STATS_RANGES;
/** How long the points of each step are kept (docs/DESIGN.md §2: minutes 2 days, 20-minute rollups 62 days,
 *  hours 2 years): the earliest a window of that step can start. */
export const STATS_STEP_KEPT_S: Readonly<Record<number, number>> = {
  60: 2 * 86_400,
  1200: 62 * 86_400,
  3600: 730 * 86_400,
};
/** Minimum chart zoom spans per step (spec §9): 1, 20 and 60 hours. */
export const MIN_ZOOM_SPAN_S: Record<number, number> = { 60: 3600, 1200: 72_000, 3600: 216_000 };

/** Saved statistics lists (spec §3 "Statistics tab"), stored as JSON text per user and team. */
export const ZStatsTab = z.object({
  nameTab: text().max(30, 'Maximum 30 symbols are allowed'),
  activeKeys: z.array(ZKeyHash).max(500),
});
export type TStatsTab = z.infer<typeof ZStatsTab>;
export const ZStatsSettings = z.object({
  tabs: z.array(ZStatsTab).max(LIMITS.statisticsTabs, `At most ${LIMITS.statisticsTabs} lists`),
});
export type TStatsSettings = z.infer<typeof ZStatsSettings>;
/** PUT body: `save_json` is the JSON text of ZStatsSettings (spec: "stored as JSON text"). */
export const ZStatsSettingsPut = z.object({
  user_id: z.coerce.number().int().optional(),
  team_id: z.coerce.number().int().optional(),
  save_json: z.string().max(100_000),
});
export const ZStatsSettingsResponse = envelope(ZStatsSettings);

/**
 * Breakdowns (docs/DESIGN.md §7): where the traffic of a range comes from, by stream (the playlist's URL
 * without its query), by country and by network (ASN) of the viewer's address, by browser and by
 * operating system. Stored per key and hour (the day and live ranges) and per key and day (week,
 * month), at most BREAKDOWN_NAMES_PER_BUCKET names per key, bucket and dimension on a node, those of the
 * most traffic: the rest are counted as BREAKDOWN_OTHER.
 */
export const BREAKDOWN_DIMENSIONS = ['stream', 'country', 'network', 'browser', 'os'] as const;
export type TBreakdownBy = (typeof BREAKDOWN_DIMENSIONS)[number];
export const BREAKDOWN_NAMES_PER_BUCKET = 50;
export const BREAKDOWN_OTHER = 'Other';
/** What a viewer is counted under when it cannot be told (no address, a private one, no user agent,
 *  an address the IP database lacks, a report without a stream). */
export const BREAKDOWN_UNKNOWN = 'Unknown';
/** Rows one breakdown answers at most (largest first). */
export const BREAKDOWN_MAX_ROWS = 500;
const ZStatsRange = z.enum(['live', 'day', 'week', 'month'], { error: 'Must be live, day, week or month' });
const ZBreakdownBy = z.enum(BREAKDOWN_DIMENSIONS, {
  error: `Must be one of ${BREAKDOWN_DIMENSIONS.join(', ')}`,
});
/** POST /stats/v3/dashboard/breakdown: the range payload of the charts plus the range and `by`. */
export const ZBreakdownQuery = ZStatsQuery.omit({ points: true }).extend({
  range: ZStatsRange,
  by: ZBreakdownBy,
});
export type TBreakdownQuery = z.infer<typeof ZBreakdownQuery>;
/** One row: the name (a stream's host and path, an ISO country code, "AS15169 Google LLC", a browser or
 *  system name) and the series of the range summed; viewers the largest bucket's. */
export const ZBreakdownRow = ZSeriesPoint.omit({ datePoint: true }).extend({ name: z.string() });
export type TBreakdownRow = z.infer<typeof ZBreakdownRow>;
export const ZBreakdownResponse = z.object({
  message: z.string(),
  by: ZBreakdownBy,
  data: z.array(ZBreakdownRow),
  /** The seconds of the buckets the rows were summed from, and the window they cover. */
  step: z.number().int(),
  startTimestamp: z.number().int(),
  endTimestamp: z.number().int(),
});
export type TBreakdownResponse = z.infer<typeof ZBreakdownResponse>;
/** The longest row name a drill-down asks for: a stream's host and path are kept to 300 characters. */
export const BREAKDOWN_VALUE_MAX = 300;
/** POST /stats/v3/dashboard/breakdown/series: the breakdown's query and one of its rows' names, answered
 *  as the chart's points (ZStatsResponse) of that row alone, per hour (per UTC day for a window older
 *  than the hours are kept), over the breakdown's window. */
export const ZBreakdownSeriesQuery = ZBreakdownQuery.extend({
  value: z
    .string({ error: 'Must be the name of a breakdown row' })
    .min(1, 'Must be the name of a breakdown row')
    .max(BREAKDOWN_VALUE_MAX, `Must be at most ${BREAKDOWN_VALUE_MAX} characters`),
});
export type TBreakdownSeriesQuery = z.infer<typeof ZBreakdownSeriesQuery>;

/** GET /stats/v1/export (docs/DESIGN.md §7): the dashboard's answer for machines, with a team API token of
 *  scope `statistics`. `keys`: key hashes separated by commas (all of the token's team). */
export const ZStatsExportQuery = z.object({
  range: ZStatsRange,
  /** A breakdown instead of points. */
  by: ZBreakdownBy.optional(),
  from: z.coerce.number({ error: 'Must be a number' }).int('Must be a whole number').min(0).optional(),
  to: z.coerce.number({ error: 'Must be a number' }).int('Must be a whole number').min(0).optional(),
  keys: z
    .string({ error: 'Key hashes separated by commas' })
    .transform((s) => s.split(',').filter((h) => h !== ''))
    .pipe(z.array(ZKeyHash).min(1, 'At least one key hash').max(500)),
  format: z.enum(['json', 'csv']).optional(),
});
export type TStatsExportQuery = z.infer<typeof ZStatsExportQuery>;
/** The export's refusals (401, 400). */
export const MSG_STATS_EXPORT = {
  badToken: 'The API token is not valid for reading statistics',
  otherTeamKey: "Not a key of the API token's team",
  tooMany: 'Too many exports with this token: try again later',
} as const;
/** Exports one token may make a minute. */
export const STATS_EXPORTS_PER_MINUTE = 60;

/**
 * Without an API token (browsers, anyone holding a key hash), one ingest request carries the
 * reports of one session, at most as many as the plugin keeps pending (it retries unacknowledged
 * reports together). Batches of many sessions need a team's API token.
 */
export const INGEST_ANONYMOUS_MAX_REPORTS = PLAYER_MAX_PENDING_REPORTS;
/** Whole-request refusals of the ingest (400, 401, 429). */
export const MSG_INGEST = {
  anonymousBatch: `Without an API token, one request carries the reports of one session (at most ${INGEST_ANONYMOUS_MAX_REPORTS})`,
  badToken: 'The API token is not valid',
  addressBudget: 'Too many reports from this address: try again later',
  /** 503: the statistics cannot be stored now (a storage outage past the memory it may hold, or the
   *  journal's disk failing); the plugin keeps its reports and sends them again. */
  unavailable: 'Statistics cannot be stored right now: try again later',
} as const;
/** How many rejected reports an ingest answer describes (the rest are only counted). */
export const INGEST_MAX_ERRORS = 10;
/** Invalid saved-list JSON (`save_json` that is not JSON). */
export const STATS_SETTINGS_INVALID_JSON = 'Must be valid JSON';
