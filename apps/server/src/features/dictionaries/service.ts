import {
  ENUM_DICTIONARIES,
  type TDictionaries,
  type TDictionaryItem,
  TIME_ZONES,
  type TTimeZone,
  timeZonesByOffset,
  timeZoneText,
} from '@tlprt/contract';

/** ISO 3166 codes that Intl names but that are not countries: exceptional reservations (AC, CP, CQ, DG,
 *  EA, EU, EZ, IC, TA, UN) and user-assigned codes (QM–QZ, XA–XZ, AA, ZZ). */
const NOT_A_COUNTRY = /^(AA|AC|CP|CQ|DG|EA|EU|EZ|IC|TA|UN|Q[M-Z]|X[A-Z]|ZZ)$/;

/** ISO 3166-1 alpha-2 countries with English names, from the runtime's ICU data (no list to maintain):
 *  every two-letter code ICU names, minus deprecated aliases (BU → MM, ...) and the non-countries. */
function countries(): TDictionaryItem[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const out: TDictionaryItem[] = [];
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = names.of(code);
      if (!name || name === code || NOT_A_COUNTRY.test(code)) continue;
      if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
      out.push({ id: code, name });
    }
  }
  return out.sort((x, y) => x.name.localeCompare(y.name, 'en'));
}

function currencies(): TDictionaryItem[] {
  const names = new Intl.DisplayNames(['en'], { type: 'currency' });
  return Intl.supportedValuesOf('currency').map((code) => ({ id: code, name: names.of(code) ?? code }));
}

let cached: TDictionaries | undefined;

/** The 18 lists of GET /dictionaries/{locale} (built once: they do not change while running). */
export function dictionaries(): TDictionaries {
  cached ??= { ...ENUM_DICTIONARIES, currency_ISO: currencies(), countries_ISO: countries() };
  return cached;
}

/** Time zones with their current offsets, ordered by them (computed per call: offsets change with
 *  daylight saving). The text stays the spec's "(UTC+05:30) Asia/Kolkata". */
export function timeZoneList(at: Date): TTimeZone[] {
  return timeZonesByOffset(TIME_ZONES, at).map((z) => ({
    id: z.id,
    name: z.name,
    text: timeZoneText(z.name, at),
  }));
}
