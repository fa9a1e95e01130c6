/**
 * The time zones a team can choose (GET /auth/time_zone_list). Ids are stable: they are stored on teams.
 * Id 37 is "UTC", the default of spec §9. Offsets are computed from the IANA name at the moment asked,
 * so daylight saving is right all year.
 */
const ZONES = [
  'Pacific/Midway',
  'Pacific/Honolulu',
  'America/Anchorage',
  'America/Los_Angeles',
  'America/Tijuana',
  'America/Phoenix',
  'America/Denver',
  'America/Chicago',
  'America/Mexico_City',
  'America/Regina',
  'America/New_York',
  'America/Bogota',
  'America/Lima',
  'America/Caracas',
  'America/Halifax',
  'America/Santiago',
  'America/St_Johns',
  'America/Sao_Paulo',
  'America/Argentina/Buenos_Aires',
  'America/Montevideo',
  'America/Godthab',
  'Atlantic/South_Georgia',
  'Atlantic/Azores',
  'Atlantic/Cape_Verde',
  'Africa/Casablanca',
  'Atlantic/Reykjavik',
  'Europe/Dublin',
  'Europe/Lisbon',
  'Europe/London',
  'Africa/Lagos',
  'Europe/Madrid',
  'Europe/Paris',
  'Europe/Berlin',
  'Europe/Rome',
  'Europe/Amsterdam',
  'Europe/Warsaw',
  'UTC',
  'Europe/Athens',
  'Europe/Bucharest',
  'Europe/Helsinki',
  'Europe/Kyiv',
  'Africa/Cairo',
  'Africa/Johannesburg',
  'Asia/Jerusalem',
  'Europe/Istanbul',
  'Europe/Moscow',
  'Asia/Riyadh',
  'Africa/Nairobi',
  'Asia/Tehran',
  'Asia/Dubai',
  'Asia/Baku',
  'Asia/Kabul',
  'Asia/Karachi',
  'Asia/Tashkent',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Dhaka',
  'Asia/Almaty',
  'Asia/Yangon',
  'Asia/Bangkok',
  'Asia/Jakarta',
  'Asia/Shanghai',
  'Asia/Hong_Kong',
  'Asia/Singapore',
  'Australia/Perth',
  'Asia/Taipei',
  'Asia/Tokyo',
  'Asia/Seoul',
  'Australia/Adelaide',
  'Australia/Darwin',
  'Australia/Brisbane',
  'Australia/Sydney',
  'Pacific/Guam',
  'Asia/Vladivostok',
  'Pacific/Noumea',
  'Pacific/Auckland',
  'Pacific/Fiji',
  'Pacific/Tongatapu',
  'Pacific/Kiritimati',
] as const;

export const TIME_ZONES: readonly { id: number; name: string }[] = ZONES.map((name, i) => ({
  id: i + 1,
  name,
}));

/** Minutes east of UTC for a zone at an instant. */
export function zoneOffsetMinutes(zone: string, at: Date = new Date()): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return Math.round((asUtc - Math.floor(at.getTime() / 60000) * 60000) / 60000);
}

/** "(UTC+05:30) Asia/Kolkata" */
export function timeZoneText(zone: string, at: Date = new Date()): string {
  if (zone === 'UTC') return 'UTC';
  const m = zoneOffsetMinutes(zone, at);
  const sign = m < 0 ? '-' : '+';
  const abs = Math.abs(m);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `(UTC${sign}${hh}:${mm}) ${zone.replace(/_/g, ' ')}`;
}

export function findTimeZone(id: number) {
  return TIME_ZONES.find((z) => z.id === id);
}

/** A zone as a select shows it: "(UTC+09:30) Darwin", the city after its offset at `at`; UTC is "UTC". */
export function timeZoneLabel(zone: string, at: Date = new Date()): string {
  if (zone === 'UTC') return 'UTC';
  const city = zone.slice(zone.lastIndexOf('/') + 1).replace(/_/g, ' ');
  return `${timeZoneText(zone, at).slice(0, '(UTC+00:00)'.length)} ${city}`;
}

/**
 * Zones in the order a person looks for them: by their offset at `at` (so daylight saving moves a zone
 * between its neighbours), UTC first among the zones at +00:00 (it is the default), then by label.
 * The ids stay the table's, whatever the order.
 */
export function timeZonesByOffset<Z extends { id: number; name: string }>(
  zones: readonly Z[],
  at: Date = new Date(),
): Array<Z & { offsetMinutes: number; label: string }> {
  return zones
    .map((z) => ({ ...z, offsetMinutes: zoneOffsetMinutes(z.name, at), label: timeZoneLabel(z.name, at) }))
    .sort(
      (a, b) =>
        a.offsetMinutes - b.offsetMinutes ||
        Number(b.name === 'UTC') - Number(a.name === 'UTC') ||
        a.label.localeCompare(b.label, 'en'),
    );
}
