/** Product-wide constants of the web build. The support contact is read here and nowhere else. */

declare global {
  interface Window {
    /** Optional runtime settings a server may inject into index.html. */
    __TLPRT__?: { supportEmail?: string };
  }
}

export { PRODUCT_NAME } from '@tlprt/contract';
export const DOCS_URL = '/api/docs';

const DEFAULT_SUPPORT_EMAIL = 'support@localhost';

/** The server's value wins (it knows SUPPORT_EMAIL); then the build's env; then the default. */
export function supportEmail(): string {
  const injected = typeof window !== 'undefined' ? window.__TLPRT__?.supportEmail : undefined;
  return injected || import.meta.env.VITE_SUPPORT_EMAIL || DEFAULT_SUPPORT_EMAIL;
}
