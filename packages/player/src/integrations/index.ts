import type { TPlayerKind } from '@tlprt/contract';
import { cdnOnlyIntegration } from './cdn-only.js';
import { hlsJsIntegration } from './hls-js.js';
import { hostedHlsJsIntegration } from './hosted-hls-js.js';
import type { Integration } from './integration.js';
import { shakaIntegration } from './shaka.js';

export type { Integration } from './integration.js';

/** One integration for each kind of the players table (packages/contract players.ts): a kind added
 *  there without its module here does not compile (test/integration-kinds.test.ts). */
export const INTEGRATIONS: Record<TPlayerKind, Integration> = {
  'hls.js': hlsJsIntegration,
  shaka: shakaIntegration,
  'hosted-hls.js': hostedHlsJsIntegration,
  'cdn-only': cdnOnlyIntegration,
};
