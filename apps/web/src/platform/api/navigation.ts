import { WEB_PATHS } from '@tlprt/contract';
import { clearToken } from '../session/storage';
import { queryClient } from './queryClient';

/** The router registers itself here so code outside React (the client, the stream) can navigate. */
let navigateImpl: ((path: string) => void) | null = null;

export function setNavigator(fn: ((path: string) => void) | null): void {
  navigateImpl = fn;
}

export function navigateTo(path: string): void {
  if (navigateImpl) navigateImpl(path);
  else window.location.assign(path);
}

/** Ends the session locally: token removed, cached data dropped, back to the site root (spec §2, §8). */
export function endSession(): void {
  clearToken();
  queryClient.clear();
  navigateTo(WEB_PATHS.login);
}

/** The page's reload; a test replaces it (jsdom's own cannot be spied on). */
export const pageReload = { run: () => window.location.reload() };

/** A full reload, e.g. after the forbidden popup cleared the current team. */
export function reloadPage(): void {
  pageReload.run();
}
