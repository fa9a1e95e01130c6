import { emptySeries, SERIES } from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import {
  experienceFigures,
  failuresPer100,
  formatPer100,
  formatRebuffering,
  formatStartup,
  glossary,
  hasPlays,
  NONE,
  p2pShares,
  rebufferingShare,
  type TStatsTotals,
} from './experience';

const totals = (over: Partial<TStatsTotals> = {}): TStatsTotals => ({ ...emptySeries(), ...over });

describe('viewer experience figures', () => {
  it('startup in ms below a second, else seconds with one decimal; none measured is a dash', () => {
    expect(formatStartup(50)).toBe('50 ms');
    expect(formatStartup(999)).toBe('999 ms');
    expect(formatStartup(1000)).toBe('1.0 s');
    expect(formatStartup(1249)).toBe('1.2 s');
    expect(formatStartup(9999)).toBe('10.0 s');
    // The open last bucket answers its lower bound: at least 10 s.
    expect(formatStartup(10_000)).toBe('≥ 10.0 s');
    expect(formatStartup(0)).toBe(NONE);
    expect(formatStartup(Number.NaN)).toBe(NONE);
  });

  it('rebuffering = stalled / (played + stalled); none without play time', () => {
    expect(rebufferingShare({ playMs: 990, stallMs: 10 })).toBeCloseTo(0.01);
    expect(rebufferingShare({ playMs: 1000, stallMs: 0 })).toBe(0);
    expect(rebufferingShare({ playMs: 0, stallMs: 0 })).toBeNull();
    expect(rebufferingShare({ playMs: 0, stallMs: 500 })).toBeNull();
    expect(formatRebuffering(0.01)).toBe('1.0%');
    expect(formatRebuffering(0)).toBe('0%');
    expect(formatRebuffering(0.0004)).toBe('< 0.1%');
    expect(formatRebuffering(null)).toBe(NONE);
  });

  it('failures per 100 plays; none without plays', () => {
    expect(failuresPer100({ failures: 3, plays: 200 })).toBeCloseTo(1.5);
    expect(failuresPer100({ failures: 0, plays: 7 })).toBe(0);
    expect(failuresPer100({ failures: 2, plays: 0 })).toBeNull();
    expect(formatPer100(1.5)).toBe('1.5');
    expect(formatPer100(0)).toBe('0.0');
    expect(formatPer100(null)).toBe(NONE);
  });

  it('P2P share and ceiling of CDN + P2P bytes, NODR included when present', () => {
    expect(p2pShares({ cdnDwSize: 5250, p2pDwSize: 4750, p2pCeilingSize: 5000 })).toEqual({
      share: 0.475,
      ceiling: 0.5,
    });
    expect(p2pShares({ cdnDwSize: 4000, p2pDwSize: 4000, nodrDwSize: 2000, p2pCeilingSize: 5000 })).toEqual({
      share: 0.4,
      ceiling: 0.5,
    });
    expect(p2pShares({ cdnDwSize: 0, p2pDwSize: 0, p2pCeilingSize: 0 })).toBeNull();
    // No peers at all: both 0, which is true.
    expect(p2pShares({ cdnDwSize: 100, p2pDwSize: 0, p2pCeilingSize: 0 })).toEqual({ share: 0, ceiling: 0 });
    // Peer bytes without any ceiling recorded (before the series existed): the ceiling is unknown.
    expect(p2pShares({ cdnDwSize: 100, p2pDwSize: 100, p2pCeilingSize: 0 })).toEqual({
      share: 0.5,
      ceiling: null,
    });
  });

  it('has plays when anything was played or started', () => {
    expect(hasPlays(totals())).toBe(false);
    expect(hasPlays(totals({ cdnDwSize: 1e6 }))).toBe(false);
    expect(hasPlays(totals({ playMs: 1 }))).toBe(true);
    expect(hasPlays(totals({ plays: 1, failures: 1 }))).toBe(true);
  });

  it('builds the panel from the totals, each figure with its glossary from the contract', () => {
    const figures = experienceFigures(
      totals({
        cdnDwSize: 5250,
        p2pDwSize: 4750,
        p2pCeilingSize: 5000,
        playMs: 990_000,
        stallMs: 10_000,
        plays: 12_500,
        failures: 3,
        startupP50Ms: 850,
        startupP95Ms: 2400,
      }),
    );
    expect(figures.map((f) => [f.label, f.value])).toEqual([
      ['Startup p50', '850 ms'],
      ['Startup p95', '2.4 s'],
      ['Rebuffering', '1.0%'],
      ['Failures per 100 plays', '0.0'],
      ['Plays', '12.5K'],
      ['P2P share and ceiling', '47.5%'],
    ]);
    const p2p = figures.at(-1);
    expect(p2p?.detail).toBe('of a possible 50.0%');
    expect(p2p?.spoken).toBe('P2P 47.5% of a possible 50.0%');
    expect(glossary(p2p?.series ?? [])).toEqual([
      { label: SERIES.p2pBytes.label, description: SERIES.p2pBytes.description },
      { label: SERIES.ceilingBytes.label, description: SERIES.ceilingBytes.description },
    ]);
  });

  it('dashes what the totals cannot tell, never a made-up number', () => {
    const figures = experienceFigures(totals({ plays: 4, failures: 4 }));
    const byId = Object.fromEntries(figures.map((f) => [f.id, f]));
    expect(byId.startupP50?.value).toBe(NONE);
    expect(byId.rebuffering?.value).toBe(NONE);
    expect(byId.failures?.value).toBe('100.0');
    expect(byId.p2p?.value).toBe(NONE);
    expect(byId.p2p?.detail).toBe(`of a possible ${NONE}`);
  });
});
