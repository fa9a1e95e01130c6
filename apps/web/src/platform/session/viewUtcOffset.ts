import { findTimeZone, zoneOffsetMinutes } from '@tlprt/contract';
import { useMemo } from 'react';
import { useSession } from './SessionProvider';

/**
 * Hours east of UTC in which a person views times: their own time zone for charts when they chose one
 * (Profile settings), else the current team's (spec §3 utcOffset). The own zone's offset is the
 * browser's Intl answer for now, so daylight saving is right as the team's (which the server computes).
 */
export function viewUtcOffset(timezoneId: number | null | undefined, teamUtcOffset: number, at = new Date()) {
  const own = timezoneId == null ? undefined : findTimeZone(timezoneId);
  return own ? zoneOffsetMinutes(own.name, at) / 60 : teamUtcOffset;
}

export function useViewUtcOffset(): number {
  const { user, currentTeam } = useSession();
  const teamOffset = currentTeam?.utcOffset ?? 0;
  return useMemo(() => viewUtcOffset(user.timezoneId, teamOffset), [user.timezoneId, teamOffset]);
}
