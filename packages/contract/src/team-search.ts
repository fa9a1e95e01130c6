import { LIMITS, TeamStatus } from './constants.js';
import type { TTeamSearchRequest } from './team-management.js';

/**
 * The supervisor's Team Management panel (spec §2, §9): page sizes, scroll rule, filters and their
 * request fields. Server, panel and tests read the same definitions.
 */
export const TEAM_SEARCH = {
  /** Page size of the card list and of the table (spec §9). */
  pageSizeCards: 10,
  pageSizeTable: 20,
  /** The next page loads when the list is scrolled to this share of its height ... */
  scrollThreshold: 0.99,
  /** ... and stays there this long (spec §9). */
  scrollDelayMs: 100,
  /** The search box waits this long after the last key stroke. */
  debounceMs: 300,
  /** "Active" covers these status ids (spec §4), for teams that are not suspended. */
  activeStatuses: [TeamStatus.Active, TeamStatus.DeletionRequested] as number[],
} as const;

export const MSG_TEAM_MANAGEMENT = {
  history: 'History',
  historyEmpty: 'No supervisor action has been recorded for this team yet.',
  title: 'Team management',
  searchPlaceholder: 'Search team by Name or ID or Tag or E-mail',
  clearFilters: 'clear filters',
  csvLink: 'Get CSV list of all Users or Teams',
  suspended: 'SUSPENDED',
  noTeamsFound: 'No teams match these filters',
  futureDate: 'Dates in the future cannot be chosen',
  rangeOrder: 'The start date must not be after the end date',
} as const;

export type TStatusFilter = { active: boolean; suspended: boolean };

/**
 * The Status filter as request fields. Active = status ids 10 and 30, not suspended (`statuses`);
 * Suspended = suspended teams or status 50 (`suspended: 1`); both ticked = either of the two (the
 * server reads `statuses` + `suspended: 1` as a union); none ticked = no filter.
 */
export function teamStatusFilter(f: TStatusFilter): Pick<TTeamSearchRequest, 'statuses' | 'suspended'> {
  return {
    ...(f.active ? { statuses: [...TEAM_SEARCH.activeStatuses] } : {}),
    ...(f.suspended ? { suspended: 1 } : {}),
  };
}

export const CREATION_DATE_PRESETS = ['today', 'last7', 'last30', 'lastYear'] as const;
export type TCreationDatePreset = (typeof CREATION_DATE_PRESETS)[number];
export const CREATION_DATE_PRESET_LABELS: Record<TCreationDatePreset, string> = {
  today: 'Today',
  last7: 'Last 7 days',
  last30: 'Last 30 days',
  lastYear: 'Last year',
};
/** Days back from now of each preset (spec §9: today, 7, 30, 365 days back). */
const PRESET_DAYS: Record<TCreationDatePreset, number> = { today: 0, last7: 7, last30: 30, lastYear: 365 };

const DAY_MS = 24 * 3600 * 1000;

/** Local midnight of the day containing `ms`. */
export function startOfLocalDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/**
 * `start_time`/`end_time` (epoch seconds) of a preset: "Today" is from local midnight; the others
 * go 7, 30 or 365 days back from now. Both end now.
 */
export function creationDatePresetRange(
  preset: TCreationDatePreset,
  nowMs: number,
): { start_time: number; end_time: number } {
  const days = PRESET_DAYS[preset];
  const start = days === 0 ? startOfLocalDay(nowMs) : nowMs - days * DAY_MS;
  return { start_time: Math.floor(start / 1000), end_time: Math.floor(nowMs / 1000) };
}

/**
 * A custom range of local calendar days (`YYYY-MM-DD`): from the first day's midnight to the last
 * second of the last day, never past now. Null with a reason when a day is in the future or the
 * range is reversed.
 */
export function customDateRange(
  from: string,
  to: string,
  nowMs: number,
): { start_time: number; end_time: number } | { error: string } {
  const parse = (s: string) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    if (!m) return Number.NaN;
    return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime();
  };
  const a = parse(from);
  const b = parse(to || from);
  if (Number.isNaN(a) || Number.isNaN(b)) return { error: 'Invalid date' };
  const today = startOfLocalDay(nowMs);
  if (a > today || b > today) return { error: MSG_TEAM_MANAGEMENT.futureDate };
  if (a > b) return { error: MSG_TEAM_MANAGEMENT.rangeOrder };
  const endOfB = Math.min(b + DAY_MS - 1, nowMs);
  return { start_time: Math.floor(a / 1000), end_time: Math.floor(endOfB / 1000) };
}

/** The table's name column (spec §9: cut at 40 characters). */
export function cutTeamName(name: string, max: number = LIMITS.teamNameTableCut): string {
  return name.length > max ? `${name.slice(0, max)}…` : name;
}

/** What a team shows as its status in the panel (spec §4: status 50 or suspended → SUSPENDED). */
export function isShownSuspended(t: { statusId: number; suspended: number }): boolean {
  return t.suspended === 1 || t.statusId === TeamStatus.Suspended;
}

/** Columns of the CSV exports (supervisors: "Get CSV list of all Users or Teams"). */
export const CSV_COLUMNS = {
  users: ['id', 'email', 'name', 'surname', 'supervisor', 'status', 'created_at', 'teams'],
  teams: [
    'id',
    'name',
    'website',
    'status',
    'suspended',
    'version',
    'created_at',
    'members',
    'admins',
    'tags',
  ],
} as const;
