import {
  DEFAULT_TIME_ZONE_NAME,
  findTimeZone,
  type TTeamSummary,
  timeZoneText,
  zoneOffsetMinutes,
} from '@tlprt/contract';
import type { MemberTeamRow } from './queries.js';

/** A team row as the member sees it (ZTeamSummary). Offsets are computed at `at`, so DST is right. */
export function presentTeamSummary(row: MemberTeamRow, at: Date): TTeamSummary {
  const zone = findTimeZone(row.time_zone_id)?.name ?? DEFAULT_TIME_ZONE_NAME;
  return {
    id: row.id,
    name: row.name,
    website: row.website,
    role: row.role,
    favourite: row.favourite === 1,
    version: row.version,
    statusId: row.status_id,
    suspended: row.suspended,
    suspendedProcess: row.suspended_process,
    timezoneId: row.time_zone_id,
    timeZone: timeZoneText(zone, at),
    utcOffset: zoneOffsetMinutes(zone, at) / 60,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
