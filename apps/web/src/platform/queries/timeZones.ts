import { useQuery } from '@tanstack/react-query';
import { ENDPOINTS, findTimeZone, type TTimeZone, timeZoneLabel, timeZonesByOffset } from '@tlprt/contract';
import { useMemo } from 'react';
import { request } from '../api/client';
import { teamKeys } from './teams';

/** GET /auth/time_zone_list (static: cached for the session); the team's and the person's zone
 *  selects both read it. */
export function useTimeZones() {
  return useQuery({
    queryKey: teamKeys.timeZones(),
    queryFn: () => request(ENDPOINTS.dictionaries.timeZoneList),
    staleTime: Number.POSITIVE_INFINITY,
    select: (r) => r.data,
  });
}

export interface ZoneOption {
  value: string;
  label: string;
}

/** The select's options: by today's offset, labelled "(UTC+09:30) Darwin". The offsets are the
 *  browser's for now, not the list's texts: the list is cached for the session, daylight saving is not. */
export function timeZoneOptions(zones: readonly TTimeZone[], at = new Date()): ZoneOption[] {
  return timeZonesByOffset(zones, at).map((z) => ({ value: String(z.id), label: z.label }));
}

/** The time zone list as options; while it loads, the zone in use alone (so the select shows it). */
export function useTimeZoneOptions(current: number | null): ZoneOption[] {
  const zones = useTimeZones();
  return useMemo(() => {
    if (zones.data) return timeZoneOptions(zones.data);
    const zone = current === null ? undefined : findTimeZone(current);
    return zone ? [{ value: String(zone.id), label: timeZoneLabel(zone.name) }] : [];
  }, [zones.data, current]);
}
