import { countResourceBytes } from '../cdn-only.js';
import type { Integration } from './integration.js';

/** Players without a P2P integration: nothing is shared; the CDN bytes the page sees are reported. */
export const cdnOnlyIntegration: Integration = {
  peers: false,
  attach({ reporter, cdnDownloaded, cleanups }) {
    if (reporter) cleanups.push(countResourceBytes(cdnDownloaded));
    return {};
  },
};
