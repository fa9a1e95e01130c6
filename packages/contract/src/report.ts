/**
 * What an ingest report may hold (docs/DESIGN.md §7), as plain values without zod: the player plugin's bundle
 * imports these, and a module building zod schemas would bring zod into every customer's page.
 */

/** The fields of an ingest report that carry a count (their values are whole, 0 or more). */
export const REPORT_COUNT_LIMITS = {
  /** The most bytes one report may count per series (docs/DESIGN.md §7 Integrity): the plugin reports every
   *  10 s, and 4 GiB in 10 s is over 3 Gbit/s for one viewer. */
  cdnBytes: 2 ** 32,
  p2pBytes: 2 ** 32,
  nodrBytes: 2 ** 32,
  rejectedBytes: 2 ** 32,
  /** Of p2pBytes, those received from peers of another network than the viewer's (the peer-id
   *  convention of player.ts networkTagOf): what matching by network keeps off ISPs' transit links. */
  p2pCrossBytes: 2 ** 32,
  /** Time in one report: reports older than 10 minutes are refused anyway. */
  playMs: 600_000,
  stallMs: 600_000,
  plays: 100,
  failures: 100,
  /** Peers connected when the report was made (the tracker caps a swarm's offers far below). */
  peers: 1000,
} as const;
export type TReportCountField = keyof typeof REPORT_COUNT_LIMITS;
/** Startup times are counted in these buckets (upper bounds, ms; the last bucket is everything above). */
export const STARTUP_BUCKETS_MS = [100, 250, 500, 750, 1000, 1500, 2000, 3000, 5000, 10_000] as const;
/** Startup times one report may carry (plays that reached their first frame in 10 s). */
export const REPORT_MAX_STARTUPS = 20;
/** The longest startup counted (10 minutes): a longer wait is no start. */
export const STARTUP_MAX_MS = 600_000;

/** The longest stream URL a report may name (its path and host are kept). */
export const REPORT_STREAM_MAX = 2048;
/** Reports whose `ts` is further than this from server time are rejected. */
export const INGEST_MAX_SKEW_S = 600;

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
