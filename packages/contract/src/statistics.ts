import { z } from 'zod';
import { envelope, text, ZId, ZKeyHash } from './common.js';
import { LIMITS } from './constants.js';
import { PLAYER_MAX_PENDING_REPORTS } from './player.js';

/**
 * The most bytes one report may count per series (DESIGN §7 Integrity): the plugin reports every 10 s,
 * and 4 GiB in 10 s is over 3 Gbit/s for one viewer. The key hash is public, so a larger count is an
 * attack on the team's statistics, not traffic.
 */
export const INGEST_MAX_BYTES = 2 ** 32;
/** Ingest (DESIGN §7): what the player plugin or an edge aggregator sends. */
const byteCount = z
  .number({ error: 'Must be a number' })
  .int('Must be a whole number')
  .min(0, 'Must not be negative')
  .max(INGEST_MAX_BYTES, `Must be at most ${INGEST_MAX_BYTES} bytes per report`);
export const ZIngestReport = z.object({
  apiKey: ZKeyHash,
  sessionId: z.string().min(1).max(200),
  ts: z.number().int(),
  cdnBytes: byteCount,
  p2pBytes: byteCount,
  nodrBytes: byteCount.optional(),
  /** Peer bytes the plugin refused since the last report (DESIGN §11: a segment whose SHA-256 is not
   *  the origin's, fetched again). Counted apart from the series, which hold delivered bytes only; many
   *  of them mean someone attacks the key's swarm. */
  rejectedBytes: byteCount.optional(),
  /** Increasing per session: a (key, sessionId, seq) already counted is accepted, not counted again. */
  seq: z
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .optional(),
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
/** Reports whose `ts` is further than this from server time are rejected. */
export const INGEST_MAX_SKEW_S = 600;

/** POST /stats/v3/dashboard/day|week|month|live/{team_id} (spec §7). */
export const ZStatsQuery = z.object({
  apiKeys: z.array(ZKeyHash).max(500),
  startTimestamp: z.coerce.number().int().min(0),
  endTimestamp: z.coerce.number().int().min(0),
  clientId: z.coerce.number().int().optional(),
  team_id: ZId,
});
export type TStatsQuery = z.infer<typeof ZStatsQuery>;

/** One point (spec §3): sizes in bytes, user counts; nodr fields only for version-1 teams. */
export const ZStatsPoint = z.object({
  datePoint: z.number().int(),
  cdnDwSize: z.number(),
  cdnUsersCount: z.number().int(),
  p2pDwSize: z.number(),
  p2pUsersCount: z.number().int(),
  nodrDwSize: z.number().optional(),
  nodrUsersCount: z.number().int().optional(),
  /** The audience (DESIGN §7): a session fed by both the CDN and peers is in both series above but
   *  counts once here, so the series must not be added up to get it. */
  usersCount: z.number().int(),
  /** Peer bytes refused by verification (the reports' rejectedBytes), summed like the sizes; 0 when
   *  none. Not part of the traffic above: p2pDwSize counts accepted peer bytes only. */
  rejectedDwSize: z.number(),
});
export type TStatsPoint = z.infer<typeof ZStatsPoint>;
export const ZStatsResponse = z.object({
  message: z.string(),
  data: z.array(ZStatsPoint),
  /** Seconds between points, and the window actually served after clamping. */
  step: z.number().int(),
  startTimestamp: z.number().int(),
  endTimestamp: z.number().int(),
});
export type TStatsResponse = z.infer<typeof ZStatsResponse>;

export const STATS_RANGES = {
  live: { step: 60, window: 300 },
  day: { step: 60, window: 86_400 },
  week: { step: 1200, window: 604_800 },
  month: { step: 3600, window: 2_592_000 },
} as const;
export type TStatsRange = keyof typeof STATS_RANGES;
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
export const DEFAULT_TAB_NAME = 'New list';

/** Why one ingest report was rejected (the `message` of ZIngestResponse errors). */
export const INGEST_ERRORS = {
  unknownKey: 'Unknown key',
  keyInactive: 'Key is not active',
  domainInactive: 'Domain of the key is not active',
  teamSuspended: 'Team of the key is suspended',
  teamDisabled: 'Team of the key is disabled',
  skew: `ts is more than ${INGEST_MAX_SKEW_S} s from server time`,
  origin: 'Origin is not a domain of the key',
  /** The server pushed the session out of its replay memory under load: counting its reports again
   *  could count one twice, so they are refused; the plugin goes on under a new session id. */
  sessionForgotten: 'Session forgotten by the server: report under a new sessionId',
  keyBudget: 'Too many reports for this key on this server: try again later',
  notTokenTeam: "Key is not of the API token's team",
} as const;

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
} as const;
/** How many rejected reports an ingest answer describes (the rest are only counted). */
export const INGEST_MAX_ERRORS = 10;
/** Invalid saved-list JSON (`save_json` that is not JSON). */
export const STATS_SETTINGS_INVALID_JSON = 'Must be valid JSON';
