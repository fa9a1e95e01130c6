import { readLocalStorageValue } from '@mantine/hooks';
import { ROUTE_NAMES, ROUTE_PATH_BY_NAME, STORAGE_KEYS, WEB_PATHS } from '@tlprt/contract';

/**
 * The session's values in localStorage (keys of spec §9), read and written outside React (the API
 * client, the live stream, the router guard). Values are plain strings, as the stored sessions have them.
 */
const read = (key: string): string | null =>
  readLocalStorageValue<string | null>({ key, defaultValue: null, deserialize: (v) => v ?? null });
function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* storage disabled: the session lives for this page only */
  }
}

export const getToken = () => read(STORAGE_KEYS.token);
export const setToken = (token: string) => write(STORAGE_KEYS.token, token);
export const clearToken = () => write(STORAGE_KEYS.token, null);

export const setStoredUserId = (id: number) => write(STORAGE_KEYS.currentUserId, String(id));

export const getStoredTeamId = () => toId(read(STORAGE_KEYS.currentTeamId));
export function setStoredTeam(team: { id: number; utcOffset: number }) {
  write(STORAGE_KEYS.currentTeamId, String(team.id));
  write(STORAGE_KEYS.utcOffsetTeam, String(team.utcOffset));
}
/** Makes a team current before the session knows it (e.g. just joined); its offset follows on reload. */
export const setStoredTeamId = (id: number) => write(STORAGE_KEYS.currentTeamId, String(id));
export const clearStoredTeam = () => write(STORAGE_KEYS.currentTeamId, null);

export const setRouteName = (name: string) => write(STORAGE_KEYS.routeName, name);

/** Spec §4 event 70: the role-changed popup's OK sets the settings head flag. */
export const setSettingsHeadFlag = () => write(STORAGE_KEYS.settingsHeadFlag, '1');

/** Screens a returning user may be sent back to after login (the dashboard ones only). */
const RETURNABLE = new Set<string>([
  ROUTE_NAMES.statistics,
  ROUTE_NAMES.alerts,
  ROUTE_NAMES.integration,
  ROUTE_NAMES.addDomains,
  ROUTE_NAMES.settings,
  ROUTE_NAMES.origins,
  ROUTE_NAMES.team,
  ROUTE_NAMES.billing,
]);

/** The login screen's query parameter holding the dashboard address a signed-out visitor opened. */
export const RETURN_PARAM = 'next';

/** The login screen that leads back to `path` (a dashboard address, its query included) after sign-in. */
export const loginReturningTo = (path: string): string =>
  `${WEB_PATHS.login}?${new URLSearchParams({ [RETURN_PARAM]: path })}`;

const RETURNABLE_PATHS = new Set([...RETURNABLE].map((name) => ROUTE_PATH_BY_NAME[name]));
/** A base no address of ours has: an absolute or protocol-relative `next` resolves away from it. */
const PROBE = 'http://return.invalid';

/** `next` when it is the address of a returnable dashboard screen of this site, else null: a link
 *  never sends a person who signs in to another site. */
function returnablePath(next: string | null | undefined): string | null {
  if (!next?.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(next, PROBE);
  } catch {
    return null;
  }
  if (url.origin !== PROBE || !RETURNABLE_PATHS.has(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Where login leads: the address the person opened (`next`) when it is a dashboard screen, else the
 *  last stored route name, else Statistics, the home of anyone in a team (its route sends a person
 *  without one on to settings). */
export function pathAfterLogin(next?: string | null): string {
  const wanted = returnablePath(next);
  if (wanted) return wanted;
  const name = read(STORAGE_KEYS.routeName);
  if (name && RETURNABLE.has(name)) return ROUTE_PATH_BY_NAME[name] ?? WEB_PATHS.statistics;
  return WEB_PATHS.statistics;
}

function toId(v: string | null): number | null {
  if (!v) return null;
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : null;
}
