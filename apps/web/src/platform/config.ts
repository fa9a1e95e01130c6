/** Product-wide constants of the web build. The support contact is read here and nowhere else. */
import { API_DOCS_PATH, PLAYER_PATHS } from '@tlprt/contract';

declare global {
  interface Window {
    /** Optional runtime settings a server may inject into index.html. */
    __TLPRT__?: { supportEmail?: string };
  }
}

export { PRODUCT_NAME } from '@tlprt/contract';
/** The integration guide (the "Documentation" links): a public screen of this app. */
export const GUIDE_URL = PLAYER_PATHS.guide;
/** The HTTP API reference (OpenAPI), served by the server. */
export const API_DOCS_URL = API_DOCS_PATH;

const DEFAULT_SUPPORT_EMAIL = 'support@localhost';

/** The server's value wins (it knows SUPPORT_EMAIL); then the build's env; then the default. */
export function supportEmail(): string {
  const injected = typeof window !== 'undefined' ? window.__TLPRT__?.supportEmail : undefined;
  return injected || import.meta.env.VITE_SUPPORT_EMAIL || DEFAULT_SUPPORT_EMAIL;
}

/**
 * The plugin's address for snippets. The server serves the dashboard on PUBLIC_URL and the plugin
 * beside it, so the page's own origin is PUBLIC_URL here; the plugin then takes every other path
 * (settings, tracker, ingest) from the origin it was loaded from.
 */
export function pluginUrl(): string {
  return new URL(PLAYER_PATHS.bundle, window.location.origin).href;
}
