import { PLAYER_INTEGRATION, type TPlayerKind } from '@tlprt/contract';
import { describe, expect, it, vi } from 'vitest';
import { INTEGRATIONS, type Integration } from '../src/integrations/index.js';

/**
 * attach picks a player's integration from a record keyed by the players table's kinds (contract
 * players.ts TPlayerKind, which every row's `kind` satisfies). The compiler holds the record to every
 * kind: the `@ts-expect-error` below fails `tsc -p packages/player/test` (npm run typecheck) the day a
 * record without one of them compiles.
 */
// The real engines load browser-only code; none is made here.
vi.mock('p2p-media-loader-hlsjs', () => ({ HlsJsP2PEngine: class {} }));
vi.mock('p2p-media-loader-shaka', () => ({ ShakaP2PEngine: class {} }));

const none: Integration = { peers: false, attach: () => ({}) };

describe('integrations', () => {
  it('a record without an integration for one kind of the players table does not compile', () => {
    // @ts-expect-error 'cdn-only' has no integration
    const missing: Record<TPlayerKind, Integration> = { 'hls.js': none, shaka: none, 'hosted-hls.js': none };
    expect(Object.keys(missing)).not.toContain('cdn-only');
  });

  it('every kind of the players table has its integration, and there is none of another kind', () => {
    const kinds = [...new Set(Object.values(PLAYER_INTEGRATION))].sort();
    expect(Object.keys(INTEGRATIONS).sort()).toEqual(kinds);
    for (const kind of kinds) expect(typeof INTEGRATIONS[kind].attach).toBe('function');
  });

  it('only players without a P2P integration never share', () => {
    for (const [kind, integration] of Object.entries(INTEGRATIONS))
      expect(integration.peers).toBe(kind !== 'cdn-only');
  });
});
